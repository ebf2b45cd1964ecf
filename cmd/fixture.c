/* fuel-fixture: small, faithful data for CI jobs: the file fuel-convert would write (or the raw
   files fuel-download would fetch) with synthetic examples, or a cut of an existing file. */
#include "common/base/config.h"
#include "common/base/error.h"
#include "common/h5py/h5py_cut.h"
#include "common/base/publish.h"
#include "commands.h"
#include "dataset_arguments.h"
#include "converters/conversion.h"
#include "converters/registry.h"
#include "converters/extra.h"
#include "fixture_options.h"
#include "synthetic/fixture.h"
#include "parse_options.h"
#include "usage.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char program[] = "fuel-fixture";

enum { DEFAULT_EXAMPLES = 10 };

static struct {
    const char *output_directory;
    const char *output_filename;
    struct option_list examples;
    long seed;
    bool raw;
    const char *from;
    bool shuffle;
} chosen;

static const struct command_option options[] = {
    {.short_name = 'o', .long_name = "output-directory", .alias = "output_directory",
     .kind = OPTION_STRING, .value = &chosen.output_directory, .argument = "DIR",
     .help = "where to write (default: .)", .completion = COMPLETE_DIRECTORY},
    {.short_name = 'r', .long_name = "output_filename", .alias = "output-filename",
     .kind = OPTION_STRING, .value = &chosen.output_filename, .argument = "NAME",
     .help = "file name instead of fuel-convert's (.hdf5 added without .hdf5/.hdf/.h5)"},
    {.short_name = 'n', .long_name = "examples", .kind = OPTION_LIST, .value = &chosen.examples,
     .argument = "N|SPLIT=N,...", .help = "examples per split (default 10); SPLIT=N sets one"},
    {.long_name = "seed", .kind = OPTION_INTEGER, .value = &chosen.seed, .argument = "S",
     .help = "seed of the synthetic values and of --shuffle (default 0)", .minimum = 0,
     .maximum = 9007199254740991.0},
    {.long_name = "raw", .kind = OPTION_FLAG, .value = &chosen.raw,
     .help = "write the dataset's raw files and MD5SUMS instead of the HDF5 file"},
    {.long_name = "from", .kind = OPTION_STRING, .value = &chosen.from, .argument = "FILE",
     .help = "cut the fixture from the H5PYDataset file FILE", .completion = COMPLETE_FILE},
    {.long_name = "shuffle", .kind = OPTION_FLAG, .value = &chosen.shuffle,
     .help = "with --from: N examples drawn at random (by --seed), not the first N"},
};

const struct command_line fixture_command_line = {
    .program = program,
    .usage = "[-h] NAME [FORMAT] [-o DIR] [-n N | -n SPLIT=N,...] [--seed S] [--raw] "
             "[DATASET OPTIONS]\n       fuel-fixture --from FILE [-o DIR] [-r NAME] "
             "[-n N | -n SPLIT=N,...] [--shuffle --seed S]",
    .description =
        "Writes a small fixture for CI jobs: the file fuel-convert would write for NAME, with its\n"
        "exact layout and N synthetic examples per split, deterministic from the seed; with --raw,\n"
        "the raw files fuel-download would fetch, in their distribution formats, and MD5SUMS;\n"
        "with --from, the first (or --shuffle: random) N examples of each split of FILE. The\n"
        "provenance marks the file as a fixture. Datasets: mnist, fashion_mnist, binarized_mnist,\n"
        "cifar10, cifar100, iris, svhn 1, svhn 2; dataset options as in fuel-convert (--dtype).",
    .options = options,
    .option_count = sizeof options / sizeof options[0],
    .maximum_positionals = 2,
    .positional_completion = COMPLETE_DATASET,
    .pass_unknown = true,
};

static int64_t source_date_epoch(void)
{
    const char *text = getenv("SOURCE_DATE_EPOCH");
    char *end;
    long long seconds = text != NULL ? strtoll(text, &end, 10) : 0;
    return text != NULL && *text != '\0' && *end == '\0' && seconds > 0 ? seconds : 0;
}

