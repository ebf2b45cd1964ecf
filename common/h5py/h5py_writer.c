/* Writes HDF5 files laid out as Fuel's H5PYDataset interface 0.3, streaming rows in blocks. */
#include "h5py_writer.h"

#include "common/base/error.h"
#include "hdf5_failure.h"
#include "hdf5_write_behind.h"

#include <hdf5.h>
#include <hdf5_hl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Rows are gathered into blocks of at most this many bytes (and, for variable-length sources,
   this many examples) before one H5Dwrite, so per-example calls stay cheap. */
enum { BLOCK_BYTES = 4 << 20, BLOCK_EXAMPLES = 4096, METADATA_CACHE_BYTES = 4 << 20 };

struct pending_block {
    uint64_t first;
    uint64_t count;
    unsigned char *data;
    size_t used;
    size_t capacity;
    size_t *element_counts; /* variable-length sources: elements of each example */
    uint16_t *shapes;       /* variable-length sources: count x example_rank */
};

struct writer_source {
    char *name;
    enum element_type type;
    int rank;
    uint64_t shape[H5PY_MAX_RANK];
    bool variable_length;
    int example_rank;
    size_t row_bytes; /* fixed-shape sources: bytes of one example */
    hid_t dataset;
    hid_t shapes_dataset;
    hid_t memory_type;
    struct pending_block block;
};

struct split_declaration {
    size_t split;
    size_t source;
    uint64_t start;
    uint64_t stop;
};

struct h5py_writer {
    char *path;
    hid_t file;
    struct writer_source *sources;
    size_t source_count;
    char **split_names;
    size_t split_count;
    struct split_declaration *declarations;
    size_t declaration_count;
    struct write_behind behind;
};

size_t element_size(enum element_type type)
{
    switch (type) {
    case ELEMENT_UINT8:
    case ELEMENT_BOOL:
        return 1;
    case ELEMENT_UINT16:
        return 2;
    case ELEMENT_FLOAT32:
        return 4;
    case ELEMENT_INT64:
    case ELEMENT_FLOAT64:
        return 8;
    }
    return 0;
}

static char *duplicate(const char *text)
{
    char *copy = strdup(text);
    if (copy == NULL)
        error_set(EXIT_OTHER, "cannot write: out of memory");
    return copy;
}

static hid_t track_times_off(hid_t class)
{
    hid_t properties = H5Pcreate(class);
    if (properties >= 0 && H5Pset_obj_track_times(properties, false) < 0) {
        H5Pclose(properties);
        return -1;
    }
    return properties;
}

/* The metadata cache grows to 32 MB by default; variable-length rows fill it with global heap
   collections that are written once and never read back. 4 MB writes as fast. */
static herr_t bound_metadata_cache(hid_t access)
{
    H5AC_cache_config_t config = {.version = H5AC__CURR_CACHE_CONFIG_VERSION};
    if (H5Pget_mdc_config(access, &config) < 0)
        return -1;
    config.max_size = METADATA_CACHE_BYTES;
    config.initial_size = config.initial_size < METADATA_CACHE_BYTES ? config.initial_size
                                                                      : METADATA_CACHE_BYTES;
    config.set_initial_size = true;
    config.min_size = config.min_size < config.initial_size ? config.min_size
                                                             : config.initial_size;
    return H5Pset_mdc_config(access, &config);
}

/* Object times off for the root group, every object closed with the file, locking ignored where
   the filesystem has none (some NFS mounts) rather than failing. */
static hid_t create_file(const char *path)
{
    hid_t creation = track_times_off(H5P_FILE_CREATE);
    hid_t access = H5Pcreate(H5P_FILE_ACCESS);
    hid_t file = -1;
    if (creation >= 0 && access >= 0 && H5Pset_fclose_degree(access, H5F_CLOSE_STRONG) >= 0 &&
        H5Pset_file_locking(access, true, true) >= 0 && bound_metadata_cache(access) >= 0)
        file = H5Fcreate(path, H5F_ACC_TRUNC, creation, access);
    if (creation >= 0)
        H5Pclose(creation);
    if (access >= 0)
        H5Pclose(access);
    return file;
}

