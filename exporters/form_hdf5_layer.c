/* The hdf5-layer form (Caffe's HDF5Data, Mocha's HDF5DataLayer): files of float `data` and `label`
   (N x 1), contiguous and uncompressed, at most --examples-per-file each, and a list of them. */
#include "common/base/disk_space.h"
#include "common/base/error.h"
#include "common/h5py/h5py_tag.h"
#include "common/h5py/hdf5_failure.h"
#include "common/h5py/hdf5_write_behind.h"
#include "export_form.h"

#include <hdf5.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Caffe refuses datasets of more than INT_MAX elements; keep files under 2 GiB as well. */
#define LAYER_MAX_FILE_BYTES ((uint64_t)2 << 30)

struct layer_part {
    hid_t file, data, label, float_type;
    struct write_behind behind;
    char path[4800];  /* staged */
    char shown[4800]; /* DIRECTORY/NAME, in messages */
    uint64_t first; /* the split's first example in this file */
    uint64_t count;
};

static int layer_failed(const struct layer_part *part, const char *what)
{
    return hdf5_failure_report(part->shown, what);
}

static uint64_t layer_examples_per_file(const struct export_job *job, size_t float_size)
{
    if (job->request->examples_per_file > 0)
        return job->request->examples_per_file;
    uint64_t elements = job->data->example_elements ? job->data->example_elements : 1;
    uint64_t by_count = INT_MAX / elements;
    uint64_t by_bytes = LAYER_MAX_FILE_BYTES / (elements * float_size);
    uint64_t examples = by_count < by_bytes ? by_count : by_bytes;
    return examples ? examples : 1;
}

static hid_t layer_dataset(hid_t file, const char *name, hid_t type, int rank,
                           const hsize_t *dimensions)
{
    hid_t space = H5Screate_simple(rank, dimensions, NULL);
    hid_t properties = H5Pcreate(H5P_DATASET_CREATE);
    hid_t dataset = -1;
    if (space >= 0 && properties >= 0 && H5Pset_obj_track_times(properties, false) >= 0 &&
        H5Pset_layout(properties, H5D_CONTIGUOUS) >= 0 &&
        H5Pset_fill_time(properties, H5D_FILL_TIME_NEVER) >= 0)
        dataset = H5Dcreate2(file, name, type, space, H5P_DEFAULT, properties, H5P_DEFAULT);
    if (properties >= 0)
        H5Pclose(properties);
    if (space >= 0)
        H5Sclose(space);
    return dataset;
}

static int layer_create(struct export_job *job, struct layer_part *part)
{
    hdf5_failure_watch();
    hid_t creation = H5Pcreate(H5P_FILE_CREATE);
    if (creation >= 0 && H5Pset_obj_track_times(creation, false) >= 0)
        part->file = H5Fcreate(part->path, H5F_ACC_TRUNC, creation, H5P_DEFAULT);
    if (creation >= 0)
        H5Pclose(creation);
    if (part->file < 0)
        return layer_failed(part, "HDF5 cannot create it");
    hdf5_write_behind_start(&part->behind, part->file);
    const struct h5py_examples *fixed = &job->data->fixed;
    hsize_t dimensions[H5PY_EXAMPLES_MAX_RANK] = {part->count};
    for (int axis = 1; axis < fixed->rank; axis++)
        dimensions[axis] = fixed->shape[axis];
    part->data = layer_dataset(part->file, "data", part->float_type, fixed->rank, dimensions);
    hsize_t label_dimensions[2] = {part->count, 1};
    if (job->label != NULL)
        part->label = layer_dataset(part->file, "label", part->float_type, 2, label_dimensions);
    if (part->data < 0 || (job->label != NULL && part->label < 0))
        return layer_failed(part, "HDF5 cannot create its datasets");
    return EXIT_OK;
}

