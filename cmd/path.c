/* fuel-path: prints where a name is found in the data path, for h5=$(fuel path mnist.hdf5). */
#include "common/base/config.h"
#include "common/base/error.h"
#include "cmd/file_resolve.h"
#include "commands.h"
#include "usage.h"

#include <jansson.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

struct path_options {
    bool as_json;
};

static const struct command_option options[] = {
    {.long_name = "json", .kind = OPTION_FLAG, .offset = offsetof(struct path_options, as_json),
     .help = "print {\"name\": NAME, \"path\": PATH}"},
};

const struct command_line path_command_line = {
    .description =
        "Prints the full path of NAME in the first entry of the data path (FUEL_DATA_PATH or\n"
        "data_path in ~/.fuelrc) that holds it; exit 3, naming the entries searched, when none\n"
        "does. An s3://BUCKET/PREFIX entry (fuel-s3(7)) gives the object's s3:// URL; fuel cache\n"
        "NAME makes its local copy.",
    .options = options,
    .option_count = sizeof options / sizeof options[0],
    .options_size = sizeof(struct path_options),
    .maximum_positionals = (size_t)-1,
    .positional_name = "NAME",
    .positional_usage = "NAME",
    .positional_completion = COMPLETE_FILE_OR_DATASET,
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

int path_body(const struct command_run *run)
{
    const struct path_options *options = run->options;
    const struct parsed_arguments *parsed = run->parsed;
    if (parsed->positional_count > 1)
        return usage_error(run->program, "one NAME expected, got also: %s",
                           parsed->positionals[1]);
    return path_print(parsed->positionals[0], options->as_json);
}
