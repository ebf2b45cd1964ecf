/* FILE.h5:/path/to/dataset entries: a numeric or bool dataset of any HDF5 file, its first axis
   the examples', read in blocks of rows with HDF5 converting to this machine's byte order.
   HDF5's error printing is off during each call here and restored after it, so that the
   writer's own handler keeps the reasons of its failures. */
#include "common/base/error.h"
#include "common/base/input_file.h"
#include "common/h5py/hdf5_tapped_driver.h"
#include "input_kinds.h"

#include <errno.h>
#include <hdf5.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct input_reader {
    const struct pack_input *input;
    hid_t file, dataset, memory_type;
    uint64_t examples, next, examples_per_block;
    int rank;
    hsize_t shape[H5PY_MAX_RANK];
    void *buffer;
};

struct quiet {
    H5E_auto2_t handler;
    void *data;
};

static void quiet_begin(struct quiet *quiet)
{
    H5Eget_auto2(H5E_DEFAULT, &quiet->handler, &quiet->data);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

static void quiet_end(const struct quiet *quiet)
{
    H5Eset_auto2(H5E_DEFAULT, quiet->handler, quiet->data);
}

/* numpy's bool as h5py stores it, in memory. */
static hid_t bool_type(void)
{
    hid_t type = H5Tenum_create(H5T_NATIVE_SCHAR);
    signed char value = 0;
    H5Tenum_insert(type, "FALSE", &value);
    value = 1;
    H5Tenum_insert(type, "TRUE", &value);
    return type;
}

static hid_t native_type(enum element_type type)
{
    switch (type) {
    case ELEMENT_INT8: return H5Tcopy(H5T_NATIVE_INT8);
    case ELEMENT_INT16: return H5Tcopy(H5T_NATIVE_INT16);
    case ELEMENT_INT32: return H5Tcopy(H5T_NATIVE_INT32);
    case ELEMENT_INT64: return H5Tcopy(H5T_NATIVE_INT64);
    case ELEMENT_UINT8: return H5Tcopy(H5T_NATIVE_UINT8);
    case ELEMENT_UINT16: return H5Tcopy(H5T_NATIVE_UINT16);
    case ELEMENT_UINT32: return H5Tcopy(H5T_NATIVE_UINT32);
    case ELEMENT_UINT64: return H5Tcopy(H5T_NATIVE_UINT64);
    case ELEMENT_FLOAT32: return H5Tcopy(H5T_NATIVE_FLOAT);
    case ELEMENT_FLOAT64: return H5Tcopy(H5T_NATIVE_DOUBLE);
    default: return bool_type();
    }
}

/* The element type of STORED and the memory type it is read as; false when none fits. */
static bool element_of(hid_t stored, enum element_type *type, hid_t *memory)
{
    static const struct {
        H5T_class_t class;
        size_t size;
        H5T_sign_t sign;
        enum element_type type;
    } types[] = {
        {H5T_INTEGER, 1, H5T_SGN_2, ELEMENT_INT8},   {H5T_INTEGER, 2, H5T_SGN_2, ELEMENT_INT16},
        {H5T_INTEGER, 4, H5T_SGN_2, ELEMENT_INT32},  {H5T_INTEGER, 8, H5T_SGN_2, ELEMENT_INT64},
        {H5T_INTEGER, 1, H5T_SGN_NONE, ELEMENT_UINT8}, {H5T_INTEGER, 2, H5T_SGN_NONE, ELEMENT_UINT16},
        {H5T_INTEGER, 4, H5T_SGN_NONE, ELEMENT_UINT32}, {H5T_INTEGER, 8, H5T_SGN_NONE, ELEMENT_UINT64},
        {H5T_FLOAT, 4, H5T_SGN_ERROR, ELEMENT_FLOAT32}, {H5T_FLOAT, 8, H5T_SGN_ERROR, ELEMENT_FLOAT64},
    };
    H5T_class_t class = H5Tget_class(stored);
    size_t size = H5Tget_size(stored);
    if (class == H5T_ENUM) {
        hid_t wanted = bool_type();
        hid_t base = H5Tget_super(stored);
        bool matches = base >= 0 && H5Tget_size(base) == 1 && H5Tget_nmembers(stored) == 2;
        if (base >= 0)
            H5Tclose(base);
        *type = ELEMENT_BOOL;
        *memory = wanted;
        return matches;
    }
    for (size_t index = 0; index < sizeof types / sizeof types[0]; index++)
        if (types[index].class == class && types[index].size == size &&
            (class == H5T_FLOAT || H5Tget_sign(stored) == types[index].sign)) {
            *type = types[index].type;
            *memory = native_type(*type);
            return true;
        }
    return false;
}

static int dataset_open(const struct pack_input *input, struct input_reader *reader,
                        enum element_type *type)
{
    int missing = 0;
    if (input_file_check(input->path, &missing) != EXIT_OK)
        return error_code();
    hid_t access = hdf5_tapped_access(); /* the provenance hashes the bytes HDF5 reads */
    reader->file = access >= 0 ? H5Fopen(input->path, H5F_ACC_RDONLY, access) : -1;
    if (access >= 0)
        H5Pclose(access);
    if (reader->file < 0)
        return error_set(EXIT_CORRUPT_INPUT, "not an HDF5 file: %s", input->path);
    if (H5Lexists(reader->file, input->member, H5P_DEFAULT) <= 0 ||
        (reader->dataset = H5Dopen2(reader->file, input->member, H5P_DEFAULT)) < 0)
        return error_set(EXIT_MISSING_INPUT, "not found: %s: no dataset %s", input->path,
                         input->member);
    hid_t stored = H5Dget_type(reader->dataset), space = H5Dget_space(reader->dataset);
    bool known = stored >= 0 && element_of(stored, type, &reader->memory_type);
    reader->rank = space >= 0 ? H5Sget_simple_extent_ndims(space) : -1;
    if (reader->rank >= 1 && reader->rank <= H5PY_MAX_RANK)
        H5Sget_simple_extent_dims(space, reader->shape, NULL);
    if (stored >= 0)
        H5Tclose(stored);
    if (space >= 0)
        H5Sclose(space);
    if (!known)
        return input_error(EXIT_CORRUPT_INPUT, input, "not a dataset of bools, integers or "
                           "float32/64");
    if (reader->rank < 1 || reader->rank > H5PY_MAX_RANK)
        return input_error(EXIT_CORRUPT_INPUT, input, "%d dimensions, not 1 to %d",
                           reader->rank, H5PY_MAX_RANK);
    reader->examples = reader->shape[0];
    return EXIT_OK;
}

static void dataset_close(struct input_reader *reader)
{
    if (reader->dataset >= 0)
        H5Dclose(reader->dataset);
    if (reader->memory_type >= 0)
        H5Tclose(reader->memory_type);
    if (reader->file >= 0)
        H5Fclose(reader->file);
    free(reader->buffer);
}

static int hdf5_probe(const struct input_context *context, const struct pack_input *input,
                      struct input_facts *facts)
{
    struct input_reader reader = {.file = -1, .dataset = -1, .memory_type = -1};
    struct quiet quiet;
    quiet_begin(&quiet);
    int result = dataset_open(input, &reader, &facts->type);
    dataset_close(&reader);
    quiet_end(&quiet);
    if (result != EXIT_OK)
        return result;
    facts->examples = reader.shape[0];
    facts->example_rank = reader.rank - 1;
    for (int axis = 1; axis < reader.rank; axis++)
        facts->example_shape[axis - 1] = reader.shape[axis];
    char *name = input_relative_name(context->spec, input->path);
    result = name == NULL ? error_set(EXIT_OTHER, "out of memory")
                          : input_facts_add_file(facts, input->path, name);
    free(name);
    return result;
}

static int hdf5_open(const struct input_context *context, const struct pack_input *input,
                     const struct input_facts *facts, struct input_reader **reader)
{
    (void)context;
    *reader = calloc(1, sizeof **reader);
    if (*reader == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    **reader = (struct input_reader){.input = input, .file = -1, .dataset = -1, .memory_type = -1};
    struct quiet quiet;
    quiet_begin(&quiet);
    enum element_type type;
    int result = dataset_open(input, *reader, &type);
    quiet_end(&quiet);
    if (result == EXIT_OK && (type != facts->type || (*reader)->examples != facts->examples))
        result = error_set(EXIT_CORRUPT_INPUT, "input changed while packing: %s", input->path);
    uint64_t example_bytes = element_size(type);
    for (int axis = 1; result == EXIT_OK && axis < (*reader)->rank; axis++)
        example_bytes *= (*reader)->shape[axis];
    (*reader)->examples_per_block =
        example_bytes == 0 ? facts->examples + 1
        : example_bytes >= INPUT_BLOCK_BYTES ? 1 : INPUT_BLOCK_BYTES / example_bytes;
    (*reader)->buffer = malloc(example_bytes * (*reader)->examples_per_block + 1);
    if (result == EXIT_OK && (*reader)->buffer == NULL)
        result = error_set(EXIT_OTHER, "out of memory");
    return result;
}

static int hdf5_next(struct input_reader *reader, struct example_block *block)
{
    uint64_t left = reader->examples - reader->next;
    uint64_t count = left < reader->examples_per_block ? left : reader->examples_per_block;
    *block = (struct example_block){.data = reader->buffer, .count = count};
    if (count == 0)
        return EXIT_OK;
    hsize_t start[H5PY_MAX_RANK] = {reader->next}, size[H5PY_MAX_RANK];
    memcpy(size, reader->shape, sizeof size);
    size[0] = count;
    struct quiet quiet;
    quiet_begin(&quiet);
    hid_t file_space = H5Dget_space(reader->dataset);
    hid_t memory_space = H5Screate_simple(reader->rank, size, NULL);
    herr_t status = file_space < 0 || memory_space < 0 ? -1
                    : H5Sselect_hyperslab(file_space, H5S_SELECT_SET, start, NULL, size, NULL);
    if (status >= 0)
        status = H5Dread(reader->dataset, reader->memory_type, memory_space, file_space,
                         H5P_DEFAULT, reader->buffer);
    if (file_space >= 0)
        H5Sclose(file_space);
    if (memory_space >= 0)
        H5Sclose(memory_space);
    quiet_end(&quiet);
    reader->next += count;
    return status < 0 ? input_error(EXIT_CORRUPT_INPUT, reader->input, "rows %llu to %llu do not "
                                    "read", (unsigned long long)(reader->next - count),
                                    (unsigned long long)reader->next)
                      : EXIT_OK;
}

static void hdf5_close(struct input_reader *reader)
{
    if (reader == NULL)
        return;
    struct quiet quiet;
    quiet_begin(&quiet);
    dataset_close(reader);
    quiet_end(&quiet);
    free(reader);
}

const struct input_kind_reader hdf5_input_reader = {hdf5_probe, hdf5_open, hdf5_next, hdf5_close,
                                                    NULL};