int h5py_writer_create(struct h5py_writer **writer, const char *path)
{
    hdf5_failure_watch();
    *writer = calloc(1, sizeof **writer);
    if (*writer == NULL)
        return error_set(EXIT_OTHER, "cannot write: %s: out of memory", path);
    (*writer)->path = duplicate(path);
    (*writer)->file = (*writer)->path != NULL ? create_file(path) : -1;
    if ((*writer)->file < 0) {
        int result = (*writer)->path != NULL ? hdf5_failure_report(path, "cannot create the file")
                                             : EXIT_OTHER;
        free((*writer)->path);
        free(*writer);
        *writer = NULL;
        return result;
    }
    hdf5_write_behind_start(&(*writer)->behind, (*writer)->file);
    return EXIT_OK;
}

const char *h5py_writer_path(const struct h5py_writer *writer)
{
    return writer->path;
}

static hid_t bool_type(hid_t base)
{
    hid_t type = H5Tenum_create(base);
    signed char value = 0;
    H5Tenum_insert(type, "FALSE", &value);
    value = 1;
    H5Tenum_insert(type, "TRUE", &value);
    return type;
}

/* The element type as stored (little-endian standard types) or in memory (native types). */
static hid_t element_hdf5_type(enum element_type type, bool in_memory)
{
    switch (type) {
    case ELEMENT_UINT8:
        return H5Tcopy(in_memory ? H5T_NATIVE_UINT8 : H5T_STD_U8LE);
    case ELEMENT_UINT16:
        return H5Tcopy(in_memory ? H5T_NATIVE_UINT16 : H5T_STD_U16LE);
    case ELEMENT_INT64:
        return H5Tcopy(in_memory ? H5T_NATIVE_INT64 : H5T_STD_I64LE);
    case ELEMENT_FLOAT32:
        return H5Tcopy(in_memory ? H5T_NATIVE_FLOAT : H5T_IEEE_F32LE);
    case ELEMENT_FLOAT64:
        return H5Tcopy(in_memory ? H5T_NATIVE_DOUBLE : H5T_IEEE_F64LE);
    case ELEMENT_BOOL:
        return bool_type(in_memory ? H5T_NATIVE_SCHAR : H5T_STD_I8LE);
    }
    return -1;
}

static hid_t source_hdf5_type(const struct writer_source *source, bool in_memory)
{
    hid_t element = element_hdf5_type(source->type, in_memory);
    if (!source->variable_length || element < 0)
        return element;
    hid_t sequence = H5Tvlen_create(element);
    H5Tclose(element);
    return sequence;
}

static hid_t dataset_creation_properties(bool variable_length)
{
    hid_t properties = track_times_off(H5P_DATASET_CREATE);
    if (properties < 0)
        return -1;
    /* HDF5 refuses FILL_TIME_NEVER for vlen types; their default fill is never written anyway
       since no fill value is set and allocation is late. */
    if (H5Pset_layout(properties, H5D_CONTIGUOUS) < 0 ||
        H5Pset_alloc_time(properties, H5D_ALLOC_TIME_LATE) < 0 ||
        (!variable_length && H5Pset_fill_time(properties, H5D_FILL_TIME_NEVER) < 0)) {
        H5Pclose(properties);
        return -1;
    }
    return properties;
}

static hid_t create_dataset(hid_t file, const char *name, hid_t type, int rank,
                            const uint64_t *shape, bool variable_length)
{
    hsize_t dimensions[H5PY_MAX_RANK];
    for (int axis = 0; axis < rank; axis++)
        dimensions[axis] = shape[axis];
    hid_t space = H5Screate_simple(rank, dimensions, NULL);
    hid_t properties = dataset_creation_properties(variable_length);
    hid_t dataset = -1;
    if (space >= 0 && properties >= 0)
        dataset = H5Dcreate2(file, name, type, space, H5P_DEFAULT, properties, H5P_DEFAULT);
    H5Sclose(space);
    H5Pclose(properties);
    return dataset;
}

static int label_axes(hid_t dataset, int rank, const char *const *labels)
{
    for (int axis = 0; axis < rank; axis++)
        if (labels[axis] != NULL && H5DSset_label(dataset, (unsigned)axis, labels[axis]) < 0)
            return -1;
    return 0;
}

static size_t longest(const char *const *texts, size_t count)
{
    size_t length = 1;
    for (size_t index = 0; index < count; index++)
        if (texts[index] != NULL && strlen(texts[index]) > length)
            length = strlen(texts[index]);
    return length;
}