/* Writes the SIZE examples at BUFFER to rows [ROW, ROW + SIZE) of DATASET. */
static int layer_rows_write(const struct layer_part *part, hid_t dataset, uint64_t row,
                            uint64_t size, const void *buffer)
{
    hid_t file_space = H5Dget_space(dataset);
    int rank = file_space >= 0 ? H5Sget_simple_extent_ndims(file_space) : -1;
    hsize_t dimensions[H5S_MAX_RANK], start[H5S_MAX_RANK] = {row};
    herr_t status = rank > 0 ? H5Sget_simple_extent_dims(file_space, dimensions, NULL) : -1;
    dimensions[0] = size;
    hid_t memory_space = status >= 0 ? H5Screate_simple(rank, dimensions, NULL) : -1;
    if (memory_space >= 0)
        status = H5Sselect_hyperslab(file_space, H5S_SELECT_SET, start, NULL, dimensions, NULL);
    if (memory_space < 0 || status < 0 ||
        H5Dwrite(dataset, part->float_type, memory_space, file_space, H5P_DEFAULT, buffer) < 0)
        status = -1;
    if (memory_space >= 0)
        H5Sclose(memory_space);
    if (file_space >= 0)
        H5Sclose(file_space);
    return status < 0 ? layer_failed(part, "HDF5 refused the examples") : EXIT_OK;
}

static int layer_blocks_write(struct export_job *job, struct layer_part *part, size_t float_size,
                              uint64_t total)
{
    const struct example_source *data = job->data;
    size_t out_bytes = data->example_elements * float_size;
    size_t larger = out_bytes > data->fixed.example_bytes ? out_bytes : data->fixed.example_bytes;
    uint64_t block = export_block_examples(larger);
    unsigned char *raw = malloc(block * data->fixed.example_bytes + 1);
    unsigned char *converted = malloc(block * out_bytes + 1);
    double *labels = malloc(block * sizeof *labels);
    void *label_floats = malloc(block * float_size);
    int result = raw && converted && labels && label_floats ? EXIT_OK
                 : error_set(EXIT_OTHER, "out of memory");
    bool twice = float_size == 8;
    for (uint64_t row = 0; result == EXIT_OK && row < part->count; row += block) {
        uint64_t size = part->count - row < block ? part->count - row : block;
        result = example_source_read(data, part->first + row, size, raw);
        if (result == EXIT_OK) {
            elements_to_float(raw, data->type, size * data->example_elements, job->request->scale,
                              twice, converted);
            result = layer_rows_write(part, part->data, row, size, converted);
            write_behind_note(&part->behind, size * out_bytes);
        }
        if (result == EXIT_OK && job->label != NULL)
            result = export_labels_read(job, part->first + row, size, labels);
        if (result == EXIT_OK && job->label != NULL) {
            struct numeric_type as_double = {'f', 8};
            elements_to_float(labels, as_double, size, 1.0, twice, label_floats);
            result = layer_rows_write(part, part->label, row, size, label_floats);
        }
        export_progress(job, part->first + row + size, total);
    }
    free(raw);
    free(converted);
    free(labels);
    free(label_floats);
    return result;
}

static int layer_part_write(struct export_job *job, struct layer_part *part, size_t float_size,
                            uint64_t total)
{
    int result = layer_create(job, part);
    if (result == EXIT_OK)
        result = layer_blocks_write(job, part, float_size, total);
    if (part->label >= 0)
        H5Dclose(part->label);
    if (part->data >= 0)
        H5Dclose(part->data);
    if (part->file >= 0 && H5Fclose(part->file) < 0 && result == EXIT_OK)
        result = layer_failed(part, "HDF5 cannot close it");
    return result;
}

/* NAME_SPLIT.h5 for one file; NAME_SPLIT_K.h5 (K zero-padded to sort) for several. */
static void layer_part_name(const struct export_job *job, uint64_t part, uint64_t parts,
                            char *name, size_t size)
{
    int digits = snprintf(NULL, 0, "%llu", (unsigned long long)(parts - 1));
    if (parts == 1)
        snprintf(name, size, "%s.h5", job->stem);
    else
        snprintf(name, size, "%s_%0*llu.h5", job->stem, digits, (unsigned long long)part);
}

static size_t layer_float_size(const struct export_job *job)
{
    return job->request->dtype && strcmp(job->request->dtype, "float64") == 0 ? 8 : 4;
}

