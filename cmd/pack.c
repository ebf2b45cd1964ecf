/* fuel-pack: your own arrays, tables and images into one H5PYDataset file, from a YAML spec. */
#include "common/base/error.h"
#include "common/download/s3_location.h"
#include "commands.h"
#include "packing/pack_make.h"
#include "s3/s3_publish.h"
#include "stage_progress.h"
#include "threads_option.h"
#include "store_options.h"

#include <stddef.h>
#include <stdio.h>

struct pack_options {
    const char *output_directory, *output_filename;
    long threads;
    bool quiet;
    struct store_settings store;
};

static const struct pack_options defaults = {.output_directory = "."};

#define MEMBER(name) .offset = offsetof(struct pack_options, name)

static const struct command_option options[] = {
    {.short_name = 'o', .long_name = "output-directory", .alias = "output_directory",
     .kind = OPTION_STRING, MEMBER(output_directory), .argument = "DIR",
     .help = "where to write (default: .)", .completion = COMPLETE_DIRECTORY,
     .reproduce = REPRODUCE_REPLACED},
    {.short_name = 'r', .long_name = "output_filename", .alias = "output-filename",
     .kind = OPTION_STRING, MEMBER(output_filename), .argument = "NAME",
     .help = "file name instead of the spec's name (.hdf5 added without .hdf5/.hdf/.h5)",
     .reproduce = REPRODUCE_FILE_NAME},
    THREADS_OPTION(struct pack_options, threads, "image decoding threads", USAGE_SHOWN),
    {.short_name = 'q', .long_name = "quiet", .kind = OPTION_FLAG, MEMBER(quiet),
     .help = "no progress line", .reproduce = REPRODUCE_IGNORED},
    STORE_OPTIONS(struct pack_options, store),
};

const struct command_line pack_command_line = {
    .description =
        "Writes the H5PYDataset file the YAML spec SPEC describes, as Fuel's chapter 4 builds it\n"
        "by hand: each source from .npy, .npz members, CSV or TSV, HDF5 datasets, image folders\n"
        "(PNG, JPEG), class folders as torchvision's ImageFolder numbers them, or one .npy per\n"
        "example; splits contiguous, by rows or by indices; axis labels; ragged sources with\n"
        "their shapes. Published whole, with the spec and each input's sha256 in its provenance.\n"
        "Prints the file's path. See fuel-pack(1) for the spec.",
    .options = options,
    .option_count = sizeof options / sizeof options[0],
    .options_size = sizeof(struct pack_options),
    .option_defaults = &defaults,
    .maximum_positionals = 1,
    .positional_name = "SPEC",
    .positional_usage = "SPEC",
    .positionals_first = true,
    .positional_completion = COMPLETE_FILE,
};

/* pack_make with a progress line on a terminal unless QUIET. */
static int pack_drawn(const char *spec, struct pack_target *target, bool quiet, char *path, size_t size)
{
    struct stage_progress drawn;
    stage_progress_begin(&drawn, quiet, &target->listener);
    int result = pack_make(spec, target, path, size);
    stage_progress_end(&drawn);
    return result;
}

/* -o s3://BUCKET/PREFIX: packed into a local staging, then uploaded (fuel-s3(7)). */
static int pack_to_store(const char *spec, struct pack_target *target, bool quiet, char *path,
                         size_t size)
{
    struct s3_publish publish;
    int result = s3_publish_begin(&publish, target->output_directory, 0,
                                  target->threads > 0 ? (unsigned)target->threads : 0);
    if (result != EXIT_OK)
        return result;
    target->output_directory = publish.staging.path;
    result = pack_drawn(spec, target, quiet, path, size);
    if (result == EXIT_OK)
        result = s3_publish_file(&publish, path, path, size);
    s3_publish_end(&publish);
    return result;
}

int pack_body(const struct command_run *run)
{
    const struct pack_options *chosen = run->options;
    store_settings_apply(&chosen->store);
    struct pack_target target = {chosen->output_directory, chosen->output_filename,
                                 chosen->threads, NULL, run->typed};
    char path[4096];
    const char *spec = run->parsed->positionals[0];
    int result = s3_is_url(target.output_directory)
                     ? pack_to_store(spec, &target, chosen->quiet, path, sizeof path)
                     : pack_drawn(spec, &target, chosen->quiet, path, sizeof path);
    if (result == EXIT_OK)
        printf("%s\n", path);
    return result;
}