static hid_t fixed_string_type(size_t length)
{
    hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, length);
    H5Tset_strpad(type, H5T_STR_NULLPAD);
    return type;
}

/* NAME_vlen_axis_labels: one fixed string per axis of an example, made the `shape_labels` scale. */
static int create_shape_labels(hid_t file, const char *name,
                               const struct h5py_source_declaration *declared, hid_t dataset)
{
    char scale_name[1024];
    snprintf(scale_name, sizeof scale_name, "%s_vlen_axis_labels", name);
    size_t width = longest(declared->shape_labels, (size_t)declared->example_rank);
    size_t rows = (size_t)declared->example_rank;
    char *text = calloc(rows, width);
    if (text == NULL)
        return -1;
    for (size_t row = 0; row < rows; row++)
        if (declared->shape_labels[row] != NULL)
            memcpy(text + row * width, declared->shape_labels[row], strlen(declared->shape_labels[row]));
    hid_t type = fixed_string_type(width);
    uint64_t shape[1] = {rows};
    hid_t labels = create_dataset(file, scale_name, type, 1, shape, false);
    int result = -1;
    if (labels >= 0 && H5Dwrite(labels, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, text) >= 0 &&
        H5DSset_scale(labels, "shape_labels") >= 0 && H5DSattach_scale(dataset, labels, 0) >= 0)
        result = 0;
    H5Dclose(labels);
    H5Tclose(type);
    free(text);
    return result;
}

/* NAME_shapes (examples x example_rank, uint16), the `shapes` scale of dimension 0. */
static int create_shapes(hid_t file, struct writer_source *source)
{
    char scale_name[1024];
    snprintf(scale_name, sizeof scale_name, "%s_shapes", source->name);
    uint64_t shape[2] = {source->shape[0], (uint64_t)source->example_rank};
    source->shapes_dataset = create_dataset(file, scale_name, H5T_STD_U16LE, 2, shape, false);
    if (source->shapes_dataset < 0 || H5DSset_scale(source->shapes_dataset, "shapes") < 0 ||
        H5DSattach_scale(source->dataset, source->shapes_dataset, 0) < 0)
        return -1;
    return 0;
}

static int validate_source(const struct h5py_writer *writer,
                           const struct h5py_source_declaration *source)
{
    if (source->name == NULL || source->name[0] == '\0' || strchr(source->name, '/') != NULL ||
        strcmp(source->name, ".") == 0 || strlen(source->name) > 900)
        return error_set(EXIT_OTHER, "cannot write: %s: invalid source name", writer->path);
    for (size_t index = 0; index < writer->source_count; index++)
        if (strcmp(writer->sources[index].name, source->name) == 0)
            return error_set(EXIT_OTHER, "cannot write: %s: source %s declared twice",
                             writer->path, source->name);
    if (element_size(source->type) == 0)
        return error_set(EXIT_OTHER, "cannot write: %s: %s: unknown element type", writer->path,
                         source->name);
    if (source->rank < 1 || source->rank > H5PY_MAX_RANK)
        return error_set(EXIT_OTHER, "cannot write: %s: %s: rank %d not in 1..%d", writer->path,
                         source->name, source->rank, H5PY_MAX_RANK);
    if (source->variable_length &&
        (source->rank != 1 || source->example_rank < 1 || source->example_rank > H5PY_MAX_RANK))
        return error_set(EXIT_OTHER,
                         "cannot write: %s: %s: variable-length sources need rank 1 and an "
                         "example rank in 1..%d",
                         writer->path, source->name, H5PY_MAX_RANK);
    return EXIT_OK;
}

/* Bytes of one example of a fixed-shape source; false when that overflows. */
static bool fixed_row_bytes(const struct h5py_source_declaration *source, size_t *bytes)
{
    *bytes = element_size(source->type);
    for (int axis = 1; axis < source->rank; axis++) {
        if (source->shape[axis] != 0 && *bytes > SIZE_MAX / source->shape[axis])
            return false;
        *bytes *= source->shape[axis];
    }
    return true;
}