/* The split's files, PER_FILE examples each. */
static uint64_t layer_parts(const struct export_job *job, uint64_t *per_file)
{
    uint64_t total = job->data->selection.count;
    *per_file = layer_examples_per_file(job, layer_float_size(job));
    return total == 0 ? 1 : (total + *per_file - 1) / *per_file;
}

static int layer_write(struct export_job *job)
{
    size_t float_size = layer_float_size(job);
    uint64_t total = job->data->selection.count, per_file;
    uint64_t parts = layer_parts(job, &per_file);
    char absolute[4096];
    const char *published = job->request->published_directory;
    if (published != NULL)
        snprintf(absolute, sizeof absolute, "%.*s", (int)strcspn(published, "\n"), published);
    else if (realpath(job->request->directory, absolute) == NULL)
        return error_set(EXIT_WRITE, "cannot write: %s: no such directory", job->request->directory);
    size_t trimmed = strlen(absolute);
    while (trimmed > 1 && absolute[trimmed - 1] == '/')
        absolute[--trimmed] = '\0';
    size_t list_size = (size_t)parts * (strlen(absolute) + 600) + 1, length = 0;
    char *list = malloc(list_size);
    int result = list ? EXIT_OK : error_set(EXIT_OTHER, "out of memory");
    for (uint64_t index = 0; result == EXIT_OK && index < parts; index++) {
        char name[600];
        layer_part_name(job, index, parts, name, sizeof name);
        struct layer_part part = {.file = -1, .data = -1, .label = -1, .first = index * per_file,
                                  .float_type = float_size == 8 ? H5T_IEEE_F64LE : H5T_IEEE_F32LE};
        part.count = total - part.first < per_file ? total - part.first : per_file;
        snprintf(part.shown, sizeof part.shown, "%s/%s", job->request->directory, name);
        result = export_set_path(job->set, name, part.path, sizeof part.path);
        if (result == EXIT_OK)
            result = layer_part_write(job, &part, float_size, total);
        length += (size_t)snprintf(list + length, list_size - length, "%s/%s\n", absolute, name);
    }
    snprintf(job->main_file, sizeof job->main_file, "%s.txt", job->stem);
    if (result == EXIT_OK)
        result = export_text_write(job, job->main_file, list, length);
    free(list);
    return result;
}

/* The listing: each staged file's fuel_provenance, then the list (staged already) names them. */
static int layer_listing(struct export_job *job)
{
    char *text = export_provenance_text(job->provenance, job->split, job->data->name, NULL, NULL);
    if (text == NULL)
        return error_code();
    uint64_t per_file, parts = layer_parts(job, &per_file);
    int result = EXIT_OK;
    for (uint64_t index = 0; result == EXIT_OK && index < parts; index++) {
        char name[600];
        struct layer_part part = {.file = -1};
        layer_part_name(job, index, parts, name, sizeof name);
        snprintf(part.path, sizeof part.path, "%s/%s", job->set->staging.path, name);
        snprintf(part.shown, sizeof part.shown, "%s/%s", job->request->directory, name);
        hdf5_failure_watch();
        part.file = H5Fopen(part.path, H5F_ACC_RDWR, H5P_DEFAULT);
        result = part.file >= 0 ? h5py_string_attribute_set(part.file, part.path,
                                                            "fuel_provenance", text)
                                : layer_failed(&part, "HDF5 cannot open it again");
        if (part.file >= 0 && H5Fclose(part.file) < 0 && result == EXIT_OK)
            result = layer_failed(&part, "HDF5 cannot close it");
    }
    free(text);
    return result;
}

/* The floats of data and label, without HDF5's own bytes. */
static void layer_need(const struct export_job *job, uint64_t *bytes, uint64_t *largest)
{
    size_t float_size = layer_float_size(job);
    uint64_t total = job->data->selection.count;
    uint64_t per_file = layer_examples_per_file(job, float_size);
    uint64_t example = disk_space_product(
        disk_space_sum(job->data->example_elements, job->label != NULL ? 1 : 0), float_size);
    *bytes = disk_space_product(total, example);
    *largest = disk_space_product(total < per_file ? total : per_file, example);
}

const struct export_form export_form_hdf5_layer = {
    .name = "hdf5-layer", .write = layer_write, .need = layer_need, .listing = layer_listing};
