/* fuel-reproduce's engine: the recorded inputs found, the file made again in a staging directory
   with the recorded creation time, compared with the file, the staging removed. */
#include "reproduce_steps.h"

#include "common/base/error.h"
#include "common/base/staging.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

int64_t reproduce_created_seconds(const char *created)
{
    struct tm calendar = {0};
    const char *end = created != NULL ? strptime(created, "%Y-%m-%dT%H:%M:%SZ", &calendar) : NULL;
    if (end == NULL || *end != '\0' || strlen(created) != 20)
        return -1;
    time_t seconds = timegm(&calendar);
    return seconds >= 0 ? (int64_t)seconds : -1;
}

void reproduce_outcome_free(struct reproduce_outcome *outcome)
{
    for (size_t index = 0; index < outcome->input_count; index++) {
        free(outcome->inputs[index].name);
        free(outcome->inputs[index].found);
    }
    free(outcome->inputs);
    content_diff_free(&outcome->report);
    *outcome = (struct reproduce_outcome){0};
}

/* SOURCE_DATE_EPOCH=SECONDS while the maker runs (the provenance's created, the fixtures' archive
   times), then what it was. */
static int make_at(const struct reproduce_request *request, int64_t seconds, const char *inputs,
                   const char *output, char *path, size_t size)
{
    const char *before = getenv("SOURCE_DATE_EPOCH");
    char *saved = before != NULL ? strdup(before) : NULL, value[32];
    snprintf(value, sizeof value, "%" PRId64, seconds);
    if ((before != NULL && saved == NULL) || setenv("SOURCE_DATE_EPOCH", value, 1) != 0) {
        free(saved);
        return error_set(EXIT_OTHER, "out of memory");
    }
    int result = request->make(request->context, inputs, output, path, size);
    if (saved != NULL)
        setenv("SOURCE_DATE_EPOCH", saved, 1);
    else
        unsetenv("SOURCE_DATE_EPOCH");
    free(saved);
    return result;
}

static int subdirectory(const char *staging, const char *name, char *path, size_t size)
{
    if (snprintf(path, size, "%s/%s", staging, name) >= (int)size)
        return error_set(EXIT_WRITE, "cannot write: %s/%s: path too long", staging, name);
    if (mkdir(path, 0700) != 0)
        return error_set(EXIT_WRITE, "cannot write: %s: %s", path, strerror(errno));
    return EXIT_OK;
}

/* Inside the staging: the inputs placed, the file made, compared. */
static int staged_run(const struct reproduce_request *request, struct reproduce_outcome *outcome,
                      const char *staging, int64_t seconds)
{
    char inputs[4096], base[4096], output[4096], made[4096];
    int result = subdirectory(staging, "inputs", inputs, sizeof inputs);
    if (result == EXIT_OK)
        result = subdirectory(staging, "output", output, sizeof output);
    if (result == EXIT_OK)
        result = reproduce_inputs_place(request, outcome, inputs, base, sizeof base);
    if (result == EXIT_OK)
        result = make_at(request, seconds, base, output, made, sizeof made);
    if (result == EXIT_OK)
        result = reproduce_compare(request->file, made, request->listener, outcome);
    return result;
}

static int provenance_read(const struct reproduce_request *request,
                           struct reproduce_outcome *outcome, int64_t *seconds)
{
    struct provenance_inputs inputs;
    json_t *provenance = provenance_head_parse(request->provenance, 0, NULL, &inputs);
    const char *created = json_string_value(json_object_get(provenance, "created"));
    *seconds = reproduce_created_seconds(created);
    int result = *seconds >= 0 ? EXIT_OK
                 : error_set(EXIT_CORRUPT_INPUT, "malformed provenance: %s: created is not a "
                             "UTC time YYYY-MM-DDTHH:MM:SSZ: %s", request->file,
                             created != NULL ? created : "(none)");
    if (result == EXIT_OK && !request->inputs_made)
        result = reproduce_inputs_read(&inputs, request->file, request->relative_names, outcome);
    json_decref(provenance);
    return result;
}

int reproduce_run(const struct reproduce_request *request, struct reproduce_outcome *outcome)
{
    *outcome = (struct reproduce_outcome){0};
    int64_t seconds;
    int result = provenance_read(request, outcome, &seconds);
    if (result == EXIT_OK)
        result = reproduce_inputs_find(request, outcome);
    if (result != EXIT_OK)
        return result;
    if (!reproduce_inputs_ready(request, outcome)) {
        outcome->verdict = REPRODUCE_INPUTS_MISSING;
        return EXIT_OK;
    }
    struct staging staging;
    result = staging_create(&staging, request->scratch_parent, REPRODUCE_STAGING_NAME);
    if (result != EXIT_OK)
        return error_set(EXIT_WRITE, "cannot write: %s: %s", request->scratch_parent,
                         strerror(errno));
    result = staged_run(request, outcome, staging.path, seconds);
    staging_remove(&staging);
    return result;
}
