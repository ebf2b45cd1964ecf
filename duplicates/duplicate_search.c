/* Chooses the source and labels compared, checks the files' sources can hold equal examples,
   digests every example, groups them and labels the groups' members (duplicate_search.h). */
#include "duplicate_search.h"

#include "common/base/error.h"
#include "common/h5py/h5py_elements.h"
#include "common/h5py/h5py_examples.h"
#include "digest_runs.h"
#include "near_groups.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool every_file_has(const struct duplicates_request *request, const char *source)
{
    for (size_t index = 0; index < request->file_count; index++) {
        const struct h5py_file_source *found = h5py_file_source(request->files[index], source);
        if (found == NULL || !found->present)
            return false;
    }
    return true;
}

static const char *source_choose(const struct duplicates_request *request)
{
    if (request->source != NULL)
        return request->source;
    if (every_file_has(request, "features"))
        return "features";
    if (every_file_has(request, "encoded_images"))
        return "encoded_images";
    const struct h5py_file *first = request->files[0];
    return first->source_count > 0 ? first->sources[0].name : "features";
}

/* "uint8 (1, 28, 28)": SOURCE's type and example shape, or "variable-length uint8". */
static void source_describe(const struct h5py_file_source *source, char *text, size_t size)
{
    int length = snprintf(text, size, "%s%s (", source->variable_length ? "variable-length " : "",
                          source->dtype);
    for (int axis = 1; !source->variable_length && axis < source->rank && length > 0 &&
                       (size_t)length < size;
         axis++)
        length += snprintf(text + length, size - (size_t)length, "%s%llu", axis > 1 ? ", " : "",
                           (unsigned long long)source->shape[axis]);
    if (length > 0 && (size_t)length < size)
        snprintf(text + length, size - (size_t)length, ")");
}

static int sources_check(const struct duplicates_request *request, const char *source)
{
    char first[256], other[256];
    for (size_t index = 0; index < request->file_count; index++) {
        const struct h5py_file_source *found = h5py_file_source(request->files[index], source);
        if (found == NULL || !found->present)
            return error_set(EXIT_USAGE, "no source %s: %s", source, request->files[index]->path);
        source_describe(found, index == 0 ? first : other, sizeof first);
        if (index > 0 && !request->near && strcmp(first, other) != 0)
            return error_set(EXIT_CORRUPT_INPUT,
                             "source %s is %s in %s but %s in %s: their examples are never equal",
                             source, first, request->files[0]->path, other,
                             request->files[index]->path);
    }
    return EXIT_OK;
}

/* The labels read for one file: one number per example of its labels source. */
struct file_labels {
    bool opened;
    bool usable;
    struct h5py_examples examples;
    struct numeric_type type;
    struct h5py_selection *selections; /* one per split, found on first use */
    bool *found;
};

struct labelling {
    const struct duplicates_request *request;
    const char *source;
    struct file_labels files[DUPLICATES_MAX_FILES];
};

static int labels_open(struct labelling *labelling, size_t index)
{
    struct file_labels *labels = &labelling->files[index];
    const struct h5py_file *file = labelling->request->files[index];
    const struct h5py_file_source *source = h5py_file_source(file, labelling->source);
    if (source == NULL || !source->present || source->variable_length)
        return EXIT_OK;
    int result = h5py_examples_open(&labels->examples, file, labelling->source);
    if (result == EXIT_USAGE) {
        error_clear(); /* labels that are not numbers: members shown without them */
        return EXIT_OK;
    }
    if (result != EXIT_OK)
        return result;
    labels->opened = true;
    labels->usable = labels->examples.example_bytes == labels->examples.element_size;
    labels->type = numeric_type_from_descr(labels->examples.descr);
    labels->selections = calloc(file->split_count + 1, sizeof *labels->selections);
    labels->found = calloc(file->split_count + 1, sizeof *labels->found);
    if (labels->selections == NULL || labels->found == NULL)
        return error_set(EXIT_OTHER, "cannot read labels: out of memory");
    return EXIT_OK;
}

static void labels_close(struct labelling *labelling)
{
    for (size_t index = 0; index < labelling->request->file_count; index++) {
        struct file_labels *labels = &labelling->files[index];
        const struct h5py_file *file = labelling->request->files[index];
        for (size_t split = 0; labels->found != NULL && split < file->split_count; split++)
            if (labels->found[split])
                h5py_selection_free(&labels->selections[split]);
        free(labels->selections);
        free(labels->found);
        if (labels->opened)
            h5py_examples_close(&labels->examples);
    }
}

