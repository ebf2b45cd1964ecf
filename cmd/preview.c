/* fuel-preview: a PNG montage of a split's examples, and their labels in grid order on stdout. */
#include "common/base/error.h"
#include "cmd/file_resolve.h"
#include "exporters/preview_montage.h"
#include "commands.h"
#include "s3/s3_publish.h"
#include "store_options.h"

#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

struct preview_options {
    const char *output, *split, *source;
    long count, seed, zoom;
    struct store_settings store;
};

static const struct preview_options defaults = {.count = 64, .seed = -1, .zoom = 1};

#define MEMBER(name) .offset = offsetof(struct preview_options, name)

static const struct command_option options[] = {
    {.short_name = 'o', .long_name = "output", .kind = OPTION_STRING, MEMBER(output),
     .argument = "FILE", .help = "the PNG to write, s3://BUCKET/KEY, or - for standard output "
             "(required)",
     .completion = COMPLETE_FILE, .required = true},
    {.long_name = "split", .kind = OPTION_STRING, MEMBER(split), .argument = "S",
     .help = "the split shown (default: train, else the file's first)"},
    {.short_name = 'n', .kind = OPTION_INTEGER, MEMBER(count), .argument = "N",
     .help = "how many examples (default: 64)", .minimum = 1, .maximum = PREVIEW_MAX_EXAMPLES},
    {.long_name = "source", .kind = OPTION_STRING, MEMBER(source), .argument = "S",
     .help = "the image source (default: features, or encoded_images, JPEGs decoded, where there "
             "are no features)"},
    {.long_name = "seed", .kind = OPTION_INTEGER, MEMBER(seed), .argument = "S",
     .help = "show N examples drawn at random with seed S (default: the first N)",
     .minimum = 0, .maximum = 9007199254740991.0},
    {.long_name = "zoom", .kind = OPTION_INTEGER, MEMBER(zoom), .argument = "K",
     .help = "draw each pixel K x K (default: 1)", .minimum = 1, .maximum = PREVIEW_MAX_ZOOM},
    STORE_OPTIONS(struct preview_options, store),
};

const struct command_line preview_command_line = {
    .description =
        "Writes a PNG montage of N examples of a split (a grid of equal tiles, 2 gray pixels\n"
        "apart, each example at its tile's top left), grayscale or RGB from the axis labels,\n"
        "bounding boxes drawn in red where the file has bbox_* sources, and prints the labels in\n"
        "grid order, one line per grid row (on stderr when -o - puts the PNG on stdout).",
    .options = options,
    .option_count = sizeof options / sizeof options[0],
    .options_size = sizeof(struct preview_options),
    .option_defaults = &defaults,
    .maximum_positionals = 1,
    .positional_name = "FILE or NAME",
    .positional_usage = "FILE|NAME",
    .positionals_first = true,
    .positional_completion = COMPLETE_FILE_OR_DATASET,
};

/* A grid row's labels, on stdout, or on stderr when the PNG goes to stdout. */
static void print_row(const char *labels, void *context)
{
    fprintf(context, "%s\n", labels);
}

/* -o s3://BUCKET/KEY: the PNG written into a local staging, then uploaded as KEY. */
static int preview_to_store(struct preview_request *request, FILE *labels)
{
    const char *output = request->output_path, *slash = strrchr(output + strlen("s3://"), '/');
    if (slash == NULL || slash[1] == '\0')
        return error_set(EXIT_USAGE, "-o %s names no object: give s3://BUCKET/KEY", output);
    char prefix[S3_KEY_LIMIT + S3_BUCKET_SIZE + 16], path[sizeof prefix + 4096];
    char url[sizeof prefix + 64];
    snprintf(prefix, sizeof prefix, "%.*s", (int)(slash + 1 - output), output);
    struct s3_publish publish;
    int result = s3_publish_begin(&publish, prefix, 0, 0);
    if (result != EXIT_OK)
        return result;
    snprintf(path, sizeof path, "%s/%s", publish.staging.path, slash + 1);
    request->output_path = path;
    result = preview_run(request, print_row, labels);
    if (result == EXIT_OK)
        result = s3_publish_file(&publish, path, url, sizeof url);
    s3_publish_end(&publish);
    return result;
}

int preview_body(const struct command_run *run)
{
    const struct preview_options *chosen = run->options;
    store_settings_apply(&chosen->store);
    char input[PATH_MAX];
    struct s3_in_place place;
    bool in_place = false;
    int result = file_resolve_in_place(run->program, run->parsed->positionals[0], &place,
                                       &in_place, input, sizeof input);
    if (result != EXIT_OK)
        return result;
    struct preview_request request = {
        .input_path = input, .in_place = in_place ? &place.remote : NULL, .output_path = chosen->output, .split = chosen->split,
        .source = chosen->source, .count = (uint64_t)chosen->count,
        .seeded = chosen->seed >= 0, .seed = (uint64_t)chosen->seed,
        .zoom = (unsigned)chosen->zoom,
    };
    FILE *labels = strcmp(chosen->output, "-") == 0 ? stderr : stdout;
    result = s3_is_url(chosen->output) ? preview_to_store(&request, labels)
                                       : preview_run(&request, print_row, labels);
    if (result == EXIT_OK && (fflush(stdout) != 0 || ferror(stdout)))
        result = error_set(EXIT_WRITE, "cannot write: standard output");
    if (in_place)
        s3_in_place_free(&place);
    return result;
}
