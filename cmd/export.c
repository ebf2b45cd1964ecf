/* fuel-export: an H5PYDataset file's splits in the layouts Caffe, Mocha, MXNet, NumPy, WebDataset
   and TensorFlow read. */
#include "common/base/error.h"
#include "exporters/export_driver.h"
#include "cmd/file_resolve.h"
#include "cmd/export_store.h"
#include "commands.h"
#include "s3/s3_publish.h"
#include "store_options.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct export_options {
    const char *form, *directory, *data, *label, *dtype, *shard_size;
    struct option_list splits, sources;
    double scale;
    long examples_per_file, threads, shards, shard_examples, ranks, seed;
    bool quiet, shuffle;
    struct store_settings store;
};

static const struct export_options defaults = {.scale = 1.0, .seed = -1};

#define MEMBER(name) .offset = offsetof(struct export_options, name)

static const struct command_option options[] = {
    {.long_name = "to", .kind = OPTION_STRING, MEMBER(form), .argument = "FORM",
     .help = "the layout: hdf5-layer, recordio, image-list, npy, webdataset or tfrecord "
             "(required)",
     .completion = COMPLETE_CHOICE, .choices = export_form_names, .required = true},
    {.short_name = 'o', .long_name = "output", .kind = OPTION_STRING, MEMBER(directory),
     .argument = "DIR", .help = "where to write the files, a directory or s3://BUCKET/PREFIX "
             "(required)",
     .completion = COMPLETE_DIRECTORY, .required = true},
    {.long_name = "split", .kind = OPTION_LIST, MEMBER(splits), .argument = "S",
     .help = "a split to export, repeatable (default: every split)"},
    {.long_name = "data", .kind = OPTION_STRING, MEMBER(data), .argument = "SOURCE",
     .help = "the data source (default: features, or encoded_images where there are no features: "
             "JPEGs passed through as stored)"},
    {.long_name = "label", .kind = OPTION_STRING, MEMBER(label), .argument = "SOURCE",
     .help = "the label source (default: targets, when the file has it)"},
    {.long_name = "dtype", .kind = OPTION_STRING, MEMBER(dtype), .argument = "float32|float64",
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
    {.long_name = "source", .kind = OPTION_LIST, MEMBER(sources), .argument = "SOURCE",
     .help = "webdataset, tfrecord: a source to write, repeatable (default: every source)"},
    {.long_name = "shards", .kind = OPTION_INTEGER, MEMBER(shards), .argument = "N",
     .help = "webdataset, tfrecord: N shards per split", .minimum = 1, .maximum = 1e12},
    {.long_name = "shard-size", .kind = OPTION_STRING, MEMBER(shard_size), .argument = "BYTES",
     .help = "webdataset, tfrecord: shards of about BYTES (K, M, G suffixes; default 256M)",
     .usage = USAGE_EITHER},
    {.long_name = "shard-examples", .kind = OPTION_INTEGER, MEMBER(shard_examples),
     .argument = "K", .help = "webdataset, tfrecord: at most K examples per shard",
     .minimum = 1, .maximum = 1e15, .usage = USAGE_EITHER},
    {.long_name = "ranks", .kind = OPTION_INTEGER, MEMBER(ranks), .argument = "R",
     .help = "webdataset, tfrecord: a multiple of R shards, equal shares for R ranks",
     .minimum = 1, .maximum = 1e9},
    {.long_name = "shuffle", .kind = OPTION_FLAG, MEMBER(shuffle),
     .help = "webdataset, tfrecord: write the examples in a seeded permutation"},
    {.long_name = "seed", .kind = OPTION_INTEGER, MEMBER(seed), .argument = "S",
     .help = "--shuffle's seed, numpy's RandomState(S).permutation (default 0)", .minimum = 0,
     .maximum = 4294967295.0, .usage = USAGE_INSIDE},
    STORE_OPTIONS(struct export_options, store),
};

const struct command_line export_command_line = {
    .description =
        "Writes each split of an H5PYDataset file (a path, or a name found in the data path) as\n"
        "files named NAME_SPLIT... in DIR: hdf5-layer (Caffe/Mocha HDF5 layers and their list),\n"
        "recordio (MXNet .rec, .idx, .lst), image-list (SPLIT/LABEL/N.png and a list), npy\n"
        "(NAME_SPLIT_SOURCE.npy), webdataset (SPLIT-000000.tar shards) or tfrecord\n"
        "(SPLIT-00000-of-000NN.tfrecord shards of tf.train.Example), the shard forms with a\n"
        "SPLIT.json listing. Each set is published whole or not at all, with its provenance.\n"
        "Prints the list or main file of each set.",
    .options = options,
    .option_count = sizeof options / sizeof options[0],
    .options_size = sizeof(struct export_options),
    .option_defaults = &defaults,
    .maximum_positionals = 1,
    .positional_name = "FILE or NAME",
    .positional_usage = "FILE|NAME",
    .positionals_first = true,
    .positional_completion = COMPLETE_FILE_OR_DATASET,
};

static void print_published(const char *path, const char *label, void *context)
{
    (void)label;
    (void)context;
    printf("%s\n", path);
    fflush(stdout);
}

/* BYTES, or a number with a K, M, G or T suffix (powers of 1024; KiB, MB and the like too). */
static int size_parse(const char *text, uint64_t *bytes)
{
    *bytes = 0;
    if (text == NULL)
        return EXIT_OK;
    char *end;
    errno = 0;
    unsigned long long value = isdigit((unsigned char)text[0]) ? strtoull(text, &end, 10) : 0;
    const char *units = "KMGT";
    const char *unit = value && *end ? strchr(units, toupper((unsigned char)*end)) : NULL;
    uint64_t scale = 1;
    if (unit != NULL) {
        scale = (uint64_t)1 << (10 * (unit - units + 1));
        end++;
        end += strcmp(end, "iB") == 0 || strcmp(end, "B") == 0 ? strlen(end) : 0;
    }
    if (value == 0 || errno != 0 || *end != '\0' || (unit != NULL && *end != '\0') ||
        value > UINT64_MAX / scale)
        return error_set(EXIT_USAGE, "--shard-size %s is not a size: give BYTES, or a number "
                         "with K, M or G", text);
    *bytes = value * scale;
    return EXIT_OK;
}

int export_body(const struct command_run *run)
{
    const struct export_options *chosen = run->options;
    store_settings_apply(&chosen->store);
    char input[PATH_MAX];
    uint64_t shard_size;
    int result = size_parse(chosen->shard_size, &shard_size);
    if (result != EXIT_OK)
        return result;
    result = file_resolve(run->parsed->positionals[0], input, sizeof input);
    if (result != EXIT_OK)
        return result;
    char *command = typed_command_text(run->typed);
    struct export_request request = {
        .input_path = input, .directory = chosen->directory, .form = chosen->form,
        .splits = chosen->splits.items, .split_count = chosen->splits.count,
        .data_source = chosen->data, .data_given = chosen->data != NULL,
        .label_source = chosen->label,
        .dtype = chosen->dtype, .scale = chosen->scale,
        .examples_per_file = (uint64_t)chosen->examples_per_file,
        .threads = (unsigned)chosen->threads, .argc = run->typed->argc, .argv = run->typed->argv,
        .sources = chosen->sources.items, .source_count = chosen->sources.count,
        .shards = (uint64_t)chosen->shards, .shard_size = shard_size,
        .shard_examples = (uint64_t)chosen->shard_examples, .ranks = (uint64_t)chosen->ranks,
        .shuffle = chosen->shuffle, .seed_given = chosen->seed >= 0,
        .seed = chosen->seed >= 0 ? (uint32_t)chosen->seed : 0,
        .command = command ? command : run->program,
        .progress = chosen->quiet || !isatty(STDERR_FILENO) ? PROGRESS_QUIET : PROGRESS_LIVE,
    };
    result = s3_is_url(request.directory) ? export_to_store(&request)
                                          : export_run(&request, print_published, NULL);
    free(command);
    return result;
}
