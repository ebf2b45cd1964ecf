/* Compares the inputs a fuel_provenance records with a dataset's published files (see
   published_inputs.h). */
#include "published_inputs.h"

#include "common/base/error.h"
#include "common/base/hash.h"
#include "common/base/input_verdict.h"
#include "common/base/provenance_inputs.h"
#include "common/h5py/provenance.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The most inputs compared with a dataset's published files (a dataset publishes a few). */
#define PUBLISHED_INPUTS_MAX 4096

static const struct published_file *file_named(const struct published_file *files, size_t count,
                                               const char *name)
{
    for (size_t index = 0; index < count; index++)
        if (files[index].name != NULL && strcmp(files[index].name, name) == 0)
            return &files[index];
    return NULL;
}

/* The state of INPUT (a provenance entry) against FILE, its record (NULL when unlisted). */
static enum input_publication entry_state(json_t *input, const struct published_file *file,
                                          struct input_publication_entry *entry)
{
    const char *origin = json_string_value(json_object_get(input, "origin"));
    if (origin != NULL && strcmp(origin, PROVENANCE_FIXTURE_ORIGIN) == 0)
        return INPUT_FIXTURE;
    if (file == NULL)
        return INPUT_UNLISTED;
    entry->published = file->checksum;
    entry->published_size = file->size;
    bool other_size = file->size > 0 && entry->size != file->size;
    if (!other_size && (entry->algorithm == NULL || entry->recorded == NULL))
        return INPUT_UNCHECKED;
    if (!other_size && strcasecmp(entry->recorded, file->checksum) == 0)
        return INPUT_PUBLISHED;
    const char *content = json_string_value(json_object_get(input, "content_sha256"));
    json_t *content_size = json_object_get(input, "content_size");
    if (content != NULL && file->content_sha256 != NULL && json_is_integer(content_size) &&
        (uint64_t)json_integer_value(content_size) == file->content_size &&
        strcasecmp(content, file->content_sha256) == 0)
        return INPUT_REPACKED;
    return INPUT_NOT_PUBLISHED;
}

static int entry_fill(json_t *input, const struct published_file *files, size_t count,
                      struct input_publication_entry *entry)
{
    const char *name = json_string_value(json_object_get(input, "name"));
    json_t *size = json_object_get(input, "size");
    entry->size = json_is_integer(size) && json_integer_value(size) >= 0
                      ? (uint64_t)json_integer_value(size)
                      : 0;
    const struct published_file *file = file_named(files, count, name);
    int algorithm = file != NULL && file->checksum != NULL
                        ? hash_algorithm_for_length(strlen(file->checksum))
                        : -1;
    if (algorithm >= 0)
        entry->algorithm = algorithm == HASH_MD5 ? "md5" : "sha256";
    const char *recorded =
        algorithm < 0 ? NULL : json_string_value(json_object_get(input, entry->algorithm));
    entry->name = strdup(name);
    entry->recorded = recorded != NULL ? strdup(recorded) : NULL;
    if (entry->name == NULL || (recorded != NULL && entry->recorded == NULL))
        return error_set(EXIT_OTHER, "cannot check the inputs: out of memory");
    entry->state = entry_state(input, file, entry);
    return EXIT_OK;
}

static enum input_verdict entry_verdict(enum input_publication state)
{
    switch (state) {
    case INPUT_PUBLISHED:
        return INPUT_VERDICT_FILES;
    case INPUT_REPACKED:
        return INPUT_VERDICT_CONTENT;
    case INPUT_UNCHECKED:
        return INPUT_VERDICT_UNKNOWN;
    default:
        return INPUT_VERDICT_NOT;
    }
}

/* Why ENTRY is not the published file, into REASON. */
static void reason_write(const struct input_publication_entry *entry, const char *dataset,
                         char *reason, size_t size)
{
    if (entry->state == INPUT_FIXTURE)
        snprintf(reason, size, "fuel fixture --raw output");
    else if (entry->state == INPUT_UNLISTED)
        snprintf(reason, size, "not a file of %s", dataset);
    else if (entry->state == INPUT_NOT_PUBLISHED && entry->published_size > 0 &&
             entry->size != entry->published_size)
        snprintf(reason, size, "%" PRIu64 " bytes, published %" PRIu64, entry->size,
                 entry->published_size);
    else if (entry->state == INPUT_NOT_PUBLISHED)
        snprintf(reason, size, "%s %s, published %s", entry->algorithm, entry->recorded,
                 entry->published);
    else if (entry->algorithm == NULL)
        snprintf(reason, size, "no published checksum");
    else
        snprintf(reason, size, "no %s recorded", entry->algorithm);
}

