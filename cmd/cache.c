/* fuel-cache: Fuel's local_data_path caching; copies a data path file to a local disk once. */
#include "common/base/config.h"
#include "common/base/error.h"
#include "cmd/file_resolve.h"
#include "cmd/local_cache.h"
#include "s3/s3_cache.h"
#include "common/download/s3_location.h"
#include "commands.h"
#include "store_options.h"
#include "usage.h"

#include <stddef.h>
#include <jansson.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct cache_options {
    bool as_json, quiet;
    struct store_settings store;
};

static const struct command_option options[] = {
    {.short_name = 'q', .long_name = "quiet", .kind = OPTION_FLAG,
     .offset = offsetof(struct cache_options, quiet),
     .help = "do not say on stderr whether the file was copied or reused"},
    {.long_name = "json", .kind = OPTION_FLAG, .offset = offsetof(struct cache_options, as_json),
     .help = "print {\"name\", \"original\", \"path\", \"copied\"}"},
    STORE_OPTIONS(struct cache_options, store),
};

const struct command_line cache_command_line = {
    .description =
        "Copies NAME, found in the data path, to the local data path (FUEL_LOCAL_DATA_PATH or\n"
        "local_data_path in ~/.fuelrc) and prints the local copy's path. The copy is made once,\n"
        "under a lock and atomically, and reused while its size and modification time match the\n"
        "original's, as Fuel's local_data_path does. NAME may be s3://BUCKET/KEY (fuel-s3(7)),\n"
        "or found in an s3:// data path entry: the copy, LOCAL/s3/BUCKET/KEY, is verified\n"
        "against the object's size and sha256 and reused while it still matches them.",
    .options = options,
    .option_count = sizeof options / sizeof options[0],
    .options_size = sizeof(struct cache_options),
    .maximum_positionals = (size_t)-1,
    .positional_name = "NAME",
    .positional_usage = "NAME",
    .positional_completion = COMPLETE_FILE_OR_DATASET,
};

static int result_print(const char *name, const char *original, const char *path,
                        enum cache_outcome outcome, bool as_json)
{
    int result = EXIT_OK;
    if (as_json) {
        json_t *document = json_pack("{s:s, s:s, s:s, s:b}", "name", name, "original", original,
                                     "path", path, "copied", outcome == CACHE_COPIED);
        result = json_dumpf(document, stdout, JSON_INDENT(2));
        json_decref(document);
        putchar('\n');
    } else {
        printf("%s\n", path);
    }
    if (fflush(stdout) != 0 || ferror(stdout) || result != 0)
        return error_set(EXIT_WRITE, "cannot write: standard output");
    return EXIT_OK;
}

/* The copy of an s3:// object, fetched once and verified. */
static int cache_object(const char *local, const char *url, char *path, size_t size,
                        enum cache_outcome *outcome, bool quiet)
{
    bool copied = false;
    enum progress_mode progress = !quiet && isatty(STDERR_FILENO) ? PROGRESS_LIVE : PROGRESS_QUIET;
    int result = s3_cache(url, local, progress, path, size, &copied);
    *outcome = copied ? CACHE_COPIED : CACHE_REUSED;
    return result;
}

static int cache_run(const char *program, const char *name, bool as_json, bool quiet)
{
    struct fuel_config config = {0};
    char original[PATH_MAX], path[PATH_MAX];
    enum cache_outcome outcome;
    int result = config_load(&config);
    if (result == EXIT_OK && (config.local_data_path == NULL || config.local_data_path[0] == '\0'))
        result = error_set(EXIT_USAGE, "no local data path: %s: set FUEL_LOCAL_DATA_PATH or "
                           "local_data_path in %s", name, config_file_shown());
    if (result == EXIT_OK && s3_is_url(name))
        snprintf(original, sizeof original, "%s", name);
    else if (result == EXIT_OK)
        result = file_resolve_in_data_path(name, original, sizeof original);
    bool object = result == EXIT_OK && s3_is_url(original);
    if (object)
        result = cache_object(config.local_data_path, original, path, sizeof path, &outcome,
                              quiet);
    /* A dataset name finds its converted file: the copy takes that file's name. */
    const char *slash = strrchr(original, '/');
    if (result == EXIT_OK && (object || strchr(name, '/') == NULL) && slash != NULL)
        name = slash + 1;
    if (result == EXIT_OK && !object)
        result = local_cache(original, config.local_data_path, name, path, sizeof path, &outcome);
    if (result == EXIT_OK && !quiet)
        fprintf(stderr, "%s: %s %s\n", program,
                outcome == CACHE_COPIED ? "copied" : "reusing the copy of", original);
    if (result == EXIT_OK)
        result = result_print(name, original, path, outcome, as_json);
    config_free(&config);
    return result;
}

/* A NAME that would put the copy outside the local data path: absolute, or with a ".." part. */
static bool name_escapes(const char *name)
{
    if (name[0] == '/')
        return true;
    const char *part = name;
    while (part != NULL) {
        if (strncmp(part, "..", 2) == 0 && (part[2] == '/' || part[2] == '\0'))
            return true;
        const char *slash = strchr(part, '/');
        part = slash != NULL ? slash + 1 : NULL;
    }
    return false;
}

static int cache_arguments(const char *program, const struct parsed_arguments *parsed)
{
    if (parsed->positional_count > 1)
        return usage_error(program, "one NAME expected, got also: %s", parsed->positionals[1]);
    if (!s3_is_url(parsed->positionals[0]) && name_escapes(parsed->positionals[0]))
        return usage_error(program,
                           "NAME must stay inside the data path, no '/' first nor '..': %s",
                           parsed->positionals[0]);
    return EXIT_OK;
}

int cache_body(const struct command_run *run)
{
    const struct cache_options *options = run->options;
    store_settings_apply(&options->store);
    int result = cache_arguments(run->program, run->parsed);
    if (result != EXIT_OK)
        return result;
    return cache_run(run->program, run->parsed->positionals[0], options->as_json, options->quiet);
}
