/* fuel-fixture: small, faithful data for CI jobs: the file fuel-convert would write (or the raw
   files fuel-download would fetch) with synthetic examples, or a cut of an existing file. */
#include "common/base/error.h"
#include "common/base/publish.h"
#include "common/base/staging.h"
#include "common/base/suggest.h"
#include "converters/file_resolve.h"
#include "common/h5py/h5py_cut.h"
#include "converters/conversion.h"
#include "converters/registry.h"
#include "commands.h"
#include "dataset_arguments.h"
#include "fixture_options.h"
#include "synthetic/fixture.h"
#include "usage.h"

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { DEFAULT_EXAMPLES = 10 };

struct fixture_options {
    const char *output_directory, *output_filename, *from;
    struct option_list examples;
    long seed;
    bool raw, shuffle;
};

static const struct fixture_options defaults = {.output_directory = "."};

#define MEMBER(name) .offset = offsetof(struct fixture_options, name)

static const struct command_option options[] = {
    {.short_name = 'o', .long_name = "output-directory", .alias = "output_directory",
     .kind = OPTION_STRING, MEMBER(output_directory), .argument = "DIR",
     .help = "where to write (default: .)", .completion = COMPLETE_DIRECTORY},
    {.short_name = 'r', .long_name = "output_filename", .alias = "output-filename",
     .kind = OPTION_STRING, MEMBER(output_filename), .argument = "NAME",
     .help = "file name instead of fuel-convert's (.hdf5 added without .hdf5/.hdf/.h5)"},
    {.short_name = 'n', .long_name = "examples", .kind = OPTION_LIST, MEMBER(examples),
     .argument = "N|SPLIT=N,...", .help = "examples per split (default 10); SPLIT=N sets one"},
    {.long_name = "seed", .kind = OPTION_INTEGER, MEMBER(seed), .argument = "S",
     .help = "seed of the synthetic values and of --shuffle (default 0)", .minimum = 0,
     .maximum = 9007199254740991.0},
    {.long_name = "raw", .kind = OPTION_FLAG, MEMBER(raw),
     .help = "write the dataset's raw files and MD5SUMS instead of the HDF5 file"},
    {.long_name = "from", .kind = OPTION_STRING, MEMBER(from), .argument = "FILE",
     .help = "cut the fixture from the H5PYDataset file FILE", .completion = COMPLETE_FILE_OR_DATASET},
    {.long_name = "shuffle", .kind = OPTION_FLAG, MEMBER(shuffle),
     .help = "with --from: N examples drawn at random (by --seed), not the first N"},
};

const struct command_line fixture_command_line = {
    .usage = "[-o DIR] [-r NAME] [-n N | -n SPLIT=N,...] [--seed S] [--raw]",
    .dataset_usage = "[-h] NAME [FORMAT]",
    .usage_alternative =
        "--from FILE [-o DIR] [-r NAME] [-n N | -n SPLIT=N,...] [--shuffle --seed S]",
    .description =
        "Writes a small fixture for CI jobs: the file fuel-convert would write for NAME, with its\n"
        "exact layout and N synthetic examples per split, deterministic from the seed; with --raw,\n"
        "the raw files fuel-download would fetch, in their distribution formats, and MD5SUMS;\n"
        "with --from, the first (or --shuffle: random) N examples of each split of FILE. The\n"
        "provenance marks the file as a fixture. Datasets: mnist, fashion_mnist, binarized_mnist,\n"
        "cifar10, cifar100, iris, svhn 1, svhn 2, adult, caltech101_silhouettes 16 and 28,\n"
        "ilsvrc2010, ilsvrc2012, celeba aligned_cropped, celeba 64 (-n counts the faces, split as\n"
        "Fuel's proportions), dogs_vs_cats; dataset options as in fuel-convert (--dtype).",
    .options = options,
    .option_count = sizeof options / sizeof options[0],
    .options_size = sizeof(struct fixture_options),
    .option_defaults = &defaults,
    .positional_completion = COMPLETE_DATASET,
    .dataset = DATASET_RECORD,
    .dataset_options = true,
};

static int64_t source_date_epoch(void)
{
    const char *text = getenv("SOURCE_DATE_EPOCH");
    char *end;
    long long seconds = text != NULL ? strtoll(text, &end, 10) : 0;
    return text != NULL && *text != '\0' && *end == '\0' && seconds > 0 ? seconds : 0;
}

/* {"seed": S, "examples": {SPLIT: N, ...}} for the provenance. */
static json_t *note_create(const struct fixture_options *chosen, const char *const *splits,
                           const uint64_t *examples, size_t count)
{
    json_t *counts = json_object();
    for (size_t split = 0; split < count; split++)
        json_object_set_new(counts, splits[split], json_integer((json_int_t)examples[split]));
    return json_pack("{s:I, s:o}", "seed", (json_int_t)chosen->seed, "examples", counts);
}

