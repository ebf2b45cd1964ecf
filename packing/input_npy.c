/* FILE.npy entries: the array's first axis is the examples', read in blocks. */
#include "common/base/error.h"
#include "input_kinds.h"
#include "npy_file.h"

#include <stdlib.h>
#include <string.h>

struct input_reader {
    struct npy_file file;
    uint64_t next;
    uint64_t examples_per_block;
    unsigned char *buffer;
};

int npy_array_facts(const struct npy_array *array, const char *path, struct input_facts *facts)
{
    if (array->rank > H5PY_MAX_RANK)
        return error_set(EXIT_CORRUPT_INPUT, "cannot read .npy: %s: %d dimensions, more than %d",
                         path, array->rank, H5PY_MAX_RANK);
    if (array->rank == 0)
        return error_set(EXIT_CORRUPT_INPUT, "cannot read .npy: %s: a 0-d array has no examples",
                         path);
    if (!input_npy_type(array->kind, array->item_size, &facts->type))
        return error_set(EXIT_CORRUPT_INPUT, "cannot read .npy: %s: unsupported dtype", path);
    facts->examples = array->shape[0];
    facts->example_rank = array->rank - 1;
    for (int axis = 1; axis < array->rank; axis++)
        facts->example_shape[axis - 1] = array->shape[axis];
    return EXIT_OK;
}

static int npy_probe(const struct input_context *context, const struct pack_input *input,
                     struct input_facts *facts)
{
    struct npy_file file;
    int result = npy_file_open(&file, input->path);
    if (result == EXIT_OK)
        result = npy_array_facts(&file.array, file.path, facts);
    npy_file_close(&file);
    char *name = result == EXIT_OK ? input_relative_name(context->spec, input->path) : NULL;
    if (result == EXIT_OK)
        result = name == NULL ? error_set(EXIT_OTHER, "out of memory")
                              : input_facts_add_file(facts, input->path, name);
    free(name);
    return result;
}

int npy_facts_agree(const struct npy_array *array, const char *path,
                    const struct input_facts *facts)
{
    struct input_facts now = {0};
    int result = npy_array_facts(array, path, &now);
    if (result == EXIT_OK &&
        (now.type != facts->type || now.examples != facts->examples ||
         now.example_rank != facts->example_rank ||
         memcmp(now.example_shape, facts->example_shape, sizeof now.example_shape) != 0))
        result = error_set(EXIT_CORRUPT_INPUT, "input changed while packing: %s", path);
    return result;
}

static int npy_open(const struct input_context *context, const struct pack_input *input,
                    const struct input_facts *facts, struct input_reader **reader)
{
    (void)context;
    *reader = calloc(1, sizeof **reader);
    if (*reader == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    int result = npy_file_open(&(*reader)->file, input->path);
    if (result == EXIT_OK)
        result = npy_facts_agree(&(*reader)->file.array, input->path, facts);
    if (result != EXIT_OK)
        return result;
    uint64_t example_bytes = (*reader)->file.example_elements * (*reader)->file.array.item_size;
    (*reader)->examples_per_block =
        example_bytes == 0 || example_bytes >= INPUT_BLOCK_BYTES ? 1
                                                                 : INPUT_BLOCK_BYTES / example_bytes;
    if (example_bytes == 0)
        (*reader)->examples_per_block = facts->examples > 0 ? facts->examples : 1;
    (*reader)->buffer = malloc((size_t)((*reader)->examples_per_block * example_bytes) + 1);
    return (*reader)->buffer == NULL ? error_set(EXIT_OTHER, "out of memory") : EXIT_OK;
}

static int npy_next(struct input_reader *reader, struct example_block *block)
{
    uint64_t left = reader->file.array.shape[0] - reader->next;
    uint64_t count = left < reader->examples_per_block ? left : reader->examples_per_block;
    *block = (struct example_block){.data = reader->buffer, .count = count};
    if (count == 0)
        return EXIT_OK;
    int result = npy_file_read(&reader->file, reader->next, count, reader->buffer);
    reader->next += count;
    return result;
}

static void npy_close(struct input_reader *reader)
{
    if (reader == NULL)
        return;
    npy_file_close(&reader->file);
    free(reader->buffer);
    free(reader);
}

static bool npy_stored(struct input_reader *reader, int *descriptor, uint64_t *offset)
{
    const struct npy_array *array = &reader->file.array;
    if ((array->fortran_order && array->rank > 1) || (array->big_endian && array->item_size > 1) ||
        array->kind == 'b')
        return false;
    *descriptor = reader->file.descriptor;
    *offset = array->header_length +
              reader->next * reader->file.example_elements * array->item_size;
    return true;
}

const struct input_kind_reader npy_input_reader = {npy_probe, npy_open, npy_next, npy_close,
                                                   npy_stored};
