/* An h5py writer's file: created, given a dataset per source, finished with the root attributes. */
#include "h5py_writer.h"

#include "common/base/error.h"
#include "h5py_writer_state.h"

#include <hdf5_hl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* A transfer list whose conversion buffer is BYTES: H5Dwrite zeroes it twice on every call. */
static hid_t conversion_transfer(size_t bytes)
{
    hid_t transfer = H5Pcreate(H5P_DATASET_XFER);
    if (transfer >= 0 && H5Pset_buffer(transfer, bytes, NULL, NULL) < 0) {
        H5Pclose(transfer);
        transfer = -1;
    }
    return transfer >= 0 ? transfer : H5P_DEFAULT;
}

/* Creates WRITER's file at its path: EXIT_OK, or the error, with nothing to close. */
static int writer_open(struct h5py_writer *writer)
{
    writer->file = create_file(writer->path);
    if (writer->file < 0)
        return hdf5_failure_report(writer->path, "cannot create the file");
    hdf5_write_behind_start(&writer->behind, writer->file);
    writer->behind.allocate_ahead = true;
    writer->transfer = conversion_transfer(TRANSFER_BLOCK_BYTES);
    writer->transfer_one = conversion_transfer(TRANSFER_ONE_BYTES);
    return EXIT_OK;
}

int h5py_writer_create(struct h5py_writer **writer, const char *path)
{
    hdf5_failure_watch();
    *writer = calloc(1, sizeof **writer);
    if (*writer == NULL)
        return error_set(EXIT_OTHER, "cannot write: %s: out of memory", path);
    (*writer)->path = duplicate(path);
    int result = (*writer)->path != NULL ? writer_open(*writer) : EXIT_OTHER;
    if (result != EXIT_OK) {
        free((*writer)->path);
        free(*writer);
        *writer = NULL;
    }
    return result;
}

static hid_t source_hdf5_type(const struct writer_source *source, bool in_memory)
{
    hid_t element = h5py_element_type(source->type, source->element_bytes, in_memory);
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

/* NAME_vlen_axis_labels (or the name declared): one fixed string per axis of an example, made
   the `shape_labels` scale. */
static int create_shape_labels(hid_t file, const char *name,
                               const struct h5py_source_declaration *declared, hid_t dataset)
{
    char scale_name[1024];
    if (declared->shape_labels_dataset != NULL)
        snprintf(scale_name, sizeof scale_name, "%s", declared->shape_labels_dataset);
    else
        snprintf(scale_name, sizeof scale_name, "%s_vlen_axis_labels", name);
    size_t width = h5py_longest_text(declared->shape_labels, (size_t)declared->example_rank);
    size_t rows = (size_t)declared->example_rank;
    char *text = calloc(rows, width);
    if (text == NULL)
        return -1;
    for (size_t row = 0; row < rows; row++)
        if (declared->shape_labels[row] != NULL)
            memcpy(text + row * width, declared->shape_labels[row], strlen(declared->shape_labels[row]));
    hid_t type = h5py_fixed_string_type(width);
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

/* NAME_shapes (examples x example_rank, uint16 or int32), the `shapes` scale of dimension 0. */
static int create_shapes(hid_t file, struct writer_source *source, bool int32_shapes)
{
    char scale_name[1024];
    snprintf(scale_name, sizeof scale_name, "%s_shapes", source->name);
    uint64_t shape[2] = {source->shape[0], (uint64_t)source->example_rank};
    source->shapes_dataset = create_dataset(file, scale_name,
                                            int32_shapes ? H5T_STD_I32LE : H5T_STD_U16LE, 2, shape,
                                            false);
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
    if (element_size(source->type) == 0 &&
        (source->type != ELEMENT_STRING || source->string_length == 0))
        return error_set(EXIT_OTHER, "cannot write: %s: %s: unknown element type", writer->path,
                         source->name);
    if (source->rank < 1 || source->rank > H5PY_MAX_RANK)
        return error_set(EXIT_OTHER, "cannot write: %s: %s: rank %d not in 1..%d", writer->path,
                         source->name, source->rank, H5PY_MAX_RANK);
    if (source->variable_length && source->auxiliary)
        return error_set(EXIT_OTHER, "cannot write: %s: %s: an auxiliary dataset has fixed shape",
                         writer->path, source->name);
    if (source->variable_length &&
        (source->rank != 1 || source->example_rank < 0 || source->example_rank > H5PY_MAX_RANK))
        return error_set(EXIT_OTHER,
                         "cannot write: %s: %s: variable-length sources need rank 1 and an "
                         "example rank in 0..%d",
                         writer->path, source->name, H5PY_MAX_RANK);
    return EXIT_OK;
}

/* Bytes of one example of a fixed-shape source; false when that overflows. */
static bool fixed_row_bytes(const struct h5py_source_declaration *source, size_t *bytes)
{
    *bytes = source->type == ELEMENT_STRING ? source->string_length : element_size(source->type);
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
    if (source->variable_length && source->example_rank > 0 &&
        (create_shapes(writer->file, source, declared->int32_shapes) < 0 ||
         create_shape_labels(writer->file, source->name, declared, source->dataset) < 0))
        return hdf5_failure_report(writer->path, source->name);
    return EXIT_OK;
}

const char *h5py_writer_path(const struct h5py_writer *writer)
{
    return writer->path;
}

bool h5py_writer_has_source(const struct h5py_writer *writer, const char *name)
{
    for (size_t index = 0; index < writer->source_count; index++)
        if (strcmp(writer->sources[index].name, name) == 0)
            return true;
    return false;
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
        .element_bytes = declared->type == ELEMENT_STRING ? declared->string_length
                                                          : element_size(declared->type),
        .rank = declared->rank,
        .variable_length = declared->variable_length,
        .example_rank = declared->example_rank,
        .int32_shapes = declared->int32_shapes,
        .auxiliary = declared->auxiliary,
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
    int result = h5py_writer_write_splits(writer);
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
    if (result == EXIT_OK && values->card_json != NULL)
        result = write_string_attribute(writer, "fuel_card", values->card_json);
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
    if (writer->transfer != H5P_DEFAULT)
        H5Pclose(writer->transfer);
    if (writer->transfer_one != H5P_DEFAULT)
        H5Pclose(writer->transfer_one);
    if (writer->file >= 0)
        failed |= H5Fclose(writer->file) < 0;
    if (writer->behind.started && writer->path != NULL)
        write_behind_release(writer->path);
    for (size_t index = 0; index < writer->split_count; index++)
        free(writer->split_names[index]);
    for (size_t index = 0; index < writer->declaration_count; index++)
        free(writer->declarations[index].comment);
    free(writer->split_names);
    free(writer->declarations);
    free(writer->sources);
    return failed ? -1 : 0;
}

int h5py_writer_finish(struct h5py_writer *writer, const struct h5py_attributes *attributes)
{
    hdf5_failure_forget();
    static const struct h5py_attributes none = {NULL, NULL, NULL, NULL};
    if (attributes == NULL)
        attributes = &none;
    int result = EXIT_OK;
    for (size_t index = 0; index < writer->source_count && result == EXIT_OK; index++)
        result = h5py_writer_flush(writer, &writer->sources[index]);
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

int h5py_writer_restart(struct h5py_writer *writer)
{
    if (close_writer(writer) < 0)
        return hdf5_failure_report(writer->path, "cannot close the file");
    char *path = writer->path;
    *writer = (struct h5py_writer){.path = path};
    return writer_open(writer);
}