static int create_source_datasets(struct h5py_writer *writer, struct writer_source *source,
                                  const struct h5py_source_declaration *declared)
{
    hid_t file_type = source_hdf5_type(source, false);
    source->memory_type = source_hdf5_type(source, true);
    if (file_type < 0 || source->memory_type < 0) {
        if (file_type >= 0)
            H5Tclose(file_type);
        return hdf5_failure_report(writer->path, "cannot make a datatype");
    }
    source->dataset = create_dataset(writer->file, source->name, file_type, source->rank,
                                     source->shape, source->variable_length);
    H5Tclose(file_type);
    if (source->dataset < 0 || label_axes(source->dataset, source->rank, declared->axis_labels) < 0)
        return hdf5_failure_report(writer->path, source->name);
    if (source->variable_length &&
        (create_shapes(writer->file, source) < 0 ||
         create_shape_labels(writer->file, source->name, declared, source->dataset) < 0))
        return hdf5_failure_report(writer->path, source->name);
    return EXIT_OK;
}

int h5py_writer_add_source(struct h5py_writer *writer,
                           const struct h5py_source_declaration *declared, int *index)
{
    hdf5_failure_forget();
    int result = validate_source(writer, declared);
    if (result != EXIT_OK)
        return result;
    size_t row_bytes = 0;
    if (!declared->variable_length && !fixed_row_bytes(declared, &row_bytes))
        return error_set(EXIT_OTHER, "cannot write: %s: %s: shape too large", writer->path,
                         declared->name);
    struct writer_source *grown =
        realloc(writer->sources, (writer->source_count + 1) * sizeof *writer->sources);
    if (grown == NULL)
        return error_set(EXIT_OTHER, "cannot write: %s: out of memory", writer->path);
    writer->sources = grown;
    struct writer_source *source = &writer->sources[writer->source_count];
    *source = (struct writer_source){
        .type = declared->type,
        .rank = declared->rank,
        .variable_length = declared->variable_length,
        .example_rank = declared->example_rank,
        .row_bytes = row_bytes,
        .dataset = -1,
        .shapes_dataset = -1,
        .memory_type = -1,
    };
    memcpy(source->shape, declared->shape, sizeof source->shape);
    source->name = duplicate(declared->name);
    if (source->name == NULL)
        return EXIT_OTHER;
    writer->source_count++;
    result = create_source_datasets(writer, source, declared);
    if (result == EXIT_OK)
        *index = (int)(writer->source_count - 1);
    return result;
}

static int select_rows(hid_t dataset, uint64_t first, uint64_t count, hid_t *file_space,
                       hid_t *memory_space)
{
    *file_space = H5Dget_space(dataset);
    int rank = H5Sget_simple_extent_ndims(*file_space);
    hsize_t dimensions[H5PY_MAX_RANK];
    hsize_t start[H5PY_MAX_RANK] = {0};
    if (rank < 1 || H5Sget_simple_extent_dims(*file_space, dimensions, NULL) < 0)
        return -1;
    start[0] = first;
    dimensions[0] = count;
    *memory_space = H5Screate_simple(rank, dimensions, NULL);
    if (*memory_space < 0 ||
        H5Sselect_hyperslab(*file_space, H5S_SELECT_SET, start, NULL, dimensions, NULL) < 0)
        return -1;
    return 0;
}

static int write_rows(hid_t dataset, hid_t memory_type, uint64_t first, uint64_t count,
                      const void *data)
{
    if (count == 0)
        return 0;
    hid_t file_space = -1, memory_space = -1;
    int result = select_rows(dataset, first, count, &file_space, &memory_space);
    if (result == 0)
        result = H5Dwrite(dataset, memory_type, memory_space, file_space, H5P_DEFAULT, data) < 0
                     ? -1
                     : 0;
    H5Sclose(file_space);
    H5Sclose(memory_space);
    return result;
}

static int flush_variable(struct writer_source *source)
{
    struct pending_block *block = &source->block;
    hvl_t *sequences = malloc(block->count * sizeof *sequences);
    if (sequences == NULL)
        return -1;
    size_t offset = 0;
    size_t bytes_per_element = element_size(source->type);
    for (uint64_t row = 0; row < block->count; row++) {
        sequences[row].len = block->element_counts[row];
        sequences[row].p = block->data + offset;
        offset += block->element_counts[row] * bytes_per_element;
    }
    int result = write_rows(source->dataset, source->memory_type, block->first, block->count,
                            sequences);
    free(sequences);
    if (result == 0)
        result = write_rows(source->shapes_dataset, H5T_NATIVE_UINT16, block->first, block->count,
                            block->shapes);
    return result;
}