/* {"seed": S, "examples": {SPLIT: N, ...}} for the provenance. */
static json_t *note_create(const char *const *splits, const uint64_t *examples, size_t count)
{
    json_t *counts = json_object();
    for (size_t split = 0; split < count; split++)
        json_object_set_new(counts, splits[split], json_integer((json_int_t)examples[split]));
    return json_pack("{s:I, s:o}", "seed", (json_int_t)chosen.seed, "examples", counts);
}

/* "mnist, fashion_mnist, ..., svhn 2": the datasets that have a fixture. */
static void fixture_names(char *text, size_t size)
{
    text[0] = '\0';
    for (size_t index = 0; raw_fixtures[index] != NULL; index++) {
        const struct dataset *dataset = raw_fixtures[index]->dataset;
        size_t used = strlen(text);
        snprintf(text + used, size - used, "%s%s%s%s", used > 0 ? ", " : "", dataset->name,
                 dataset->variant != NULL ? " " : "",
                 dataset->variant != NULL ? dataset->variant : "");
    }
}

/* A NAME without a synthetic fixture: an extra dataset (cut from its file instead) or unknown. */
static int unknown_dataset(const char *name)
{
    struct fuel_config config = {0};
    struct extra_converters extras = {0};
    error_clear();
    int result = config_load(&config);
    if (result == EXIT_OK)
        result = dataset_registry_load(config.extra_downloaders.items,
                                       config.extra_downloaders.count);
    if (result == EXIT_OK)
        result = extra_converters_find(&extras, config.extra_converters.items,
                                       config.extra_converters.count);
    const struct dataset *dataset;
    bool extra = result == EXIT_OK && (dataset_find(name, NULL, &dataset) != DATASET_UNKNOWN ||
                                       extra_converter_find(&extras, name) != NULL);
    extra_converters_free(&extras);
    dataset_registry_free();
    config_free(&config);
    if (result != EXIT_OK) {
        error_print(program);
        return result;
    }
    if (extra)
        return usage_error(program, "no synthetic fixture for the extra dataset %s: convert it "
                           "once, then cut a fixture from its file with --from FILE", name);
    char names[256];
    fixture_names(names, sizeof names);
    return usage_error(program, "unknown dataset: %s (datasets: %s)", name, names);
}

static int fixture_choose(const struct parsed_arguments *parsed, const struct raw_fixture **found)
{
    const char *name = parsed->positionals[0];
    const char *variant = parsed->positional_count > 1 ? parsed->positionals[1] : NULL;
    const struct dataset *dataset;
    char formats[64];
    dataset_format_list(name, ", ", formats, sizeof formats);
    switch (dataset_find(name, variant, &dataset)) {
    case DATASET_FOUND:
        break;
    case DATASET_FORMAT_MISSING:
        return usage_error(program, "missing format of %s (formats: %s)", name, formats);
    case DATASET_FORMAT_UNEXPECTED:
        return usage_error(program, "%s has one format, got also: %s", name, variant);
    case DATASET_FORMAT_UNKNOWN:
        return usage_error(program, "unknown format: %s %s (formats: %s)", name, variant, formats);
    default:
        return unknown_dataset(name);
    }
    *found = raw_fixture_of(dataset);
    return *found != NULL ? EXIT_OK : unknown_dataset(name);
}

static int request_build(const struct raw_fixture *fixture, struct fixture_request *request)
{
    struct cut_request counts = {0};
    int result = examples_parse(program, &chosen.examples, DEFAULT_EXAMPLES,
                                FIXTURE_MAX_EXAMPLES, &counts);
    for (size_t split = 0; result == EXIT_OK && split < fixture->split_count; split++)
        request->examples[split] = counts.examples;
    for (size_t named = 0; result == EXIT_OK && named < counts.named_count; named++) {
        size_t split = 0;
        while (split < fixture->split_count &&
               strcmp(fixture->splits[split], counts.split_names[named]) != 0)
            split++;
        if (split == fixture->split_count)
            return usage_error(program, "unknown split: %s (%s has: %s%s%s%s%s)",
                               counts.split_names[named], fixture->dataset->name,
                               fixture->splits[0],
                               fixture->split_count > 1 ? ", " : "",
                               fixture->split_count > 1 ? fixture->splits[1] : "",
                               fixture->split_count > 2 ? ", " : "",
                               fixture->split_count > 2 ? fixture->splits[2] : "");
        request->examples[split] = counts.split_examples[named];
    }
    request->dataset = fixture->dataset;
    request->seed = (uint64_t)chosen.seed;
    request->mtime = source_date_epoch();
    return result;
}

