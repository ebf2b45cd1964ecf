/* The shard forms' driver: every split checked and counted first, then written shard by shard. */
#include "shard_export.h"

#include "common/base/error.h"
#include "common/base/monotonic_clock.h"
#include "common/base/numpy_random.h"
#include "common/h5py/provenance.h"
#include "shard_listing.h"
#include "shard_plan.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Examples encoded to estimate a split's size for --shard-size, spread over the split. */
enum { SAMPLE_EXAMPLES = 32 };

struct shard_state {
    struct shard_sources sources;
    uint64_t *counts; /* shards of each split, in the job's order of splits */
    int64_t mtime;
    const struct shard_format *format;
    struct shard_record **records; /* each split's shards as written, for its SPLIT.json */
    uint64_t *examples;            /* each split's examples */
};

/* SOURCE_DATE_EPOCH when set, else the input's own creation time, else 0. */
static int64_t mtime_choose(const char *input)
{
    const char *text = getenv("SOURCE_DATE_EPOCH");
    char *end = NULL;
    errno = 0;
    long long seconds = text != NULL ? strtoll(text, &end, 10) : 0;
    if (text != NULL && *text >= '0' && *text <= '9' && *end == '\0' && errno == 0)
        return seconds;
    char *created = provenance_file_created(input);
    struct tm calendar = {0};
    const char *parsed = created ? strptime(created, "%Y-%m-%dT%H:%M:%SZ", &calendar) : NULL;
    int64_t value = parsed != NULL && *parsed == '\0' ? (int64_t)timegm(&calendar) : 0;
    free(created);
    return value;
}

static struct shard_request shard_options(const struct export_request *request)
{
    return (struct shard_request){request->shards, request->shard_size, request->shard_examples,
                                  request->ranks};
}

static int options_check(const struct export_request *request, const char *form)
{
    struct shard_request options = shard_options(request);
    int result = shard_request_check(&options);
    if (result != EXIT_OK)
        return result;
    if (request->seed_given && !request->shuffle)
        return error_set(EXIT_USAGE, "--seed applies with --shuffle");
    if (request->dtype != NULL || request->scale != 1 || request->examples_per_file != 0)
        return error_set(EXIT_USAGE, "--%s does not apply to %s: it writes the sources' values "
                         "as stored", request->dtype ? "dtype" : request->scale != 1
                         ? "scale" : "examples-per-file", form);
    return EXIT_OK;
}

struct estimate {
    const struct shard_format *format;
    const struct shard_sources *sources;
    uint64_t bytes;
};

static int estimate_consume(void *context, const struct shard_block *block, size_t index)
{
    struct estimate *estimate = context;
    estimate->bytes += estimate->format->example_bytes(estimate->sources, block, index);
    return EXIT_OK;
}

/* The split's bytes in shards, from SAMPLE_EXAMPLES examples encoded as the form writes them. */
static int split_estimate(struct export_job *job, const struct shard_format *format,
                          struct shard_state *state, uint64_t examples, uint64_t *bytes)
{
    int64_t order[SAMPLE_EXAMPLES];
    uint64_t count = examples < SAMPLE_EXAMPLES ? examples : SAMPLE_EXAMPLES;
    for (uint64_t index = 0; index < count; index++)
        order[index] = (int64_t)(index * examples / count);
    struct estimate estimate = {format, &state->sources, 0};
    struct shard_pipeline pipeline = {
        .sources = &state->sources, .examples = count, .order = order,
        .threads = job->request->threads,
        .coder = {format->probe_jpeg, format->encode, format->state_free, NULL},
        .consume = estimate_consume, .context = &estimate};
    int result = count ? shard_blocks_run(&pipeline) : EXIT_OK;
    *bytes = count ? estimate.bytes / count * examples : 0;
    return result;
}

