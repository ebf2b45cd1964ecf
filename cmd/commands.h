/* The entry points of fuel's subcommands and what the dispatcher tells them. */
#ifndef FUEL_COMMANDS_H
#define FUEL_COMMANDS_H

#include "parse_options.h"

/* Each takes argv with argv[0] = "fuel-NAME" and returns the process exit code. */
int cmd_cache(int argc, char **argv);
int cmd_clean(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_download(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_fetch(int argc, char **argv);
int cmd_fixture(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_path(int argc, char **argv);
int cmd_preview(int argc, char **argv);

/* Each command's option table (cmd/parse_options.h), listed in fuel.c's command table. */
extern const struct command_line path_command_line;
extern const struct command_line fixture_command_line;
extern const struct command_line export_command_line;
extern const struct command_line preview_command_line;

/* The command line exactly as the user typed it (argv of main), for provenance. */
extern int typed_argc;
extern char **typed_argv;

/* The basename of typed argv[0] and the arguments, space-joined: fuel_convert_command (caller
   frees); NULL when out of memory. Defined in conversion.c. */
char *typed_command(void);

#endif