/* The dataset options (--dtype) given on the command line, for the converter; none with --raw,
   whose files have no options. */
static int converter_options(const struct parsed_arguments *parsed,
                             struct conversion_request *conversion)
{
    const struct converter *converter = conversion->dataset->converter;
    if (chosen.raw && parsed->passed_count > 0) {
        const char *name = parsed->passed[0].name;
        return usage_error(program, "unknown option: %s%s", name,
                           converter_option_index(converter, name) >= 0 ? " (with --raw)" : "");
    }
    return dataset_options_apply(program, parsed, conversion);
}

/* The raw fixture in a scratch directory, converted by the dataset's own converter on one thread
   (so that the bytes of a fixture do not depend on the machine). */
static int synthetic_convert(const struct raw_fixture *fixture,
                             struct conversion_request *conversion,
                             const struct fixture_request *request, const char *scratch)
{
    int result = fixture->write(request, scratch);
    if (result != EXIT_OK)
        return result;
    char path[4096];
    json_t *note = note_create(fixture->splits, request->examples, fixture->split_count);
    conversion->input_directory = scratch;
    conversion->output_directory = chosen.output_directory;
    conversion->output_name = chosen.output_filename;
    conversion->threads = 1;
    conversion->fixture_note = note;
    result = note == NULL ? error_set(EXIT_OTHER, "out of memory")
                          : conversion_run(conversion, path, sizeof path);
    json_decref(note);
    if (result == EXIT_OK)
        printf("%s\n", path);
    return result;
}

static int raw_print(const struct raw_fixture *fixture)
{
    for (size_t index = 0; index < fixture->dataset->file_count; index++)
        printf("%s/%s\n", chosen.output_directory, fixture->dataset->files[index].name);
    printf("%s/MD5SUMS\n", chosen.output_directory);
    return EXIT_OK;
}

static int synthetic_run(const struct parsed_arguments *parsed,
                         const struct typed_command *typed)
{
    const struct raw_fixture *fixture = NULL;
    struct fixture_request request = {0};
    struct conversion_request conversion;
    int result = fixture_choose(parsed, &fixture);
    if (result == EXIT_OK)
        result = request_build(fixture, &request);
    if (result == EXIT_OK) {
        conversion_request_init(&conversion, fixture->dataset);
        conversion.typed = typed;
        result = converter_options(parsed, &conversion);
    }
    if (result != EXIT_OK)
        return result;
    error_clear();
    result = publish_check_directory(chosen.output_directory);
    struct staging scratch;
    if (result == EXIT_OK && chosen.raw) {
        result = raw_fixture_write(fixture, &request, chosen.output_directory);
        if (result == EXIT_OK)
            raw_print(fixture);
    } else if (result == EXIT_OK &&
               (result = staging_create(&scratch, fixture_scratch_parent(),
                                        FIXTURE_STAGING_NAME)) == EXIT_OK) {
        result = synthetic_convert(fixture, &conversion, &request, scratch.path);
        staging_remove(&scratch);
    }
    if (result != EXIT_OK)
        error_print(program);
    return result;
}

static int cut_fill(void *context, struct h5py_writer *writer)
{
    return h5py_cut_write(context, writer);
}

static json_t *cut_note(const struct cut_plan *plan)
{
    const char *splits[CUT_MAX_SPLITS];
    uint64_t examples[CUT_MAX_SPLITS];
    size_t count = cut_plan_split_count(plan);
    for (size_t split = 0; split < count; split++) {
        splits[split] = cut_plan_split_name(plan, split);
        examples[split] = cut_plan_split_examples(plan, split);
    }
    json_t *note = note_create(splits, examples, count);
    const char *slash = strrchr(chosen.from, '/'), *command = cut_plan_parent_command(plan);
    json_object_set_new(note, "shuffle", json_boolean(chosen.shuffle));
    json_object_set_new(note, "parent",
                        json_pack("{s:s, s:o}", "name", slash != NULL ? slash + 1 : chosen.from,
                                  "command", command != NULL ? json_string(command) : json_null()));
    return note;
}

