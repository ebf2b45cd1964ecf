/* Compares the inputs a fuel_provenance records with a dataset's published files (see
   published_inputs.h). */
#include "published_inputs.h"

#include "common/base/error.h"
#include "common/base/hash.h"
#include "provenance.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
    if (file->size > 0 && entry->size != file->size)
        return INPUT_NOT_PUBLISHED;
    if (entry->algorithm == NULL || entry->recorded == NULL)
        return INPUT_UNCHECKED;
    return strcasecmp(entry->recorded, file->checksum) == 0 ? INPUT_PUBLISHED : INPUT_NOT_PUBLISHED;
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
                             size_t count, struct inputs_publication *report)
{
    *report = (struct inputs_publication){0};
    json_t *provenance = json_loads(provenance_json, 0, NULL);
    json_t *inputs = json_object_get(provenance, "inputs");
    int result = EXIT_OK;
    if (!inputs_well_formed(inputs))
        result = error_set(EXIT_CORRUPT_INPUT, "no well-formed inputs in the provenance");
    else if ((report->inputs = calloc(json_array_size(inputs) + 1, sizeof *report->inputs)) ==
             NULL)
        result = error_set(EXIT_OTHER, "cannot check the inputs: out of memory");
    for (size_t index = 0; result == EXIT_OK && index < json_array_size(inputs); index++) {
        report->count++;
        result = entry_fill(json_array_get(inputs, index), files, count, &report->inputs[index]);
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
    }
    free(report->inputs);
    *report = (struct inputs_publication){0};
}

static bool all_in(const struct inputs_publication *report, enum input_publication state)
{
    for (size_t index = 0; index < report->count; index++)
        if (report->inputs[index].state != state)
            return false;
    return true;
}

static bool any_against(const struct inputs_publication *report)
{
    for (size_t index = 0; index < report->count; index++) {
        enum input_publication state = report->inputs[index].state;
        if (state == INPUT_NOT_PUBLISHED || state == INPUT_UNLISTED || state == INPUT_FIXTURE)
            return true;
    }
    return false;
}

static void reason_print(FILE *stream, const struct input_publication_entry *entry,
                         const char *dataset)
{
    if (entry->state == INPUT_FIXTURE)
        fprintf(stream, "fuel fixture --raw output");
    else if (entry->state == INPUT_UNLISTED)
        fprintf(stream, "not a file of %s", dataset);
    else if (entry->state == INPUT_NOT_PUBLISHED && entry->published_size > 0 &&
             entry->size != entry->published_size)
        fprintf(stream, "%" PRIu64 " bytes, published %" PRIu64, entry->size,
                entry->published_size);
    else if (entry->state == INPUT_NOT_PUBLISHED)
        fprintf(stream, "%s %s, published %s", entry->algorithm, entry->recorded, entry->published);
    else if (entry->algorithm == NULL)
        fprintf(stream, "no published checksum");
    else
        fprintf(stream, "no %s recorded", entry->algorithm);
}

char *inputs_publication_summary(const struct inputs_publication *report, const char *dataset)
{
    char *text = NULL;
    size_t length = 0;
    FILE *stream = open_memstream(&text, &length);
    if (stream == NULL)
        return NULL;
    if (report->count == 0)
        fprintf(stream, "inputs: none recorded");
    else if (all_in(report, INPUT_PUBLISHED))
        fprintf(stream, "inputs: the published files of %s", dataset);
    else if (all_in(report, INPUT_FIXTURE))
        fprintf(stream, "inputs: converted from fuel fixture --raw output");
    else {
        bool against = any_against(report);
        if (against)
            fprintf(stream, "inputs: not the published files of %s:", dataset);
        else
            fprintf(stream, "inputs: not checked against %s's published files:", dataset);
        const char *separator = " ";
        for (size_t index = 0; index < report->count; index++) {
            if (report->inputs[index].state == INPUT_PUBLISHED)
                continue;
            fprintf(stream, "%s%s (", separator, report->inputs[index].name);
            reason_print(stream, &report->inputs[index], dataset);
            fprintf(stream, ")");
            separator = ", ";
        }
    }
    if (fclose(stream) != 0) {
        free(text);
        return NULL;
    }
    return text;
}
