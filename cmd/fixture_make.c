/* fuel-fixture's making of an HDF5 fixture, for its body and for fuel-reproduce: synthetic raw
   files converted by the dataset's own converter, or a cut of an existing file. */
#include "fixture_make.h"

#include "common/base/error.h"
#include "common/base/publish.h"
#include "common/base/staging.h"
#include "common/base/suggest.h"
#include "fixtures/h5py_cut.h"
#include "common/h5py/published_file.h"
#include "converters/conversion.h"
#include "dataset_arguments.h"
#include "usage.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* {"seed": S, "examples": {SPLIT: N, ...}} for the provenance. */
static json_t *note_create(const struct fixture_options *chosen, const char *const *splits,
                           const uint64_t *examples, size_t count)
{
    json_t *counts = json_object();
    for (size_t split = 0; split < count; split++)
        json_object_set_new(counts, splits[split], json_integer((json_int_t)examples[split]));
    return json_pack("{s:I, s:o}", "seed", (json_int_t)chosen->seed, "examples", counts);
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

/* "adult needs at least train=41,test=40 examples (got train=10): WHY". */
static int minimum_refuse(const struct command_run *run, const struct raw_fixture *fixture,
                          size_t short_split, uint64_t got)
{
    char needs[256] = "";
    size_t used = 0;
    for (size_t split = 0; split < fixture->split_count; split++)
        if (fixture->minimum_examples[split] > 0 && used < sizeof needs)
            used += (size_t)snprintf(needs + used, sizeof needs - used, "%s%s=%llu",
                                     used > 0 ? "," : "", fixture->splits[split],
                                     (unsigned long long)fixture->minimum_examples[split]);
    return usage_error(run->program, "%s needs at least %s examples (got %s=%llu): %s",
                       fixture->dataset->name, needs, fixture->splits[short_split],
                       (unsigned long long)got, fixture->minimum_reason);
}

static int request_build(const struct command_run *run, const struct raw_fixture *fixture,
                         struct fixture_request *request)
{
    const struct fixture_options *chosen = run->options;
    struct cut_request counts = {0};
    /* A default of 0 tells a count not given from one given. */
    int result = examples_parse(run->program, &chosen->examples, 0, FIXTURE_MAX_EXAMPLES, &counts);
    for (size_t split = 0; result == EXIT_OK && split < fixture->split_count; split++) {
        uint64_t minimum = fixture->minimum_examples[split];
        request->examples[split] = counts.examples > 0 ? counts.examples
                                   : minimum > DEFAULT_EXAMPLES ? minimum : DEFAULT_EXAMPLES;
    }
    for (size_t named = 0; result == EXIT_OK && named < counts.named_count; named++) {
        size_t split = 0;
        while (split < fixture->split_count &&
               strcmp(fixture->splits[split], counts.split_names[named]) != 0)
            split++;
        if (split == fixture->split_count)
            return split_unknown(run, fixture, counts.split_names[named]);
        request->examples[split] = counts.split_examples[named];
    }
    for (size_t split = 0; result == EXIT_OK && split < fixture->split_count; split++)
        if (request->examples[split] < fixture->minimum_examples[split])
            return minimum_refuse(run, fixture, split, request->examples[split]);
    if (result == EXIT_OK && chosen->quirks && fixture->quirks == NULL)
        return usage_error(run->program, "%s has no quirk that Python Fuel cannot read: --quirks "
                           "is for dogs_vs_cats", fixture->dataset->name);
    request->dataset = fixture->dataset;
    request->seed = (uint64_t)chosen->seed;
    request->quirks = chosen->quirks;
    return result;
}

int fixture_synthetic_plan(const struct command_run *run, const struct raw_fixture **fixture,
                           struct fixture_request *request)
{
    int result = fixture_choose(run, fixture);
    if (result == EXIT_OK)
        result = request_build(run, *fixture, request);
    return result;
}

/* The raw fixture in a scratch directory, converted by the dataset's own converter on one thread
   (so that the bytes of a fixture do not depend on the machine). */
static int synthetic_convert(const struct raw_fixture *fixture, const struct command_run *run,
                             struct conversion_request *conversion,
                             const struct fixture_request *request, const char *scratch,
                             char *path, size_t size)
{
    const struct fixture_options *chosen = run->options;
    int result = fixture->write(request, scratch);
    if (result != EXIT_OK)
        return result;
    json_t *note = note_create(chosen, fixture->splits, request->examples, fixture->split_count);
    conversion->input_directory = scratch;
    conversion->output_directory = chosen->output_directory;
    conversion->output_name = chosen->output_filename;
    conversion->threads = 1;
    conversion->fixture_note = note;
    result = note == NULL ? error_set(EXIT_OTHER, "out of memory")
                          : conversion_run(conversion, path, size);
    json_decref(note);
    return result;
}

int fixture_synthetic_make(const struct command_run *run, const struct raw_fixture *fixture,
                           const struct fixture_request *request, char *path, size_t size)
{
    struct conversion_request conversion;
    conversion_request_init(&conversion, fixture->dataset);
    conversion.options = run->dataset_options;
    conversion.typed = run->typed;
    struct staging scratch;
    int result = staging_create(&scratch, fixture_scratch_parent(), FIXTURE_STAGING_NAME);
    if (result != EXIT_OK)
        return result;
    result = synthetic_convert(fixture, run, &conversion, request, scratch.path, path, size);
    staging_remove(&scratch);
    return result;
}

static int cut_fill(void *context, struct h5py_writer *writer, struct provenance *provenance)
{
    (void)provenance;
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

static int cut_publish(const struct command_run *run, struct cut_plan *plan, char *path,
                       size_t size)
{
    const struct fixture_options *chosen = run->options;
    char name[1024];
    int result = cut_name(run, name, sizeof name);
    if (result != EXIT_OK)
        return result;
    json_t *note = cut_note(chosen, plan);
    struct published_filler filler = {cut_fill, plan};
    const char *inputs[1] = {chosen->from};
    result = published_file_write_fixture(&filler, inputs, 1, note, chosen->output_directory,
                                          name, run->typed, path, size);
    json_decref(note);
    return result;
}

int fixture_cut_make(const struct command_run *run, const char *parent,
                     const struct cut_request *request, char *path, size_t size)
{
    struct cut_plan *plan = NULL;
    struct fixture_options resolved = *(const struct fixture_options *)run->options;
    struct command_run cut = *run;
    resolved.from = parent;
    cut.options = &resolved;
    int result = cut_plan_open(&plan, parent, request);
    if (result != EXIT_OK)
        return result;
    result = cut_publish(&cut, plan, path, size);
    cut_plan_close(plan);
    return result;
}
