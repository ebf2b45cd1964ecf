/* fuel-pack: your own arrays, tables and images into one H5PYDataset file, from a YAML spec. */
#include "common/base/directory.h"
#include "common/base/disk_space.h"
#include "common/base/error.h"
#include "common/base/publish.h"
#include "common/download/s3_location.h"
#include "s3/s3_publish.h"
#include "common/h5py/published_file.h"
#include "packing/pack.h"
#include "commands.h"
#include "pack_make.h"
#include "stage_progress.h"
#include "threads_option.h"

#include <jansson.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

struct pack_options {
    const char *output_directory, *output_filename;
    long threads;
    bool quiet;
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

struct pack_filling {
    struct pack_plan *plan;
    const struct stage_listener *listener;
};

static int pack_fill(void *context, struct h5py_writer *writer, struct provenance *provenance)
{
    struct pack_filling *filling = context;
    int result = pack_plan_write(filling->plan, writer, filling->listener, provenance);
    pack_plan_files_release(filling->plan);
    return result;
}

static int pack_publish(const char *spec, struct pack_plan *plan,
                        const struct pack_target *target, const struct stage_listener *listener,
                        char *path, size_t size)
{
    char name[1024];
    publish_file_name(target->output_filename != NULL ? target->output_filename
                                                      : pack_plan_name(plan),
                      name, sizeof name);
    const char *const *paths, *const *names;
    const bool *supplied, *apart;
    size_t count = pack_plan_files(plan, &paths, &names, &supplied, &apart);
    char shown[PATH_MAX + 1024];
    snprintf(shown, sizeof shown, "%s/%s", target->output_directory, name);
    int result = disk_space_check(target->output_directory, shown, pack_plan_bytes(plan),
                                  pack_plan_bytes(plan));
    if (result != EXIT_OK)
        return result;
    json_t *note = json_pack("{s:s}", "spec", pack_plan_spec_text(plan));
    if (note == NULL)
        return error_set(EXIT_CORRUPT_INPUT, "cannot record the spec: %s: not UTF-8 text", spec);
    struct pack_filling filling = {plan, listener};
    struct published_filler filler = {pack_fill, &filling};
    struct published_record record = {.inputs = paths,      .input_names = names,
                                      .input_count = count, .note_key = "pack",
                                      .note = note,         .typed = target->typed,
                                      .supplied = supplied,
                                      .read_through_inputs = true,
                                      .apart = apart};
    result = published_file_write(&filler, &record, target->output_directory, name, path, size);
    json_decref(note);
    return result;
}

int pack_make(const char *spec, const struct pack_target *target, char *path, size_t size)
{
    struct pack_plan *plan = NULL;
    size_t missing = directory_missing_prefix(target->output_directory);
    int result = pack_plan_open(&plan, spec, target->threads > 0 ? (unsigned)target->threads
                                                                 : threads_default());
    if (result == EXIT_OK)
        result = publish_directory_create(target->output_directory);
    if (result != EXIT_OK) {
        pack_plan_close(plan);
        return result;
    }
    struct stage_progress drawn;
    const struct stage_listener *listener;
    stage_progress_begin(&drawn, target->quiet, &listener);
    result = pack_publish(spec, plan, target, listener, path, size);
    stage_progress_end(&drawn);
    pack_plan_close(plan);
    if (result != EXIT_OK)
        directory_remove_created(target->output_directory, missing);
    return result;
}

/* -o s3://BUCKET/PREFIX: packed into a local staging, then uploaded (fuel-s3(7)). */
static int pack_to_store(const char *spec, struct pack_target *target, char *path, size_t size)
{
    struct s3_publish publish;
    int result = s3_publish_begin(&publish, target->output_directory, 0,
                                  target->threads > 0 ? (unsigned)target->threads : 0);
    if (result != EXIT_OK)
        return result;
    target->output_directory = publish.staging.path;
    result = pack_make(spec, target, path, size);
    if (result == EXIT_OK)
        result = s3_publish_file(&publish, path, path, size);
    s3_publish_end(&publish);
    return result;
}

int pack_body(const struct command_run *run)
{
    const struct pack_options *chosen = run->options;
    struct pack_target target = {chosen->output_directory, chosen->output_filename,
                                 chosen->threads, chosen->quiet, run->typed};
    char path[4096];
    const char *spec = run->parsed->positionals[0];
    int result = s3_is_url(target.output_directory) ? pack_to_store(spec, &target, path, sizeof path)
                                                    : pack_make(spec, &target, path, sizeof path);
    if (result == EXIT_OK)
        printf("%s\n", path);
    return result;
}