static int flush_block(struct h5py_writer *writer, struct writer_source *source)
{
    struct pending_block *block = &source->block;
    if (block->count == 0)
        return EXIT_OK;
    int result = source->variable_length
                     ? flush_variable(source)
                     : write_rows(source->dataset, source->memory_type, block->first,
                                  block->count, block->data);
    write_behind_note(&writer->behind, block->used);
    block->count = 0;
    block->used = 0;
    if (result < 0)
        return hdf5_failure_report(writer->path, source->name);
    return EXIT_OK;
}

static int find_source(const struct h5py_writer *writer, int index, struct writer_source **source)
{
    if (index < 0 || (size_t)index >= writer->source_count)
        return error_set(EXIT_OTHER, "cannot write: %s: no source number %d", writer->path, index);
    *source = &writer->sources[index];
    return EXIT_OK;
}

static int reserve(struct pending_block *block, size_t bytes)
{
    if (block->capacity - block->used >= bytes)
        return 0;
    size_t capacity = block->capacity == 0 ? BLOCK_BYTES : block->capacity;
    while (capacity - block->used < bytes) {
        if (capacity > SIZE_MAX / 2)
            return -1;
        capacity *= 2;
    }
    unsigned char *grown = realloc(block->data, capacity);
    if (grown == NULL)
        return -1;
    block->data = grown;
    block->capacity = capacity;
    return 0;
}

int h5py_writer_write(struct h5py_writer *writer, int index, uint64_t first, uint64_t count,
                      const void *data)
{
    hdf5_failure_forget();
    struct writer_source *source = NULL;
    int result = find_source(writer, index, &source);
    if (result != EXIT_OK)
        return result;
    if (source->variable_length)
        return error_set(EXIT_OTHER, "cannot write: %s: %s is variable-length", writer->path,
                         source->name);
    if (first > source->shape[0] || count > source->shape[0] - first)
        return error_set(EXIT_OTHER,
                         "cannot write: %s: %s: rows %llu..%llu outside 0..%llu", writer->path,
                         source->name, (unsigned long long)first,
                         (unsigned long long)(first + count), (unsigned long long)source->shape[0]);
    if (source->row_bytes != 0 && count > SIZE_MAX / source->row_bytes)
        return error_set(EXIT_OTHER, "cannot write: %s: %s: too many rows", writer->path,
                         source->name);
    size_t bytes = (size_t)count * source->row_bytes;
    struct pending_block *block = &source->block;
    bool follows = block->count > 0 && first == block->first + block->count;
    if (!follows || block->used + bytes > BLOCK_BYTES) {
        result = flush_block(writer, source);
        if (result != EXIT_OK)
            return result;
    }
    if (bytes >= BLOCK_BYTES / 2) {
        if (write_rows(source->dataset, source->memory_type, first, count, data) < 0)
            return hdf5_failure_report(writer->path, source->name);
        return EXIT_OK;
    }
    if (reserve(block, bytes) < 0)
        return error_set(EXIT_OTHER, "cannot write: %s: out of memory", writer->path);
    if (block->count == 0)
        block->first = first;
    if (bytes > 0)
        memcpy(block->data + block->used, data, bytes);
    block->used += bytes;
    block->count += count;
    return EXIT_OK;
}

static int reserve_examples(struct writer_source *source)
{
    struct pending_block *block = &source->block;
    if (block->element_counts != NULL)
        return 0;
    block->element_counts = malloc(BLOCK_EXAMPLES * sizeof *block->element_counts);
    block->shapes = malloc(BLOCK_EXAMPLES * (size_t)source->example_rank * sizeof *block->shapes);
    return block->element_counts == NULL || block->shapes == NULL ? -1 : 0;
}

