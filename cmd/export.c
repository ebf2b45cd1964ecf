/* fuel-export: an H5PYDataset file's splits in the layouts Caffe, Mocha, MXNet and NumPy read. */
#include "common/base/error.h"
#include "exporters/export.h"
#include "exporters/input_find.h"
#include "commands.h"
#include "parse_options.h"
#include "threads_option.h"
#include "usage.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static const char program[] = "fuel-export";

static struct export_options {
    const char *form, *directory, *data, *label, *dtype;
    struct option_list splits;
    double scale;
    long examples_per_file, threads;
    bool quiet;
} chosen;

static const struct command_option options[] = {
    {.long_name = "to", .kind = OPTION_STRING, .value = &chosen.form, .argument = "FORM",
     .help = "the layout: hdf5-layer, recordio, image-list or npy (required)",
     .completion = COMPLETE_CHOICE, .choices = export_form_names},
    {.short_name = 'o', .long_name = "output", .kind = OPTION_STRING, .value = &chosen.directory,
     .argument = "DIR", .help = "where to write the files (required)",
     .completion = COMPLETE_DIRECTORY},
    {.long_name = "split", .kind = OPTION_LIST, .value = &chosen.splits, .argument = "S",
     .help = "a split to export, repeatable (default: every split)"},
    {.long_name = "data", .kind = OPTION_STRING, .value = &chosen.data, .argument = "SOURCE",
     .help = "the data source (default: features)"},
    {.long_name = "label", .kind = OPTION_STRING, .value = &chosen.label, .argument = "SOURCE",
     .help = "the label source (default: targets, when the file has it)"},
    {.long_name = "dtype", .kind = OPTION_STRING, .value = &chosen.dtype, .argument = "TYPE",
     .help = "float type of the data (hdf5-layer: float32; npy: as stored)",
     .completion = COMPLETE_CHOICE, .choices = "float32 float64"},
    {.long_name = "scale", .kind = OPTION_DECIMAL, .value = &chosen.scale, .argument = "X",
     .help = "multiply the data by X when converting to float (0.00390625: 1/256)",
     .minimum = -1e300, .maximum = 1e300},
    {.long_name = "examples-per-file", .kind = OPTION_INTEGER, .value = &chosen.examples_per_file,
     .argument = "N", .help = "hdf5-layer: examples per file (default: Caffe's limits)",
     .minimum = 1, .maximum = 1e15},
    THREADS_OPTION(chosen.threads, "PNG encoding threads"),
    {.short_name = 'q', .long_name = "quiet", .kind = OPTION_FLAG, .value = &chosen.quiet,
     .help = "no progress line"},
};

const struct command_line export_command_line = {
    .program = program,
    .usage = "[-h] FILE|NAME --to FORM -o DIR [--split S]... [--data SOURCE] [--label SOURCE]\n"
             "       [--dtype float32|float64] [--scale X] [--examples-per-file N] [--threads N] [-q]",
    .description =
        "Writes each split of an H5PYDataset file (a path, or a name found in the data path) as\n"
        "files named NAME_SPLIT... in DIR: hdf5-layer (Caffe/Mocha HDF5 layers and their list),\n"
        "recordio (MXNet .rec, .idx, .lst), image-list (SPLIT/LABEL/N.png and a list) or npy\n"
        "(NAME_SPLIT_SOURCE.npy). Each set is published whole or not at all, with its provenance.\n"
        "Prints the list or main file of each set.",
    .options = options,
    .option_count = sizeof options / sizeof options[0],
    .maximum_positionals = 1,
    .positional_completion = COMPLETE_FILE_OR_DATASET,
};

static void print_published(const char *path, void *context)
{
    (void)context;
    printf("%s\n", path);
    fflush(stdout);
}

static int export_start(const char *argument, const struct typed_command *typed)
{
    char input[PATH_MAX];
    int result = input_find(argument, input, sizeof input);
    if (result != EXIT_OK)
        return result;
    char *command = typed_command_text(typed);
    struct export_request request = {
        .input_path = input, .directory = chosen.directory, .form = chosen.form,
        .splits = chosen.splits.items, .split_count = chosen.splits.count,
        .data_source = chosen.data ? chosen.data : "features", .label_source = chosen.label,
        .dtype = chosen.dtype, .scale = chosen.scale,
        .examples_per_file = (uint64_t)chosen.examples_per_file,
        .threads = (unsigned)chosen.threads, .argc = typed->argc, .argv = typed->argv,
        .command = command ? command : program,
        .progress = chosen.quiet || !isatty(STDERR_FILENO) ? PROGRESS_QUIET : PROGRESS_LIVE,
    };
    result = export_run(&request, print_published, NULL);
    free(command);
    return result;
}

int cmd_export(int argc, char **argv, const struct typed_command *typed)
{
    chosen = (struct export_options){.scale = 1.0};
    struct parsed_arguments parsed;
    int result = options_parse(&export_command_line, argc, argv, &parsed);
    if (result == EXIT_OK && parsed.help)
        options_print_help(&export_command_line, stdout);
    else if (result == EXIT_OK && parsed.positional_count == 0)
        result = usage_error(program, "missing FILE or NAME");
    else if (result == EXIT_OK && chosen.form == NULL)
        result = usage_error(program, "missing --to FORM (%s)", export_form_names);
    else if (result == EXIT_OK && chosen.directory == NULL)
        result = usage_error(program, "missing -o DIR");
    else if (result == EXIT_OK) {
        error_clear();
        result = export_start(parsed.positionals[0], typed);
        if (result != EXIT_OK)
            error_print(program);
    }
    parsed_arguments_free(&parsed);
    return result;
}