/* "mnist, fashion_mnist, ..., svhn 2": the datasets that have a fixture. */
static void fixture_names(char *text, size_t size)
{
    char labels[16][64];
    const char *names[16];
    size_t count = 0;
    for (; raw_fixtures[count] != NULL && count < 16; count++) {
        dataset_label(raw_fixtures[count]->dataset, labels[count], sizeof labels[count]);
        names[count] = labels[count];
    }
    names_join(text, size, names, count);
}

/* The fixture of the dataset named; a dataset of a manifest has none. */
static int fixture_choose(const struct command_run *run, const struct raw_fixture **found)
{
    *found = raw_fixture_of(run->dataset->record);
    if (*found == NULL)
        return usage_error(run->program, "no synthetic fixture for the extra dataset %s: convert "
                           "it once, then cut a fixture from its file with --from FILE",
                           run->dataset->name);
    return EXIT_OK;
}

static int split_unknown(const struct command_run *run, const struct raw_fixture *fixture,
                         const char *split)
{
    char splits[256], ending[300];
    names_join(splits, sizeof splits, fixture->splits, fixture->split_count);
    snprintf(ending, sizeof ending, "its splits: %s", splits);
    return usage_error_ending(run->program, ending, "unknown split of %s: %s",
                              fixture->dataset->name, split);
}

static int request_build(const struct command_run *run, const struct raw_fixture *fixture,
                         struct fixture_request *request)
{
    const struct fixture_options *chosen = run->options;
    struct cut_request counts = {0};
    int result = examples_parse(run->program, &chosen->examples, DEFAULT_EXAMPLES,
                                FIXTURE_MAX_EXAMPLES, &counts);
    for (size_t split = 0; result == EXIT_OK && split < fixture->split_count; split++)
        request->examples[split] = counts.examples;
    for (size_t named = 0; result == EXIT_OK && named < counts.named_count; named++) {
        size_t split = 0;
        while (split < fixture->split_count &&
               strcmp(fixture->splits[split], counts.split_names[named]) != 0)
            split++;
        if (split == fixture->split_count)
            return split_unknown(run, fixture, counts.split_names[named]);
        request->examples[split] = counts.split_examples[named];
    }
    request->dataset = fixture->dataset;
    request->seed = (uint64_t)chosen->seed;
    request->mtime = source_date_epoch();
    return result;
}

/* The raw fixture in a scratch directory, converted by the dataset's own converter on one thread
   (so that the bytes of a fixture do not depend on the machine). */
static int synthetic_convert(const struct raw_fixture *fixture, const struct command_run *run,
                             struct conversion_request *conversion,
                             const struct fixture_request *request, const char *scratch)
{
    const struct fixture_options *chosen = run->options;
    int result = fixture->write(request, scratch);
    if (result != EXIT_OK)
        return result;
    char path[4096];
    json_t *note = note_create(chosen, fixture->splits, request->examples, fixture->split_count);
    conversion->input_directory = scratch;
    conversion->output_directory = chosen->output_directory;
    conversion->output_name = chosen->output_filename;
    conversion->threads = 1;
    conversion->fixture_note = note;
    result = note == NULL ? error_set(EXIT_OTHER, "out of memory")
                          : conversion_run(conversion, path, sizeof path);
    json_decref(note);
    if (result == EXIT_OK)
        printf("%s\n", path);
    return result;
}

static int raw_print(const struct fixture_options *chosen, const struct raw_fixture *fixture)
{
    for (size_t index = 0; index < fixture->dataset->file_count; index++)
        printf("%s/%s\n", chosen->output_directory, fixture->dataset->files[index].name);
    printf("%s/MD5SUMS\n", chosen->output_directory);
    return EXIT_OK;
}

static int synthetic_run(const struct command_run *run)
{
    const struct fixture_options *chosen = run->options;
    const struct raw_fixture *fixture = NULL;
    struct fixture_request request = {0};
    struct conversion_request conversion;
    int result = fixture_choose(run, &fixture);
    if (result == EXIT_OK)
        result = request_build(run, fixture, &request);
    if (result == EXIT_OK && chosen->raw && run->parsed->dataset_option[0] != '\0')
        result = usage_error(run->program, "%s is not for --raw: the raw files have no options",
                             run->parsed->dataset_option);
    if (result != EXIT_OK)
        return result;
    conversion_request_init(&conversion, fixture->dataset);
    conversion.options = run->dataset_options;
    conversion.typed = run->typed;
    result = publish_directory_create(chosen->output_directory);
    struct staging scratch;
    if (result == EXIT_OK && chosen->raw) {
        result = raw_fixture_write(fixture, &request, chosen->output_directory);
        if (result == EXIT_OK)
            raw_print(chosen, fixture);
    } else if (result == EXIT_OK &&
               (result = staging_create(&scratch, fixture_scratch_parent(),
                                        FIXTURE_STAGING_NAME)) == EXIT_OK) {
        result = synthetic_convert(fixture, run, &conversion, &request, scratch.path);
        staging_remove(&scratch);
    }
    return result;
}

