/* fuel-stats: what a file's splits hold: counts, value statistics per channel, class counts
   with their names, lengths of variable-length sources, and the values of Normalize. */
#include "common/base/error.h"
#include "cmd/fault_guard.h"
#include "common/h5py/h5py_input.h"
#include "cmd/file_resolve.h"
#include "stats/stats_plot.h"
#include "stats/stats_report.h"
#include "stats/stats_text.h"
#include "commands.h"
#include "stage_progress.h"
#include "threads_option.h"
#include "store_options.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

struct stats_options {
    const char *split, *sources, *plot;
    bool as_json, quiet, decode;
    long threads;
    struct store_settings store;
};

#define MEMBER(name) .offset = offsetof(struct stats_options, name)

static const struct command_option options[] = {
    {.long_name = "split", .kind = OPTION_STRING, MEMBER(split), .argument = "S",
     .help = "only split S, whose image source gives the Normalize values (default: every "
             "split; Normalize from train)"},
    {.long_name = "sources", .kind = OPTION_STRING, MEMBER(sources), .argument = "A,B",
     .help = "only these sources, comma-separated (default: every source)"},
    {.long_name = "decode", .kind = OPTION_FLAG, MEMBER(decode),
     .help = "decode stored JPEG and PNG files: their pixels' statistics as RGB (PIL's "
             "convert(\"RGB\")), per channel"},
    THREADS_OPTION(struct stats_options, threads, "threads summarising blocks and decoding images",
                   USAGE_SHOWN),
    {.long_name = "plot", .kind = OPTION_STRING, MEMBER(plot), .argument = "FILE.png",
     .help = "also draw the class histograms and each channel's value histogram of the "
             "Normalize split (train by default) into FILE.png",
     .completion = COMPLETE_FILE},
    {.long_name = "json", .kind = OPTION_FLAG, MEMBER(as_json),
     .help = "print one JSON object instead of text"},
    {.short_name = 'q', .long_name = "quiet", .kind = OPTION_FLAG, MEMBER(quiet),
     .help = "no progress line on a terminal"},
    STORE_OPTIONS(struct stats_options, store),
};

const struct command_line stats_command_line = {
    .description =
        "Reads every example of a file's splits and sources (in blocks, in bounded memory) and\n"
        "prints, per split and source: the count; for numbers the minimum, maximum, mean and\n"
        "population standard deviation of the finite values (float64; per channel where an\n"
        "axis is labelled channel) and the NaN and Inf counts; for label sources the count of\n"
        "each class with its name; for variable-length sources each axis' minimum, median and\n"
        "maximum length and the bytes (with --decode, stored JPEG and PNG files decoded as\n"
        "PIL decodes them, made RGB, summarised per channel); then the train split's (or S's)\n"
        "image channels as torchvision.transforms.Normalize takes them (bytes scaled to [0, 1]).",
    .options = options,
    .option_count = sizeof options / sizeof options[0],
    .options_size = sizeof(struct stats_options),
    .maximum_positionals = 1,
    .positional_name = "FILE or NAME",
    .positional_usage = "FILE|NAME",
    .positionals_first = true,
    .positional_completion = COMPLETE_FILE_OR_DATASET,
};

enum { MAXIMUM_SOURCES = 256 };

/* Splits "A,B" into NAMES (pointers into TEXT, which is modified). */
static int sources_split(char *text, const char *names[MAXIMUM_SOURCES], size_t *count)
{
    *count = 0;
    for (char *name = strtok(text, ","); name != NULL; name = strtok(NULL, ",")) {
        if (*count == MAXIMUM_SOURCES)
            return error_set(EXIT_USAGE, "--sources: more than %d sources", MAXIMUM_SOURCES);
        names[(*count)++] = name;
    }
    return *count == 0 ? error_set(EXIT_USAGE, "--sources: no source named") : EXIT_OK;
}

static int report_print(const json_t *report, bool as_json)
{
    if (as_json) {
        if (json_dumpf(report, stdout, JSON_INDENT(2)) != 0)
            return error_set(EXIT_WRITE, "cannot write: standard output: %s", strerror(errno));
        putchar('\n');
    } else {
        stats_text_print(stdout, report);
    }
    if (fflush(stdout) != 0 || ferror(stdout))
        return error_set(EXIT_WRITE, "cannot write: standard output: %s", strerror(errno));
    return EXIT_OK;
}

static int file_report(const char *program, const struct stats_options *chosen,
                       struct h5py_file *file, struct stats_request *request)
{
    struct stage_progress drawn;
    stage_progress_begin(&drawn, chosen->quiet, &request->listener);
    fault_guard_set(program, file->path);
    json_t *report = NULL;
    int result = stats_report(file, request, &report);
    fault_guard_clear();
    stage_progress_end(&drawn);
    if (result == EXIT_OK && chosen->plot != NULL)
        result = stats_plot_write(report, chosen->plot);
    if (result == EXIT_OK)
        result = report_print(report, chosen->as_json);
    json_decref(report);
    return result;
}

int stats_body(const struct command_run *run)
{
    const struct stats_options *chosen = run->options;
    store_settings_apply(&chosen->store);
    char input[PATH_MAX], sources_text[4096];
    const char *names[MAXIMUM_SOURCES];
    struct stats_request request = {
        .split = chosen->split,
        .options = {.decode = chosen->decode, .threads = (unsigned)chosen->threads},
        .plot = chosen->plot != NULL};
    int result = EXIT_OK;
    if (chosen->sources != NULL) {
        snprintf(sources_text, sizeof sources_text, "%s", chosen->sources);
        result = sources_split(sources_text, names, &request.source_count);
        request.sources = names;
    }
    if (result == EXIT_OK)
        result = file_resolve(run->parsed->positionals[0], input, sizeof input);
    struct h5py_file *file = NULL;
    if (result == EXIT_OK)
        result = h5py_input_open(&file, input);
    if (result == EXIT_OK)
        result = file_report(run->program, chosen, file, &request);
    h5py_reader_close(file);
    return result;
}
