/* Chooses the sources of a shard export and the role of each. */
#include "shard_sources.h"

#include "common/base/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char choose_hint[] = "name the sources to export with --source";

static bool is_byte(const struct shard_source *item)
{
    return item->source.type.kind == 'u' && item->source.type.size == 1;
}

static bool is_integer(const struct shard_source *item)
{
    char kind = item->source.type.kind;
    return kind == 'u' || kind == 'i' || kind == 'b';
}

static void descr_make(struct shard_source *item)
{
    const struct numeric_type *type = &item->source.type;
    if (!item->source.variable)
        snprintf(item->descr, sizeof item->descr, "%s", item->source.fixed.descr);
    else if (type->kind == 'b')
        snprintf(item->descr, sizeof item->descr, "|b1");
    else
        snprintf(item->descr, sizeof item->descr, "%c%c%zu", type->size == 1 ? '|' : '<',
                 type->kind, type->size);
}

/* Images: uint8 examples whose axes are (channel,) height and width. */
static bool image_found(struct shard_source *item)
{
    if (!is_byte(item))
        return false;
    bool found = image_axes_find(&item->source, NULL, &item->axes) == EXIT_OK;
    error_clear();
    return found;
}

static int role_choose(struct shard_source *item, const struct export_request *request,
                       const char *form)
{
    const char *name = item->source.name;
    const char *label = request->label_source ? request->label_source : "targets";
    bool one_integer = !item->source.variable && is_integer(item) &&
                       item->source.example_elements == 1;
    if (strcmp(name, label) == 0 && (one_integer || request->label_source != NULL)) {
        item->role = SHARD_LABEL;
        return one_integer ? EXIT_OK
                           : error_set(EXIT_USAGE, "label source %s does not hold one integer per "
                                       "example: --label must name one that does", name);
    }
    if (image_found(item)) {
        item->role = SHARD_PNG;
    } else if (item->source.variable && is_byte(item) && item->source.vlen.example_rank == 1) {
        item->role = SHARD_JPEG;
    } else if (item->source.variable) {
        return error_set(EXIT_USAGE, "source %s is variable-length and neither images nor encoded "
                         "JPEG images: %s cannot hold it; %s", name, form, choose_hint);
    } else {
        item->role = SHARD_ARRAY;
    }
    return EXIT_OK;
}

static int item_open(struct shard_source *item, const struct h5py_file *file, const char *name,
                     const struct export_request *request, const char *form)
{
    int result = example_source_open_strings(&item->source, file, name);
    if (result == EXIT_USAGE && h5py_file_source(file, name) != NULL) {
        char why[512];
        snprintf(why, sizeof why, "%s", error_message());
        return error_set(EXIT_USAGE, "%s: %s cannot hold it; %s", why, form, choose_hint);
    }
    if (result != EXIT_OK)
        return result;
    descr_make(item);
    return role_choose(item, request, form);
}

static bool listed(const char *const *names, size_t count, const char *name)
{
    for (size_t index = 0; index < count; index++)
        if (strcmp(names[index], name) == 0)
            return true;
    return false;
}

/* The names to open: --source, or every source of FILE; then --data and --label if missing. */
static size_t names_choose(const struct h5py_file *file, const struct export_request *request,
                           const char **names)
{
    size_t count = 0;
    size_t given = request->source_count;
    for (size_t index = 0; index < (given ? given : file->source_count); index++) {
        const char *name = given ? request->sources[index] : file->sources[index].name;
        if (!listed(names, count, name))
            names[count++] = name;
    }
    const char *roles[2] = {request->data_given ? request->data_source : NULL,
                            request->label_source};
    for (size_t role = 0; role < 2; role++)
        if (roles[role] != NULL && !listed(names, count, roles[role]))
            names[count++] = roles[role];
    return count;
}

static int primary_choose(struct shard_sources *sources, const struct export_request *request,
                          const char *form)
{
    const char *data = request->data_given ? request->data_source : NULL;
    for (size_t index = 0; index < sources->count; index++) {
        struct shard_source *item = &sources->items[index];
        bool image = item->role == SHARD_PNG || item->role == SHARD_JPEG;
        if (data != NULL && strcmp(item->source.name, data) == 0) {
            if (!image)
                return error_set(EXIT_USAGE, "source %s is not an image (uint8 with (channel,) "
                                 "height and width axes, or encoded JPEGs): %s writes --data as "
                                 "its image", item->source.name, form);
            item->primary = true;
            return EXIT_OK;
        }
        if (data == NULL && image) {
            item->primary = true;
            return EXIT_OK;
        }
    }
    return EXIT_OK;
}

