/* fuel-preview: a PNG montage of a split's examples, and their labels in grid order on stdout. */
#include "common/base/error.h"
#include "converters/file_resolve.h"
#include "exporters/preview.h"
#include "commands.h"
#include "parse_options.h"
#include "usage.h"

#include <limits.h>
#include <stdio.h>

static const char program[] = "fuel-preview";

static struct preview_options {
    const char *output, *split, *source;
    long count, seed, zoom;
} chosen;

static const struct command_option options[] = {
    {.short_name = 'o', .long_name = "output", .kind = OPTION_STRING, .value = &chosen.output,
     .argument = "FILE", .help = "the PNG to write (required)", .completion = COMPLETE_FILE},
    {.long_name = "split", .kind = OPTION_STRING, .value = &chosen.split, .argument = "S",
     .help = "the split shown (default: train, else the file's first)"},
    {.short_name = 'n', .kind = OPTION_INTEGER, .value = &chosen.count, .argument = "N",
     .help = "how many examples (default: 64)", .minimum = 1, .maximum = PREVIEW_MAX_EXAMPLES},
    {.long_name = "source", .kind = OPTION_STRING, .value = &chosen.source, .argument = "S",
     .help = "the image source (default: features)"},
    {.long_name = "seed", .kind = OPTION_INTEGER, .value = &chosen.seed, .argument = "S",
     .help = "show N examples drawn at random with seed S (default: the first N)",
     .minimum = 0, .maximum = 9007199254740991.0},
    {.long_name = "zoom", .kind = OPTION_INTEGER, .value = &chosen.zoom, .argument = "K",
     .help = "draw each pixel K x K (default: 1)", .minimum = 1, .maximum = PREVIEW_MAX_ZOOM},
};

const struct command_line preview_command_line = {
    .program = program,
    .usage = "[-h] FILE|NAME -o FILE [--split S] [-n N] [--source S] [--seed S] [--zoom K]",
    .description =
        "Writes a PNG montage of N examples of a split (a grid of equal tiles, 2 gray pixels\n"
        "apart, each example at its tile's top left), grayscale or RGB from the axis labels,\n"
        "bounding boxes drawn in red where the file has bbox_* sources, and prints the labels in\n"
        "grid order, one line per grid row.",
    .options = options,
    .option_count = sizeof options / sizeof options[0],
    .maximum_positionals = 1,
    .positional_completion = COMPLETE_FILE_OR_DATASET,
};

static void print_row(const char *labels, void *context)
{
    (void)context;
    printf("%s\n", labels);
}

static int preview_start(const char *argument)
{
    char input[PATH_MAX];
    int result = file_resolve(argument, input, sizeof input);
    if (result != EXIT_OK)
        return result;
    struct preview_request request = {
        .input_path = input, .output_path = chosen.output, .split = chosen.split,
        .source = chosen.source ? chosen.source : "features", .count = (uint64_t)chosen.count,
        .seeded = chosen.seed >= 0, .seed = (uint64_t)chosen.seed, .zoom = (unsigned)chosen.zoom,
    };
    result = preview_run(&request, print_row, NULL);
    if (result == EXIT_OK && (fflush(stdout) != 0 || ferror(stdout)))
        result = error_set(EXIT_WRITE, "cannot write: standard output");
    return result;
}

int cmd_preview(int argc, char **argv, const struct typed_command *typed)
{
    (void)typed;
    chosen = (struct preview_options){.count = 64, .seed = -1, .zoom = 1};
    struct parsed_arguments parsed;
    int result = options_parse(&preview_command_line, argc, argv, &parsed);
    if (result == EXIT_OK && parsed.help)
        options_print_help(&preview_command_line, stdout);
    else if (result == EXIT_OK && parsed.positional_count == 0)
        result = usage_error(program, "missing FILE or NAME");
    else if (result == EXIT_OK && chosen.output == NULL)
        result = usage_error(program, "missing -o FILE");
    else if (result == EXIT_OK) {
        error_clear();
        result = preview_start(parsed.positionals[0]);
        if (result != EXIT_OK)
            error_print(program);
    }
    parsed_arguments_free(&parsed);
    return result;
}
