/* {arrays: DIR} entries: one .npy per example, in sorted name order (Fuel's chapter 4.7 keeps
   variable-length images so); a ragged source when their shapes differ. */
#include "common/base/error.h"
#include "common/h5py/h5py_reader.h"
#include "folder.h"
#include "input_kinds.h"
#include "npy_file.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

struct input_reader {
    const struct input_facts *facts;
    size_t next;
    unsigned char *buffer;
    size_t capacity;
    uint32_t shape[H5PY_MAX_RANK];
};

static bool is_array(const struct folder_entry *entry)
{
    size_t length = strlen(entry->name);
    return !entry->folder && length > 4 && strcmp(entry->name + length - 4, ".npy") == 0;
}

/* One array's shape as an example's: the same type and rank as the first, each side within what
   a ragged source's shapes hold, at most H5PY_EXAMPLE_MAX_BYTES. */
static int example_facts(const struct npy_file *file, struct input_facts *facts, bool first)
{
    const struct npy_array *array = &file->array;
    if (array->rank > H5PY_MAX_RANK)
        return error_set(EXIT_CORRUPT_INPUT, "cannot read .npy: %s: %d dimensions, more than %d",
                         file->path, array->rank, H5PY_MAX_RANK);
    if (array->data_bytes > H5PY_EXAMPLE_MAX_BYTES)
        return error_set(EXIT_CORRUPT_INPUT, "example too large: %s: %" PRIu64 " bytes, more "
                         "than the %zu every reader accepts", file->path, array->data_bytes,
                         H5PY_EXAMPLE_MAX_BYTES);
    for (int axis = 0; axis < array->rank; axis++)
        if (array->shape[axis] > INT32_MAX)
            return error_set(EXIT_CORRUPT_INPUT, "cannot read .npy: %s: a side of %" PRIu64
                             ", more than a shapes scale holds", file->path, array->shape[axis]);
    if (first) {
        facts->type = file->type;
        facts->example_rank = array->rank;
        memcpy(facts->example_shape, array->shape, (size_t)array->rank * sizeof array->shape[0]);
        return EXIT_OK;
    }
    if (file->type != facts->type || array->rank != facts->example_rank)
        return error_set(EXIT_CORRUPT_INPUT, "arrays differ: %s holds %d axes of %s, the first "
                         "%d of %s", file->path, array->rank, element_type_dtype(file->type),
                         facts->example_rank, element_type_dtype(facts->type));
    facts->ragged |= memcmp(facts->example_shape, array->shape,
                            (size_t)array->rank * sizeof array->shape[0]) != 0;
    return EXIT_OK;
}

static int array_probe(const struct input_context *context, const char *path, bool first,
                       struct input_facts *facts)
{
    struct npy_file file;
    int result = npy_file_open(&file, path);
    if (result == EXIT_OK)
        result = example_facts(&file, facts, first);
    npy_file_close(&file);
    char *name = result == EXIT_OK ? input_relative_name(context->spec, path) : NULL;
    if (result == EXIT_OK)
        result = name == NULL ? error_set(EXIT_OTHER, "out of memory")
                              : input_facts_add_file(facts, path, name);
    free(name);
    return result;
}

static int arrays_probe(const struct input_context *context, const struct pack_input *input,
                        struct input_facts *facts)
{
    struct folder_listing listing;
    int result = folder_list(input->path, &listing);
    for (size_t index = 0; index < listing.count && result == EXIT_OK; index++) {
        if (!is_array(&listing.entries[index]))
            continue;
        char *path = folder_join(input->path, listing.entries[index].name);
        result = path == NULL ? error_set(EXIT_OTHER, "out of memory")
                              : array_probe(context, path, facts->examples == 0, facts);
        facts->examples++;
        free(path);
    }
    folder_listing_free(&listing);
    if (result == EXIT_OK && facts->examples == 0)
        facts->type = ELEMENT_FLOAT64;
    return result;
}

static int arrays_open(const struct input_context *context, const struct pack_input *input,
                       const struct input_facts *facts, struct input_reader **reader)
{
    (void)context;
    (void)input;
    *reader = calloc(1, sizeof **reader);
    if (*reader == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    (*reader)->facts = facts;
    return EXIT_OK;
}

static int arrays_next(struct input_reader *reader, struct example_block *block)
{
    *block = (struct example_block){0};
    if (reader->next == reader->facts->file_count)
        return EXIT_OK;
    struct npy_file file;
    int result = npy_file_open(&file, reader->facts->files[reader->next]);
    const struct npy_array *array = &file.array;
    if (result == EXIT_OK && (file.type != reader->facts->type ||
                              array->rank != reader->facts->example_rank ||
                              array->data_bytes > H5PY_EXAMPLE_MAX_BYTES))
        result = error_set(EXIT_CORRUPT_INPUT, "input changed while packing: %s", file.path);
    if (result == EXIT_OK && array->data_bytes + 1 > reader->capacity) {
        free(reader->buffer);
        reader->capacity = (size_t)array->data_bytes + 1;
        reader->buffer = malloc(reader->capacity);
        if (reader->buffer == NULL)
            result = error_set(EXIT_OTHER, "out of memory");
    }
    if (result == EXIT_OK)
        result = npy_file_read(&file, 0, array->shape[0], reader->buffer);
    for (int axis = 0; result == EXIT_OK && axis < array->rank; axis++)
        reader->shape[axis] = (uint32_t)array->shape[axis];
    npy_file_close(&file);
    reader->next++;
    *block = (struct example_block){reader->buffer, 1, reader->shape};
    return result;
}

static void arrays_close(struct input_reader *reader)
{
    if (reader == NULL)
        return;
    free(reader->buffer);
    free(reader);
}

const struct input_kind_reader arrays_input_reader = {arrays_probe, arrays_open, arrays_next,
                                                      arrays_close, NULL};
