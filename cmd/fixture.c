/* fuel-fixture: small, faithful data for CI jobs: the file fuel-convert would write (or the raw
   files fuel-download would fetch) with synthetic examples, or a cut of an existing file. */
#include "common/base/directory.h"
#include "common/base/error.h"
#include "common/base/publish.h"
#include "common/base/suggest.h"
#include "cmd/file_resolve.h"
#include "converters/conversion.h"
#include "commands.h"
#include "dataset_arguments.h"
#include "fixture_options.h"
#include "fixtures/fixture.h"
#include "s3/s3_publish.h"
#include "usage.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

static const struct fixture_options defaults = {.output_directory = "."};

#define MEMBER(name) .offset = offsetof(struct fixture_options, name)

static const struct command_option options[] = {
    {.short_name = 'o', .long_name = "output-directory", .alias = "output_directory",
     .kind = OPTION_STRING, MEMBER(output_directory), .argument = "DIR",
     .help = "where to write, a directory or s3://BUCKET/PREFIX (default: .)", .completion = COMPLETE_DIRECTORY,
     .reproduce = REPRODUCE_REPLACED},
    {.short_name = 'r', .long_name = "output_filename", .alias = "output-filename",
     .kind = OPTION_STRING, MEMBER(output_filename), .argument = "NAME",
     .help = "file name instead of fuel-convert's (.hdf5 added without .hdf5/.hdf/.h5)",
     .reproduce = REPRODUCE_FILE_NAME},
    {.short_name = 'n', .long_name = "examples", .kind = OPTION_LIST, MEMBER(examples),
     .argument = "N|SPLIT=N,...", .help = "examples per split (default 10); SPLIT=N sets one",
     .reproduce = REPRODUCE_KEPT},
    {.long_name = "seed", .kind = OPTION_INTEGER, MEMBER(seed), .argument = "S",
     .help = "seed of the synthetic values and of --shuffle (default 0)", .minimum = 0,
     .maximum = 9007199254740991.0, .reproduce = REPRODUCE_KEPT},
    {.long_name = "raw", .kind = OPTION_FLAG, MEMBER(raw),
     .help = "write the dataset's raw files and MD5SUMS instead of the HDF5 file",
     .reproduce = REPRODUCE_REFUSED, .usage_form = USAGE_FIRST_FORM},
    {.long_name = "quirks", .kind = OPTION_FLAG, MEMBER(quirks),
     .help = "also the real data's quirks Python Fuel cannot read (dogs_vs_cats: grayscale)",
     .reproduce = REPRODUCE_KEPT, .usage_form = USAGE_FIRST_FORM},
    {.long_name = "from", .kind = OPTION_STRING, MEMBER(from), .argument = "FILE",
     .help = "cut the fixture from the H5PYDataset file FILE",
     .completion = COMPLETE_FILE_OR_DATASET, .reproduce = REPRODUCE_REPLACED,
     .usage_form = USAGE_SECOND_FORM_HEAD},
    {.long_name = "shuffle", .kind = OPTION_FLAG, MEMBER(shuffle),
     .help = "with --from: N examples drawn at random (by --seed), not the first N",
     .reproduce = REPRODUCE_KEPT, .usage_form = USAGE_SECOND_FORM},
    STORE_OPTIONS(struct fixture_options, store),
};

