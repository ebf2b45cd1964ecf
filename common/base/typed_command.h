/* The command line exactly as the user typed it (main's argc and argv), for provenance. */
#ifndef FUEL_TYPED_COMMAND_H
#define FUEL_TYPED_COMMAND_H

/* Recorded whole in fuel_provenance and, joined, as fuel_convert_command. */
struct typed_command {
    int argc;
    char *const *argv;
};

/* The basename of TYPED's argv[0] and its arguments, space-joined: fuel_convert_command (caller
   frees); NULL when out of memory. */
char *typed_command_text(const struct typed_command *typed);

#endif