int h5py_writer_write_variable(struct h5py_writer *writer, int index, uint64_t example,
                               const void *data, const uint16_t *shape)
{
    hdf5_failure_forget();
    struct writer_source *source = NULL;
    int result = find_source(writer, index, &source);
    if (result != EXIT_OK)
        return result;
    if (!source->variable_length)
        return error_set(EXIT_OTHER, "cannot write: %s: %s is not variable-length", writer->path,
                         source->name);
    if (example >= source->shape[0])
        return error_set(EXIT_OTHER, "cannot write: %s: %s: example %llu outside 0..%llu",
                         writer->path, source->name, (unsigned long long)example,
                         (unsigned long long)source->shape[0]);
    size_t elements = 1;
    for (int axis = 0; axis < source->example_rank; axis++)
        elements *= shape[axis]; /* at most 8 factors below 2^16: fits in 64 bits */
    size_t bytes = elements * element_size(source->type);
    struct pending_block *block = &source->block;
    bool follows = block->count > 0 && example == block->first + block->count;
    if (!follows || block->count == BLOCK_EXAMPLES || block->used + bytes > BLOCK_BYTES) {
        result = flush_block(writer, source);
        if (result != EXIT_OK)
            return result;
    }
    if (reserve_examples(source) < 0 || reserve(block, bytes) < 0)
        return error_set(EXIT_OTHER, "cannot write: %s: out of memory", writer->path);
    if (block->count == 0)
        block->first = example;
    if (bytes > 0)
        memcpy(block->data + block->used, data, bytes);
    memcpy(block->shapes + block->count * (size_t)source->example_rank, shape,
           (size_t)source->example_rank * sizeof *shape);
    block->element_counts[block->count] = elements;
    block->used += bytes;
    block->count++;
    return EXIT_OK;
}

static int split_number(struct h5py_writer *writer, const char *split, size_t *number)
{
    for (*number = 0; *number < writer->split_count; (*number)++)
        if (strcmp(writer->split_names[*number], split) == 0)
            return EXIT_OK;
    char **grown = realloc(writer->split_names, (writer->split_count + 1) * sizeof *grown);
    if (grown == NULL)
        return error_set(EXIT_OTHER, "cannot write: %s: out of memory", writer->path);
    writer->split_names = grown;
    grown[writer->split_count] = duplicate(split);
    if (grown[writer->split_count] == NULL)
        return EXIT_OTHER;
    writer->split_count++;
    return EXIT_OK;
}

static const struct split_declaration *find_declaration(const struct h5py_writer *writer,
                                                        size_t split, size_t source)
{
    for (size_t index = 0; index < writer->declaration_count; index++)
        if (writer->declarations[index].split == split &&
            writer->declarations[index].source == source)
            return &writer->declarations[index];
    return NULL;
}

static int declare_split(struct h5py_writer *writer, size_t split, size_t source, uint64_t start,
                         uint64_t stop)
{
    const struct writer_source *declared = &writer->sources[source];
    if (start > stop || stop > declared->shape[0])
        return error_set(EXIT_OTHER, "cannot write: %s: split %s of %s: %llu..%llu outside 0..%llu",
                         writer->path, writer->split_names[split], declared->name,
                         (unsigned long long)start, (unsigned long long)stop,
                         (unsigned long long)declared->shape[0]);
    if (find_declaration(writer, split, source) != NULL)
        return error_set(EXIT_OTHER, "cannot write: %s: split %s of %s declared twice",
                         writer->path, writer->split_names[split], declared->name);
    struct split_declaration *grown = realloc(
        writer->declarations, (writer->declaration_count + 1) * sizeof *writer->declarations);
    if (grown == NULL)
        return error_set(EXIT_OTHER, "cannot write: %s: out of memory", writer->path);
    writer->declarations = grown;
    grown[writer->declaration_count++] = (struct split_declaration){split, source, start, stop};
    return EXIT_OK;
}

int h5py_writer_add_split(struct h5py_writer *writer, const char *split, const char *source,
                          uint64_t start, uint64_t stop)
{
    if (split == NULL || split[0] == '\0')
        return error_set(EXIT_OTHER, "cannot write: %s: empty split name", writer->path);
    size_t named = writer->source_count;
    if (source != NULL) {
        for (named = 0; named < writer->source_count; named++)
            if (strcmp(writer->sources[named].name, source) == 0)
                break;
        if (named == writer->source_count)
            return error_set(EXIT_OTHER, "cannot write: %s: split %s names unknown source %s",
                             writer->path, split, source);
    }
    size_t number;
    int result = split_number(writer, split, &number);
    for (size_t index = 0; index < writer->source_count && result == EXIT_OK; index++)
        if (source == NULL || index == named)
            result = declare_split(writer, number, index, start, stop);
    return result;
}