/* Keeps why ENTRY is not the published file (nothing for a published or re-compressed one). */
static int reason_keep(struct input_publication_entry *entry, const char *dataset)
{
    if (entry->state == INPUT_PUBLISHED || entry->state == INPUT_REPACKED)
        return EXIT_OK;
    char reason[512];
    reason_write(entry, dataset, reason, sizeof reason);
    entry->reason = strdup(reason);
    return entry->reason != NULL ? EXIT_OK
                                 : error_set(EXIT_OTHER, "cannot check the inputs: out of memory");
}

static bool inputs_well_formed(json_t *inputs)
{
    if (!json_is_array(inputs))
        return false;
    size_t index;
    json_t *input;
    json_array_foreach(inputs, index, input)
        if (!json_is_string(json_object_get(input, "name")))
            return false;
    return true;
}

int inputs_publication_check(const char *provenance_json, const struct published_file *files,
                             size_t count, const char *dataset, struct inputs_publication *report)
{
    *report = (struct inputs_publication){0};
    size_t total;
    json_t *provenance = provenance_bounded_parse(provenance_json, 0, NULL,
                                                  PUBLISHED_INPUTS_MAX, &total, NULL, NULL);
    json_t *inputs = json_object_get(provenance, "inputs");
    int result = EXIT_OK;
    if (total > PUBLISHED_INPUTS_MAX)
        result = error_set(EXIT_CORRUPT_INPUT, "more than %d inputs in the provenance",
                           PUBLISHED_INPUTS_MAX);
    else if (!inputs_well_formed(inputs))
        result = error_set(EXIT_CORRUPT_INPUT, "no well-formed inputs in the provenance");
    else if ((report->inputs = calloc(json_array_size(inputs) + 1, sizeof *report->inputs)) ==
             NULL)
        result = error_set(EXIT_OTHER, "cannot check the inputs: out of memory");
    for (size_t index = 0; result == EXIT_OK && index < json_array_size(inputs); index++) {
        report->count++;
        result = entry_fill(json_array_get(inputs, index), files, count, &report->inputs[index]);
        if (result == EXIT_OK)
            result = reason_keep(&report->inputs[index], dataset);
    }
    json_decref(provenance);
    if (result != EXIT_OK)
        inputs_publication_free(report);
    return result;
}

void inputs_publication_free(struct inputs_publication *report)
{
    for (size_t index = 0; index < report->count; index++) {
        free(report->inputs[index].name);
        free(report->inputs[index].recorded);
        free(report->inputs[index].reason);
    }
    free(report->inputs);
    *report = (struct inputs_publication){0};
}

struct input_evidence *inputs_publication_evidence(const struct inputs_publication *report)
{
    struct input_evidence *evidence = calloc(report->count + 1, sizeof *evidence);
    for (size_t index = 0; evidence != NULL && index < report->count; index++) {
        const struct input_publication_entry *entry = &report->inputs[index];
        evidence[index] = (struct input_evidence){entry->name, entry_verdict(entry->state),
                                                  entry->reason};
    }
    return evidence;
}

char *inputs_publication_summary(const struct inputs_publication *report, const char *dataset)
{
    struct input_evidence *evidence = inputs_publication_evidence(report);
    char *sentence = evidence != NULL ? input_verdict_sentence(dataset, evidence, report->count)
                                      : NULL;
    free(evidence);
    return sentence;
}

static json_t *evidence_json(const struct input_evidence *evidence, size_t count)
{
    json_t *inputs = json_array();
    for (size_t index = 0; inputs != NULL && index < count; index++)
        json_array_append_new(
            inputs, json_pack("{s:s, s:s, s:o}", "name", evidence[index].name, "published",
                              input_verdict_value(evidence[index].verdict), "reason",
                              evidence[index].reason != NULL ? json_string(evidence[index].reason)
                                                             : json_null()));
    return json_pack("{s:s, s:o}", "published",
                     input_verdict_value(input_verdict_combine(evidence, count)), "inputs",
                     inputs != NULL ? inputs : json_null());
}

json_t *inputs_publication_json(const struct inputs_publication *report)
{
    struct input_evidence *evidence = inputs_publication_evidence(report);
    json_t *verdict = evidence != NULL ? evidence_json(evidence, report->count) : NULL;
    free(evidence);
    return verdict;
}