int shard_export_prepare(struct export_job *job, const struct shard_format *format)
{
    const struct export_request *request = job->request;
    struct shard_state *state = calloc(1, sizeof *state);
    if (state == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    job->form_state = state;
    int result = options_check(request, format->name);
    if (result == EXIT_OK)
        result = shard_sources_open(&state->sources, job->file, request, format->name);
    state->format = format;
    size_t splits = job->split_count + 1;
    if (result == EXIT_OK && ((state->counts = calloc(splits, sizeof *state->counts)) == NULL ||
                              (state->examples = calloc(splits, sizeof *state->examples)) == NULL ||
                              (state->records = calloc(splits, sizeof *state->records)) == NULL))
        result = error_set(EXIT_OTHER, "out of memory");
    if (result == EXIT_OK)
        state->mtime = mtime_choose(request->input_path);
    struct shard_request options = shard_options(request);
    bool sized = !options.shards && !options.shard_examples;
    for (size_t index = 0; result == EXIT_OK && index < job->split_count; index++) {
        uint64_t examples = 0, bytes = 0;
        result = shard_sources_select(&state->sources, job->file, job->splits[index], true,
                                      &examples);
        if (result == EXIT_OK && sized)
            result = split_estimate(job, format, state, examples, &bytes);
        if (result == EXIT_OK)
            result = shard_count(&options, job->splits[index], examples, bytes,
                                 &state->counts[index]);
    }
    return result;
}

void shard_export_finish(struct export_job *job)
{
    struct shard_state *state = job->form_state;
    if (state == NULL)
        return;
    shard_sources_close(&state->sources);
    for (size_t index = 0; state->records != NULL && index < job->split_count; index++)
        free(state->records[index]);
    free(state->records);
    free(state->examples);
    free(state->counts);
    free(state);
    job->form_state = NULL;
}

/* One split being written, shard after shard. */
struct split_writing {
    struct export_job *job;
    const struct shard_format *format;
    struct shard_writer writer;
    uint64_t examples;
    uint64_t shard_count;
    uint64_t shard;  /* the shard being written */
    uint64_t left;   /* its examples still to write */
    bool open;
    struct shard_record *records;
};

static int shard_open(struct split_writing *writing)
{
    char name[700];
    uint64_t first;
    writing->format->shard_name(name, sizeof name, writing->job->split, writing->shard,
                                writing->shard_count);
    shard_range(writing->examples, writing->shard_count, writing->shard, &first, &writing->left);
    int result = shard_file_open(&writing->writer.file, writing->job->set,
                                 writing->job->request->directory, name);
    if (result != EXIT_OK)
        return result;
    result = writing->format->shard_begin(&writing->writer);
    if (result != EXIT_OK)
        shard_file_abandon(&writing->writer.file);
    writing->open = result == EXIT_OK;
    return result;
}

static int shard_close(struct split_writing *writing)
{
    struct shard_record *record = &writing->records[writing->shard];
    writing->open = false;
    int result = writing->format->shard_end(&writing->writer);
    if (result != EXIT_OK) {
        shard_file_abandon(&writing->writer.file);
        return result;
    }
    record->bytes = writing->writer.file.bytes;
    result = shard_file_close(&writing->writer.file, record->sha256);
    writing->shard++;
    return result;
}

static int example_consume(void *context, const struct shard_block *block, size_t index)
{
    struct split_writing *writing = context;
    int result = EXIT_OK;
    if (writing->left == 0) {
        result = shard_close(writing);
        if (result == EXIT_OK)
            result = shard_open(writing);
    }
    if (result == EXIT_OK)
        result = writing->format->example_write(&writing->writer, block, index);
    writing->left--;
    return result;
}

static void example_progress(void *context, uint64_t done, uint64_t total)
{
    struct split_writing *writing = context;
    progress_update(writing->job->progress, 0, done, total);
    progress_refresh(writing->job->progress);
}

static int shards_write(struct split_writing *writing, struct shard_state *state,
                        const int64_t *order)
{
    const struct shard_format *format = writing->format;
    struct shard_pipeline pipeline = {
        .sources = &state->sources, .examples = writing->examples, .order = order,
        .threads = writing->job->request->threads,
        .coder = {format->probe_jpeg, format->encode, format->state_free, NULL},
        .consume = example_consume, .progress = example_progress, .context = writing};
    int result = shard_open(writing);
    if (result == EXIT_OK)
        result = shard_blocks_run(&pipeline);
    if (result == EXIT_OK)
        result = shard_close(writing);
    if (writing->open) {
        format->shard_abandon(&writing->writer);
        shard_file_abandon(&writing->writer.file);
    }
    return result;
}

static size_t split_number(const struct export_job *job)
{
    size_t index = 0;
    while (index + 1 < job->split_count && strcmp(job->splits[index], job->split) != 0)
        index++;
    return index;
}

static int split_write(struct split_writing *writing, struct shard_state *state)
{
    const struct export_request *request = writing->job->request;
    int64_t *order = NULL;
    writing->records = calloc(writing->shard_count, sizeof *writing->records);
    if (request->shuffle && writing->examples > 0)
        order = malloc(writing->examples * sizeof *order);
    if (writing->records == NULL || (request->shuffle && writing->examples > 0 && order == NULL))
        return error_set(EXIT_OTHER, "out of memory");
    if (order != NULL)
        numpy_permutation(request->seed, writing->examples, order);
    int result = shards_write(writing, state, order);
    free(order);
    return result;
}

int shard_export_write(struct export_job *job, const struct shard_format *format)
{
    struct shard_state *state = job->form_state;
    struct split_writing writing = {
        .job = job, .format = format,
        .writer = {.format = format, .sources = &state->sources, .mtime = state->mtime},
        .shard_count = state->counts[split_number(job)]};
    int result = shard_sources_select(&state->sources, job->file, job->split, false,
                                      &writing.examples);
    double started = monotonic_seconds();
    progress_start_count(job->progress, 0, job->stem, writing.examples, "examples");
    if (result == EXIT_OK)
        result = split_write(&writing, state);
    uint64_t bytes = 0;
    for (uint64_t index = 0; writing.records != NULL && index < writing.shard_count; index++)
        bytes += writing.records[index].bytes;
    size_t split = split_number(job);
    free(state->records[split]);
    state->records[split] = writing.records;
    state->examples[split] = writing.examples;
    if (result == EXIT_OK)
        progress_finish(job->progress, 0, bytes, monotonic_seconds() - started);
    else
        progress_stop(job->progress, 0);
    return result;
}

int shard_export_listing(struct export_job *job)
{
    struct shard_state *state = job->form_state;
    const struct export_request *request = job->request;
    size_t split = split_number(job);
    uint64_t examples;
    int result = shard_sources_select(&state->sources, job->file, job->split, false, &examples);
    struct shard_listing listing = {
        state->format, &state->sources, state->examples[split], state->counts[split],
        state->records[split], request->ranks, request->shuffle, request->seed, state->mtime};
    return result == EXIT_OK ? shard_listing_write(job, &listing) : result;
}