/* The split compound packed as numpy packs it: split, source, start, stop, indices, available,
   comment. INTEGER and BOOLEAN_BASE choose the stored or the in-memory flavour. */
static hid_t split_type(size_t split_width, size_t source_width, hid_t integer, hid_t boolean_base)
{
    size_t offset_start = split_width + source_width;
    size_t offset_indices = offset_start + 16;
    size_t offset_available = offset_indices + sizeof(hobj_ref_t);
    size_t size = offset_available + 2;
    hid_t type = H5Tcreate(H5T_COMPOUND, size);
    hid_t split = fixed_string_type(split_width);
    hid_t source = fixed_string_type(source_width);
    hid_t comment = fixed_string_type(1);
    hid_t available = bool_type(boolean_base);
    H5Tinsert(type, "split", 0, split);
    H5Tinsert(type, "source", split_width, source);
    H5Tinsert(type, "start", offset_start, integer);
    H5Tinsert(type, "stop", offset_start + 8, integer);
    H5Tinsert(type, "indices", offset_indices, H5T_STD_REF_OBJ);
    H5Tinsert(type, "available", offset_available, available);
    H5Tinsert(type, "comment", offset_available + 1, comment);
    H5Tclose(split);
    H5Tclose(source);
    H5Tclose(comment);
    H5Tclose(available);
    return type;
}

static int compare_source_names(const void *left, const void *right)
{
    const struct writer_source *const *first = left;
    const struct writer_source *const *second = right;
    return strcmp((*first)->name, (*second)->name);
}

/* One packed row per (split, source): splits in declaration order, sources by name. */
static void fill_split_rows(const struct h5py_writer *writer, unsigned char *rows, size_t row_size,
                            size_t split_width, size_t source_width,
                            const struct writer_source **sorted)
{
    size_t offset_start = split_width + source_width;
    size_t offset_available = offset_start + 16 + sizeof(hobj_ref_t);
    unsigned char *row = rows;
    for (size_t split = 0; split < writer->split_count; split++) {
        for (size_t position = 0; position < writer->source_count; position++, row += row_size) {
            size_t source = (size_t)(sorted[position] - writer->sources);
            const struct split_declaration *declaration = find_declaration(writer, split, source);
            int64_t start = declaration != NULL ? (int64_t)declaration->start : 0;
            int64_t stop = declaration != NULL ? (int64_t)declaration->stop : 0;
            memcpy(row, writer->split_names[split], strlen(writer->split_names[split]));
            memcpy(row + split_width, sorted[position]->name, strlen(sorted[position]->name));
            memcpy(row + offset_start, &start, sizeof start);
            memcpy(row + offset_start + 8, &stop, sizeof stop);
            row[offset_available] = declaration != NULL;
            row[offset_available + 1] = '.';
        }
    }
}

/* The sources ordered by name, and the length of the longest name (at least 1). */
static const struct writer_source **sources_by_name(const struct h5py_writer *writer,
                                                     size_t *longest_name)
{
    const struct writer_source **sorted = malloc((writer->source_count + 1) * sizeof *sorted);
    *longest_name = 1;
    for (size_t index = 0; sorted != NULL && index < writer->source_count; index++) {
        sorted[index] = &writer->sources[index];
        if (strlen(sorted[index]->name) > *longest_name)
            *longest_name = strlen(sorted[index]->name);
    }
    if (sorted != NULL)
        qsort(sorted, writer->source_count, sizeof *sorted, compare_source_names);
    return sorted;
}

static int write_attribute_rows(struct h5py_writer *writer, const char *name, hid_t file_type,
                                hid_t memory_type, hsize_t row_count, const void *rows)
{
    hid_t space = H5Screate_simple(1, &row_count, NULL);
    hid_t attribute = space >= 0 ? H5Acreate2(writer->file, name, file_type, space, H5P_DEFAULT,
                                              H5P_DEFAULT)
                                 : -1;
    int result = EXIT_OK;
    if (attribute < 0 || H5Awrite(attribute, memory_type, rows) < 0)
        result = hdf5_failure_report(writer->path, name);
    if (attribute >= 0)
        H5Aclose(attribute);
    if (space >= 0)
        H5Sclose(space);
    return result;
}