/* The cut file's name: -r, else the parent's; never the parent itself. */
static int cut_name(char *name, size_t size)
{
    const char *slash = strrchr(chosen.from, '/');
    if (chosen.output_filename != NULL)
        publish_file_name(chosen.output_filename, name, size);
    else
        snprintf(name, size, "%s", slash != NULL ? slash + 1 : chosen.from);
    char target[4096];
    struct stat parent, existing;
    snprintf(target, sizeof target, "%s/%s", chosen.output_directory, name);
    if (stat(chosen.from, &parent) == 0 && stat(target, &existing) == 0 &&
        parent.st_dev == existing.st_dev && parent.st_ino == existing.st_ino)
        return usage_error(program, "the fixture would replace its parent %s: choose another "
                           "directory (-o) or name (-r)", chosen.from);
    return EXIT_OK;
}

static int cut_publish(struct cut_plan *plan, const struct typed_command *typed)
{
    char name[1024], path[4096];
    int result = cut_name(name, sizeof name);
    if (result != EXIT_OK)
        return result;
    json_t *note = cut_note(plan);
    struct conversion_filler filler = {cut_fill, plan};
    const char *inputs[1] = {chosen.from};
    result = conversion_write_fixture(&filler, inputs, 1, note, chosen.output_directory, name,
                                      typed, path, sizeof path);
    json_decref(note);
    if (result == EXIT_OK)
        printf("%s\n", path);
    else
        error_print(program);
    return result;
}

static int cut_run(const struct parsed_arguments *parsed, const struct typed_command *typed)
{
    if (parsed->positional_count > 0)
        return usage_error(program, "--from takes no NAME (the fixture has FILE's layout), got: %s",
                           parsed->positionals[0]);
    if (chosen.raw)
        return usage_error(program, "--raw and --from exclude each other");
    if (parsed->passed_count > 0)
        return usage_error(program, "unknown option: %s", parsed->passed[0].name);
    struct cut_request request = {.shuffle = chosen.shuffle, .seed = (uint64_t)chosen.seed};
    int result = examples_parse(program, &chosen.examples, DEFAULT_EXAMPLES,
                                (uint64_t)1 << 53, &request);
    if (result != EXIT_OK)
        return result;
    error_clear();
    struct cut_plan *plan = NULL;
    result = publish_check_directory(chosen.output_directory);
    if (result == EXIT_OK)
        result = cut_plan_open(&plan, chosen.from, &request);
    if (result != EXIT_OK) {
        error_print(program);
        return result;
    }
    result = cut_publish(plan, typed);
    cut_plan_close(plan);
    return result;
}

static int fixture_run(const struct parsed_arguments *parsed, const struct typed_command *typed)
{
    if (chosen.shuffle && chosen.from == NULL)
        return usage_error(program, "--shuffle needs --from");
    if (chosen.from != NULL)
        return cut_run(parsed, typed);
    if (parsed->positional_count == 0) {
        char names[256];
        fixture_names(names, sizeof names);
        return usage_error(program, "missing NAME (datasets: %s)", names);
    }
    if (chosen.raw && chosen.output_filename != NULL)
        return usage_error(program, "-r names the HDF5 file; --raw writes the raw files' own names");
    return synthetic_run(parsed, typed);
}

int cmd_fixture(int argc, char **argv, const struct typed_command *typed)
{
    memset(&chosen, 0, sizeof chosen);
    chosen.output_directory = ".";
    struct parsed_arguments parsed;
    int result = options_parse(&fixture_command_line, argc, argv, &parsed);
    if (result == EXIT_OK && parsed.help)
        options_print_help(&fixture_command_line, stdout);
    else if (result == EXIT_OK)
        result = fixture_run(&parsed, typed);
    parsed_arguments_free(&parsed);
    return result;
}