const struct command_line fixture_command_line = {
    .positional_usage = "NAME [FORMAT]",
    .description =
        "Writes a small fixture for CI jobs: the file fuel-convert would write for NAME, with its\n"
        "exact layout and N synthetic examples per split, deterministic from the seed; with --raw,\n"
        "the raw files fuel-download would fetch, in their distribution formats, and MD5SUMS;\n"
        "with --from, the first (or --shuffle: random) N examples of each split of FILE. The\n"
        "provenance marks the file as a fixture. Datasets: every built-in one of fuel-list (for\n"
        "celeba, -n counts the faces, split as Fuel's proportions); dataset options as in\n"
        "fuel-convert (--dtype).",
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

/* What fuel fixture wrote: the HDF5 file, or (RAW) the raw files and MD5SUMS. */
struct fixture_output {
    const struct raw_fixture *raw;
    char path[4096];
};

static void raw_print(const char *directory, const struct raw_fixture *fixture)
{
    for (size_t index = 0; index < fixture->dataset->file_count; index++)
        printf("%s/%s\n", directory, fixture->dataset->files[index].name);
    printf("%s/MD5SUMS\n", directory);
}

static int synthetic_run(const struct command_run *run, struct fixture_output *output)
{
    const struct fixture_options *chosen = run->options;
    const struct raw_fixture *fixture = NULL;
    struct fixture_request request = {0};
    struct fixture_making making;
    fixture_making_of(run, chosen, run->program, &making);
    int result = fixture_synthetic_read(&making, &chosen->examples, &fixture, &request);
    request.mtime = source_date_epoch();
    if (result == EXIT_OK && chosen->raw && run->parsed->dataset_option[0] != '\0')
        result = usage_error(run->program, "%s is not for --raw: the raw files have no options",
                             run->parsed->dataset_option);
    size_t missing = directory_missing_prefix(chosen->output_directory);
    if (result == EXIT_OK)
        result = publish_directory_create(chosen->output_directory);
    if (result != EXIT_OK)
        return result;
    if (chosen->raw) {
        result = raw_fixture_write(fixture, &request, chosen->output_directory);
        output->raw = fixture;
    } else {
        result = fixture_synthetic_make(&making, fixture, &request, output->path,
                                        sizeof output->path);
    }
    if (result != EXIT_OK)
        directory_remove_created(chosen->output_directory, missing);
    return result;
}

static int cut_run(const struct command_run *run, struct fixture_output *output)
{
    const struct fixture_options *chosen = run->options;
    if (run->parsed->positional_count > 0)
        return usage_error(run->program, "--from takes no NAME (the fixture has FILE's layout), "
                           "got: %s", run->parsed->positionals[0]);
    if (chosen->raw || chosen->quirks)
        return usage_error(run->program, "--%s and --from exclude each other",
                           chosen->raw ? "raw" : "quirks");
    struct cut_request request = {.shuffle = chosen->shuffle, .seed = (uint64_t)chosen->seed};
    int result = examples_parse(run->program, &chosen->examples, DEFAULT_EXAMPLES,
                                (uint64_t)1 << 53, &request);
    /* The parent as resolved (a dataset name finds its converted file), or read in place. */
    char parent[PATH_MAX];
    struct s3_in_place place;
    bool in_place = false;
    if (result == EXIT_OK)
        result = file_resolve_in_place(run->program, chosen->from, &place, &in_place, parent,
                                       sizeof parent);
    size_t missing = directory_missing_prefix(chosen->output_directory);
    if (result == EXIT_OK)
        result = publish_directory_create(chosen->output_directory);
    struct fixture_making making;
    fixture_making_of(run, chosen, run->program, &making);
    if (result == EXIT_OK)
        result = fixture_cut_make(&making, parent, in_place ? &place.remote : NULL, &request,
                                  output->path, sizeof output->path);
    if (result != EXIT_OK)
        directory_remove_created(chosen->output_directory, missing);
    if (in_place)
        s3_in_place_free(&place);
    return result;
}

static int fixture_write(const struct command_run *run, struct fixture_output *output)
{
    const struct fixture_options *chosen = run->options;
    if (chosen->shuffle && chosen->from == NULL)
        return usage_error(run->program, "--shuffle needs --from");
    if (chosen->from != NULL)
        return cut_run(run, output);
    if (run->dataset->name == NULL) {
        char names[256], ending[300];
        fixture_names(names, sizeof names);
        snprintf(ending, sizeof ending, "datasets: %s", names);
        return usage_error_ending(run->program, ending, "missing NAME");
    }
    if (chosen->raw && chosen->output_filename != NULL)
        return usage_error(run->program,
                           "-r names the HDF5 file; --raw writes the raw files' own names");
    return synthetic_run(run, output);
}

/* -o s3://BUCKET/PREFIX: written into a local staging, then uploaded; raw files before MD5SUMS,
   their listing (fuel-s3(7)). */
static int fixture_to_store(const struct command_run *run)
{
    const struct fixture_options *chosen = run->options;
    struct s3_publish publish;
    int result = s3_publish_begin(&publish, chosen->output_directory, 0, 0);
    if (result != EXIT_OK)
        return result;
    struct fixture_options staged = *chosen;
    staged.output_directory = publish.staging.path;
    struct command_run inner = *run;
    inner.options = &staged;
    struct fixture_output output = {0};
    char *listings[] = {"MD5SUMS"}, url[sizeof output.path + 64];
    result = fixture_write(&inner, &output);
    if (result == EXIT_OK && output.raw != NULL)
        result = s3_publish_set(&publish, listings, 1, NULL, NULL, NULL);
    else if (result == EXIT_OK)
        result = s3_publish_file(&publish, output.path, url, sizeof url);
    if (result == EXIT_OK && output.raw != NULL) {
        size_t length = strlen(publish.location.key);
        snprintf(url, sizeof url, "s3://%s%s%.*s", publish.location.bucket, length ? "/" : "",
                 length ? (int)length - 1 : 0, publish.location.key);
        raw_print(url, output.raw);
    } else if (result == EXIT_OK) {
        printf("%s\n", url);
    }
    s3_publish_end(&publish);
    return result;
}

int fixture_body(const struct command_run *run)
{
    const struct fixture_options *chosen = run->options;
    store_settings_apply(&chosen->store);
    if (s3_is_url(chosen->output_directory))
        return fixture_to_store(run);
    struct fixture_output output = {0};
    int result = fixture_write(run, &output);
    if (result == EXIT_OK && output.raw != NULL)
        raw_print(chosen->output_directory, output.raw);
    else if (result == EXIT_OK)
        printf("%s\n", output.path);
    return result;
}
