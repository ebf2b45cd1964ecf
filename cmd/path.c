/* fuel-path: prints where a name is found in the data path, for h5=$(fuel path mnist.hdf5). */
#include "../common/config.h"
#include "../common/error.h"
#include "commands.h"
#include "usage.h"

#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static const char program[] = "fuel-path";

static const char usage[] =
    "usage: fuel-path [-h] [--json] NAME\n"
    "\n"
    "Prints the full path of NAME in the first directory of the data path (FUEL_DATA_PATH or\n"
    "data_path in ~/.fuelrc) that holds it; exit 3, naming the directories searched, when none\n"
    "does.\n"
    "\n"
    "options:\n"
    "  -h, --help  show this help and exit\n"
    "  --json      print {\"name\": NAME, \"path\": PATH}\n";

static int path_print(const char *name, bool as_json)
{
    struct fuel_config config = {0};
    char path[PATH_MAX];
    int result = config_load(&config);
    if (result == EXIT_OK)
        result = data_path_find(&config, name, path, sizeof path);
    config_free(&config);
    if (result != EXIT_OK)
        return result;
    if (as_json) {
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

int cmd_path(int argc, char **argv)
{
    enum { OPTION_JSON = 256 };
    static const struct option options[] = {{"help", no_argument, NULL, 'h'},
                                            {"json", no_argument, NULL, OPTION_JSON},
                                            {NULL, 0, NULL, 0}};
    bool as_json = false;
    int option;
    opterr = 0;
    optind = 1;
    while ((option = getopt_long(argc, argv, "h", options, NULL)) != -1) {
        if (option == 'h') {
            fputs(usage, stdout);
            return EXIT_OK;
        }
        if (option != OPTION_JSON)
            return usage_error(program, "unknown option: %s", argv[optind - 1]);
        as_json = true;
    }
    if (optind == argc)
        return usage_error(program, "missing NAME");
    if (argc - optind > 1)
        return usage_error(program, "one NAME expected, got also: %s", argv[optind + 1]);
    error_clear();
    int result = path_print(argv[optind], as_json);
    if (result != EXIT_OK)
        error_print(program);
    return result;
}