static int cut_fill(void *context, struct h5py_writer *writer)
{
    return h5py_cut_write(context, writer);
}

static json_t *cut_note(const struct fixture_options *chosen, const struct cut_plan *plan)
{
    const char *splits[CUT_MAX_SPLITS];
    uint64_t examples[CUT_MAX_SPLITS];
    size_t count = cut_plan_split_count(plan);
    for (size_t split = 0; split < count; split++) {
        splits[split] = cut_plan_split_name(plan, split);
        examples[split] = cut_plan_split_examples(plan, split);
    }
    json_t *note = note_create(chosen, splits, examples, count);
    const char *slash = strrchr(chosen->from, '/'), *command = cut_plan_parent_command(plan);
    json_object_set_new(note, "shuffle", json_boolean(chosen->shuffle));
    json_object_set_new(note, "parent",
                        json_pack("{s:s, s:o}", "name", slash != NULL ? slash + 1 : chosen->from,
                                  "command", command != NULL ? json_string(command) : json_null()));
    return note;
}

/* The cut file's name: -r, else the parent's; never the parent itself. */
static int cut_name(const struct command_run *run, char *name, size_t size)
{
    const struct fixture_options *chosen = run->options;
    const char *slash = strrchr(chosen->from, '/');
    if (chosen->output_filename != NULL)
        publish_file_name(chosen->output_filename, name, size);
    else if (snprintf(name, size, "%s", slash != NULL ? slash + 1 : chosen->from) >= (int)size)
        return usage_error(run->program, "name too long: %s", chosen->from);
    char target[4096];
    struct stat parent, existing;
    snprintf(target, sizeof target, "%s/%s", chosen->output_directory, name);
    if (stat(chosen->from, &parent) == 0 && stat(target, &existing) == 0 &&
        parent.st_dev == existing.st_dev && parent.st_ino == existing.st_ino)
        return usage_error(run->program, "the fixture would replace its parent %s: choose another "
                           "directory (-o) or name (-r)", chosen->from);
    return EXIT_OK;
}

static int cut_publish(const struct command_run *run, struct cut_plan *plan)
{
    const struct fixture_options *chosen = run->options;
    char name[1024], path[4096];
    int result = cut_name(run, name, sizeof name);
    if (result != EXIT_OK)
        return result;
    json_t *note = cut_note(chosen, plan);
    struct conversion_filler filler = {cut_fill, plan};
    const char *inputs[1] = {chosen->from};
    result = conversion_write_fixture(&filler, inputs, 1, note, chosen->output_directory, name,
                                      run->typed, path, sizeof path);
    json_decref(note);
    if (result == EXIT_OK)
        printf("%s\n", path);
    return result;
}

static int cut_run(const struct command_run *run)
{
    const struct fixture_options *chosen = run->options;
    if (run->parsed->positional_count > 0)
        return usage_error(run->program, "--from takes no NAME (the fixture has FILE's layout), "
                           "got: %s", run->parsed->positionals[0]);
    if (chosen->raw)
        return usage_error(run->program, "--raw and --from exclude each other");
    struct cut_request request = {.shuffle = chosen->shuffle, .seed = (uint64_t)chosen->seed};
    int result = examples_parse(run->program, &chosen->examples, DEFAULT_EXAMPLES,
                                (uint64_t)1 << 53, &request);
    if (result != EXIT_OK)
        return result;
    struct cut_plan *plan = NULL;
    /* The parent as resolved (a dataset name finds its converted file), for the steps below. */
    char parent[PATH_MAX];
    struct fixture_options resolved = *chosen;
    struct command_run cut = *run;
    cut.options = &resolved;
    result = file_resolve(chosen->from, parent, sizeof parent);
    if (result == EXIT_OK) {
        resolved.from = parent;
        result = publish_directory_create(chosen->output_directory);
    }
    if (result == EXIT_OK)
        result = cut_plan_open(&plan, parent, &request);
    if (result != EXIT_OK)
        return result;
    result = cut_publish(&cut, plan);
    cut_plan_close(plan);
    return result;
}

int fixture_body(const struct command_run *run)
{
    const struct fixture_options *chosen = run->options;
    if (chosen->shuffle && chosen->from == NULL)
        return usage_error(run->program, "--shuffle needs --from");
    if (chosen->from != NULL)
        return cut_run(run);
    if (run->dataset->name == NULL) {
        char names[256], ending[300];
        fixture_names(names, sizeof names);
        snprintf(ending, sizeof ending, "datasets: %s", names);
        return usage_error_ending(run->program, ending, "missing NAME");
    }
    if (chosen->raw && chosen->output_filename != NULL)
        return usage_error(run->program,
                           "-r names the HDF5 file; --raw writes the raw files' own names");
    return synthetic_run(run);
}
