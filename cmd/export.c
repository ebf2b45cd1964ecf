/* fuel-export: an H5PYDataset file's splits in the layouts Caffe, Mocha, MXNet and NumPy read. */
#include "common/base/error.h"
#include "exporters/export.h"
#include "converters/file_resolve.h"
#include "commands.h"

#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct export_options {
    const char *form, *directory, *data, *label, *dtype;
    struct option_list splits;
    double scale;
    long examples_per_file, threads;
    bool quiet;
};

static const struct export_options defaults = {.scale = 1.0};

#define MEMBER(name) .offset = offsetof(struct export_options, name)

static const struct command_option options[] = {
    {.long_name = "to", .kind = OPTION_STRING, MEMBER(form), .argument = "FORM",
     .help = "the layout: hdf5-layer, recordio, image-list or npy (required)",
     .completion = COMPLETE_CHOICE, .choices = export_form_names, .required = true},
    {.short_name = 'o', .long_name = "output", .kind = OPTION_STRING, MEMBER(directory),
     .argument = "DIR", .help = "where to write the files (required)",
     .completion = COMPLETE_DIRECTORY, .required = true},
    {.long_name = "split", .kind = OPTION_LIST, MEMBER(splits), .argument = "S",
     .help = "a split to export, repeatable (default: every split)"},
    {.long_name = "data", .kind = OPTION_STRING, MEMBER(data), .argument = "SOURCE",
     .help = "the data source (default: features)"},
    {.long_name = "label", .kind = OPTION_STRING, MEMBER(label), .argument = "SOURCE",
     .help = "the label source (default: targets, when the file has it)"},
    {.long_name = "dtype", .kind = OPTION_STRING, MEMBER(dtype), .argument = "TYPE",
     .help = "float type of the data (hdf5-layer: float32; npy: as stored)",
     .completion = COMPLETE_CHOICE, .choices = "float32 float64"},
    {.long_name = "scale", .kind = OPTION_DECIMAL, MEMBER(scale), .argument = "X",
     .help = "multiply the data by X when converting to float (0.00390625: 1/256)",
     .minimum = -1e300, .maximum = 1e300},
    {.long_name = "examples-per-file", .kind = OPTION_INTEGER, MEMBER(examples_per_file),
     .argument = "N", .help = "hdf5-layer: examples per file (default: Caffe's limits)",
     .minimum = 1, .maximum = 1e15},
    {.long_name = "threads", .kind = OPTION_INTEGER, MEMBER(threads), .argument = "N",
     .help = "PNG encoding threads (default: one per processor)", .minimum = 1, .maximum = 64},
    {.short_name = 'q', .long_name = "quiet", .kind = OPTION_FLAG, MEMBER(quiet),
     .help = "no progress line"},
};

const struct command_line export_command_line = {
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
    .options_size = sizeof(struct export_options),
    .option_defaults = &defaults,
    .maximum_positionals = 1,
    .positional_name = "FILE or NAME",
    .positional_completion = COMPLETE_FILE_OR_DATASET,
};

static void print_published(const char *path, void *context)
{
    (void)context;
    printf("%s\n", path);
    fflush(stdout);
}

int export_body(const struct command_run *run)
{
    const struct export_options *chosen = run->options;
    char input[PATH_MAX];
    int result = file_resolve(run->parsed->positionals[0], input, sizeof input);
    if (result != EXIT_OK)
        return result;
    char *command = typed_command_text(run->typed);
    struct export_request request = {
        .input_path = input, .directory = chosen->directory, .form = chosen->form,
        .splits = chosen->splits.items, .split_count = chosen->splits.count,
        .data_source = chosen->data ? chosen->data : "features", .label_source = chosen->label,
        .dtype = chosen->dtype, .scale = chosen->scale,
        .examples_per_file = (uint64_t)chosen->examples_per_file,
        .threads = (unsigned)chosen->threads, .argc = run->typed->argc, .argv = run->typed->argv,
        .command = command ? command : run->program,
        .progress = chosen->quiet || !isatty(STDERR_FILENO) ? PROGRESS_QUIET : PROGRESS_LIVE,
    };
    result = export_run(&request, print_published, NULL);
    free(command);
    return result;
}