static int write_split_attribute(struct h5py_writer *writer)
{
    size_t split_width = longest((const char *const *)writer->split_names, writer->split_count);
    size_t source_width;
    const struct writer_source **sorted = sources_by_name(writer, &source_width);
    hid_t memory_type = split_type(split_width, source_width, H5T_NATIVE_INT64, H5T_NATIVE_SCHAR);
    hid_t file_type = split_type(split_width, source_width, H5T_STD_I64LE, H5T_STD_I8LE);
    size_t row_size = H5Tget_size(memory_type);
    hsize_t row_count = writer->split_count * writer->source_count;
    unsigned char *rows = calloc(row_count + 1, row_size);
    int result;
    if (sorted == NULL || rows == NULL) {
        result = error_set(EXIT_OTHER, "cannot write: %s: out of memory", writer->path);
    } else {
        fill_split_rows(writer, rows, row_size, split_width, source_width, sorted);
        result = write_attribute_rows(writer, "split", file_type, memory_type, row_count, rows);
    }
    free(rows);
    free(sorted);
    H5Tclose(memory_type);
    H5Tclose(file_type);
    return result;
}

/* A scalar variable-length ASCII string attribute, as h5py writes a Python string. */
static int write_string_attribute(struct h5py_writer *writer, const char *name, const char *value)
{
    hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, H5T_VARIABLE);
    H5Tset_cset(type, H5T_CSET_ASCII);
    hid_t space = H5Screate(H5S_SCALAR);
    hid_t attribute = H5Acreate2(writer->file, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
    int result = EXIT_OK;
    if (attribute < 0 || H5Awrite(attribute, type, &value) < 0)
        result = hdf5_failure_report(writer->path, name);
    H5Aclose(attribute);
    H5Sclose(space);
    H5Tclose(type);
    return result;
}

static int write_root_attributes(struct h5py_writer *writer, const struct h5py_attributes *values)
{
    int result = write_split_attribute(writer);
    if (result == EXIT_OK)
        result = write_string_attribute(writer, "h5py_interface_version", "0.3");
    if (result == EXIT_OK)
        result = write_string_attribute(writer, "fuel_convert_version",
                                        values->version != NULL ? values->version : "");
    if (result == EXIT_OK)
        result = write_string_attribute(writer, "fuel_convert_command",
                                        values->command != NULL ? values->command : "");
    if (result == EXIT_OK && values->provenance_json != NULL)
        result = write_string_attribute(writer, "fuel_provenance", values->provenance_json);
    return result;
}

static int close_source(struct writer_source *source)
{
    int failed = 0;
    if (source->shapes_dataset >= 0)
        failed |= H5Dclose(source->shapes_dataset) < 0;
    if (source->dataset >= 0)
        failed |= H5Dclose(source->dataset) < 0;
    if (source->memory_type >= 0)
        H5Tclose(source->memory_type);
    free(source->name);
    free(source->block.data);
    free(source->block.element_counts);
    free(source->block.shapes);
    return failed ? -1 : 0;
}

/* Closes every object, then the file; -1 when HDF5 could not flush something. */
static int close_writer(struct h5py_writer *writer)
{
    int failed = 0;
    for (size_t index = 0; index < writer->source_count; index++)
        failed |= close_source(&writer->sources[index]);
    if (writer->file >= 0)
        failed |= H5Fclose(writer->file) < 0;
    for (size_t index = 0; index < writer->split_count; index++)
        free(writer->split_names[index]);
    free(writer->split_names);
    free(writer->declarations);
    free(writer->sources);
    return failed ? -1 : 0;
}

int h5py_writer_finish(struct h5py_writer *writer, const struct h5py_attributes *attributes)
{
    hdf5_failure_forget();
    static const struct h5py_attributes none = {NULL, NULL, NULL};
    if (attributes == NULL)
        attributes = &none;
    int result = EXIT_OK;
    for (size_t index = 0; index < writer->source_count && result == EXIT_OK; index++)
        result = flush_block(writer, &writer->sources[index]);
    if (result == EXIT_OK)
        result = write_root_attributes(writer, attributes);
    if (close_writer(writer) < 0 && result == EXIT_OK)
        result = hdf5_failure_report(writer->path, "cannot close the file");
    free(writer->path);
    free(writer);
    return result;
}

void h5py_writer_discard(struct h5py_writer *writer)
{
    if (writer == NULL)
        return;
    close_writer(writer);
    free(writer->path);
    free(writer);
}
