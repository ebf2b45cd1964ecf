/* fuel-path: prints where a name is found in the data path, for h5=$(fuel path mnist.hdf5). */
#include "common/base/config.h"
#include "common/base/error.h"
#include "converters/file_resolve.h"
#include "commands.h"
#include "parse_options.h"
#include "usage.h"

#include <jansson.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static const char program[] = "fuel-path";

static bool as_json;

static const struct command_option options[] = {
    {.long_name = "json", .kind = OPTION_FLAG, .value = &as_json,
     .help = "print {\"name\": NAME, \"path\": PATH}"},
};

const struct command_line path_command_line = {
    .program = program,
    .usage = "[-h] [--json] NAME",
    .description =
        "Prints the full path of NAME in the first directory of the data path (FUEL_DATA_PATH or\n"
        "data_path in ~/.fuelrc) that holds it; exit 3, naming the directories searched, when none\n"
        "does.",
    .options = options,
    .option_count = sizeof options / sizeof options[0],
    .maximum_positionals = (size_t)-1,
    .positional_completion = COMPLETE_FILE,
};

static int path_print(const char *name, bool json)
{
    char path[PATH_MAX];
    int result = file_resolve_in_data_path(name, path, sizeof path);
    if (result != EXIT_OK)
        return result;
    if (json) {
        json_t *document = json_pack("{s:s, s:s}", "name", name, "path", path);
        result = json_dumpf(document, stdout, JSON_INDENT(2)) == 0 ? EXIT_OK : EXIT_WRITE;
        json_decref(document);
        putchar('\n');
    } else {
        printf("%s\n", path);
    }
    if (fflush(stdout) != 0 || ferror(stdout) || result != EXIT_OK)
        return error_set(EXIT_WRITE, "cannot write: standard output");
    return EXIT_OK;
}

static int path_command(const struct parsed_arguments *parsed)
{
    if (parsed->positional_count == 0)
        return usage_error(program, "missing NAME");
    if (parsed->positional_count > 1)
        return usage_error(program, "one NAME expected, got also: %s", parsed->positionals[1]);
    error_clear();
    int result = path_print(parsed->positionals[0], as_json);
    if (result != EXIT_OK)
        error_print(program);
    return result;
}

int cmd_path(int argc, char **argv, const struct typed_command *typed)
{
    (void)typed;
    return options_run(&path_command_line, argc, argv, path_command);
}