static int label_read(void *context, const struct example_record *member,
                      struct member_label *label)
{
    struct labelling *labelling = context;
    struct file_labels *labels = &labelling->files[member->file];
    const struct h5py_file *file = labelling->request->files[member->file];
    *label = (struct member_label){0};
    if (!labels->usable)
        return EXIT_OK;
    if (!labels->found[member->split]) {
        int result = h5py_selection_find(&labels->selections[member->split], file,
                                         file->splits[member->split], labelling->source);
        if (result == EXIT_USAGE) {
            error_clear(); /* this split has no labels */
            return EXIT_OK;
        }
        if (result != EXIT_OK)
            return result;
        labels->found[member->split] = true;
    }
    const struct h5py_selection *selection = &labels->selections[member->split];
    if (member->number >= selection->count)
        return EXIT_OK;
    unsigned char value[16];
    int result = h5py_examples_read(&labels->examples,
                                    h5py_selection_example(selection, member->number), 1, value);
    if (result == EXIT_OK)
        *label = (struct member_label){.known = true,
                                       .value = (int64_t)element_value(value, 0, labels->type)};
    return result;
}

static const char *labels_choose(const struct duplicates_request *request, const char *source)
{
    const char *labels = request->labels != NULL ? request->labels : "targets";
    if (*labels == '\0' || strcmp(labels, source) == 0)
        return NULL;
    for (size_t index = 0; index < request->file_count; index++) {
        const struct h5py_file_source *found = h5py_file_source(request->files[index], labels);
        if (found != NULL && found->present)
            return labels;
    }
    return NULL;
}

static int groups_label(const struct duplicates_request *request, struct duplicates_result *result)
{
    struct labelling labelling = {.request = request, .source = result->labels};
    int status = EXIT_OK;
    for (size_t index = 0; status == EXIT_OK && index < request->file_count; index++) {
        status = labels_open(&labelling, index);
        if (status == EXIT_OK && labelling.files[index].usable)
            status = class_names_read(request->files[index], result->labels,
                                      &result->names[index]);
    }
    if (status == EXIT_OK)
        status = duplicate_groups_label(&result->groups, &result->digests, label_read,
                                        &labelling);
    labels_close(&labelling);
    return status;
}

static int labels_check(const struct duplicates_request *request)
{
    if (request->labels == NULL || *request->labels == '\0')
        return EXIT_OK;
    for (size_t index = 0; index < request->file_count; index++) {
        const struct h5py_file_source *found = h5py_file_source(request->files[index],
                                                                request->labels);
        if (found == NULL || !found->present)
            return error_set(EXIT_USAGE, "no source %s: %s", request->labels,
                             request->files[index]->path);
    }
    return EXIT_OK;
}

int duplicates_find(const struct duplicates_request *request, struct duplicates_result *result)
{
    *result = (struct duplicates_result){.source = source_choose(request)};
    result->digests.memory_limit = request->memory_examples;
    if (request->file_count > DUPLICATES_MAX_FILES)
        return error_set(EXIT_USAGE, "at most %d files at once", DUPLICATES_MAX_FILES);
    if (request->near && request->threshold > NEAR_THRESHOLD_MAX)
        return error_set(EXIT_USAGE, "--threshold %u: at most %d bits", request->threshold,
                         NEAR_THRESHOLD_MAX);
    int status = sources_check(request, result->source);
    if (status == EXIT_OK)
        status = labels_check(request);
    struct digest_request digests[DUPLICATES_MAX_FILES];
    for (size_t index = 0; status == EXIT_OK && index < request->file_count; index++)
        digests[index] = (struct digest_request){
            .file = request->files[index], .file_index = (uint16_t)index, .source = result->source,
            .splits = request->files[index]->splits,
            .split_count = request->files[index]->split_count, .listener = request->listener,
            .perceptual = request->near, .threads = request->threads};
    if (status == EXIT_OK)
        status = example_digests_bound(digests, request->file_count);
    for (size_t index = 0; status == EXIT_OK && index < request->file_count; index++)
        status = example_digests_add(&result->digests, &digests[index]);
    result->examples = result->digests.total;
    if (status == EXIT_OK && !request->near)
        status = digest_runs_merge(&result->digests);
    if (status == EXIT_OK && request->near)
        status = near_groups_gather(&result->digests, request->threshold, request->threads,
                                    request->listener);
    if (status == EXIT_OK)
        status = duplicate_groups_find(&result->digests, &result->groups);
    result->labels = labels_choose(request, result->source);
    if (status == EXIT_OK && result->labels != NULL)
        status = groups_label(request, result);
    return status;
}

void duplicates_result_free(struct duplicates_result *result, size_t file_count)
{
    example_digests_free(&result->digests);
    duplicate_groups_free(&result->groups);
    for (size_t index = 0; index < file_count && index < DUPLICATES_MAX_FILES; index++)
        class_names_free(&result->names[index]);
}