int shard_sources_open(struct shard_sources *sources, const struct h5py_file *file,
                       const struct export_request *request, const char *form)
{
    *sources = (struct shard_sources){.named = request->source_count > 0};
    size_t capacity = file->source_count + request->source_count + 2;
    const char **names = calloc(capacity, sizeof *names);
    sources->items = calloc(capacity, sizeof *sources->items);
    if (names == NULL || sources->items == NULL) {
        free(names);
        return error_set(EXIT_OTHER, "out of memory");
    }
    size_t count = names_choose(file, request, names);
    for (size_t index = 0; index < count; index++)
        example_source_init(&sources->items[index].source);
    int result = EXIT_OK;
    for (size_t index = 0; result == EXIT_OK && index < count; index++) {
        sources->count = index + 1;
        result = item_open(&sources->items[index], file, names[index], request, form);
        if (result == EXIT_OK && sources->items[index].role == SHARD_LABEL)
            result = class_names_read(file, names[index], &sources->classes);
    }
    free(names);
    return result == EXIT_OK ? primary_choose(sources, request, form) : result;
}

static bool split_holds(const struct h5py_file *file, const char *split, const char *source)
{
    for (size_t index = 0; index < file->row_count; index++) {
        const struct h5py_split_row *row = &file->rows[index];
        if (strcmp(row->split, split) == 0 && strcmp(row->source, source) == 0)
            return row->available;
    }
    return false;
}

static int jpeg_check_first(const struct shard_source *item, const char *split)
{
    void *data = NULL;
    uint64_t shape[H5PY_VLEN_MAX_RANK];
    int rank;
    int result = example_source_read_one(&item->source, 0, &data, shape, &rank);
    const unsigned char *bytes = data;
    if (result == EXIT_OK && (shape[0] < 3 || bytes[0] != 0xFF || bytes[1] != 0xD8 ||
                              bytes[2] != 0xFF))
        result = error_set(EXIT_USAGE, "source %s is variable-length and neither images nor "
                           "encoded JPEG images (example 0 of split %s does not start with FF D8 "
                           "FF): %s", item->source.name, split, choose_hint);
    free(data);
    return result;
}

int shard_sources_select(struct shard_sources *sources, const struct h5py_file *file,
                         const char *split, bool check, uint64_t *examples)
{
    const char *counted = NULL;
    *examples = 0;
    for (size_t index = 0; index < sources->count; index++) {
        struct shard_source *item = &sources->items[index];
        item->present = sources->named || split_holds(file, split, item->source.name);
        if (!item->present)
            continue;
        int result = example_source_select(&item->source, file, split);
        uint64_t count = item->source.selection.count;
        if (result == EXIT_OK && counted != NULL && count != *examples)
            result = error_set(EXIT_CORRUPT_INPUT, "split %s has %llu examples of %s but %llu of "
                               "%s: %s", split, (unsigned long long)*examples, counted,
                               (unsigned long long)count, item->source.name, file->path);
        if (result == EXIT_OK && check && item->role == SHARD_JPEG && count > 0)
            result = jpeg_check_first(item, split);
        if (result != EXIT_OK)
            return result;
        counted = item->source.name;
        *examples = count;
    }
    return EXIT_OK;
}

void shard_dtype_name(const char *descr, char *name, size_t size)
{
    const char *kind = descr[1] == 'u' ? "uint" : descr[1] == 'i' ? "int" : "float";
    if (descr[1] == 'S')
        snprintf(name, size, "%s", descr + 1);
    else if (descr[1] == 'b')
        snprintf(name, size, "bool");
    else
        snprintf(name, size, "%s%d", kind, (descr[2] - '0') * 8);
}

void shard_sources_close(struct shard_sources *sources)
{
    for (size_t index = 0; index < sources->count; index++)
        example_source_close(&sources->items[index].source);
    class_names_free(&sources->classes);
    free(sources->items);
    *sources = (struct shard_sources){0};
}
