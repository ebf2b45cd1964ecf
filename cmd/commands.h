/* The entry points of fuel's subcommands and what the dispatcher tells them. */
#ifndef FUEL_COMMANDS_H
#define FUEL_COMMANDS_H

#include "common/h5py/provenance.h"
#include "parse_options.h"

/* Each takes argv with argv[0] = "fuel-NAME" and TYPED, the command line exactly as the user
   typed it (main's argv, for provenance), and returns the process exit code. */
int cmd_cache(int argc, char **argv, const struct typed_command *typed);
int cmd_clean(int argc, char **argv, const struct typed_command *typed);
int cmd_completion(int argc, char **argv, const struct typed_command *typed);
int cmd_complete(int argc, char **argv, const struct typed_command *typed);
int cmd_convert(int argc, char **argv, const struct typed_command *typed);
int cmd_download(int argc, char **argv, const struct typed_command *typed);
int cmd_export(int argc, char **argv, const struct typed_command *typed);
int cmd_fetch(int argc, char **argv, const struct typed_command *typed);
int cmd_fixture(int argc, char **argv, const struct typed_command *typed);
int cmd_info(int argc, char **argv, const struct typed_command *typed);
int cmd_list(int argc, char **argv, const struct typed_command *typed);
int cmd_path(int argc, char **argv, const struct typed_command *typed);
int cmd_preview(int argc, char **argv, const struct typed_command *typed);
int cmd_serve(int argc, char **argv, const struct typed_command *typed);
int cmd_svhn_boxes(int argc, char **argv, const struct typed_command *typed);

/* An entry of fuel.c's command table. */
struct command {
    const char *name;
    int (*run)(int argc, char **argv, const struct typed_command *typed);
    const char *summary;             /* NULL: hidden, neither listed nor completed */
    const struct command_line *line; /* its options, for completion */
};

/* The command table, COUNT entries. */
const struct command *commands_list(size_t *count);

/* Each command's option table (cmd/parse_options.h), listed in fuel.c's command table. */
extern const struct command_line cache_command_line;
extern const struct command_line clean_command_line;
extern const struct command_line completion_command_line;
extern const struct command_line convert_command_line;
extern const struct command_line download_command_line;
extern const struct command_line export_command_line;
extern const struct command_line fetch_command_line;
extern const struct command_line fixture_command_line;
extern const struct command_line info_command_line;
extern const struct command_line list_command_line;
extern const struct command_line path_command_line;
extern const struct command_line preview_command_line;
extern const struct command_line serve_command_line;

#endif
