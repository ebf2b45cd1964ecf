/* Reads MATLAB 7.3 MAT-files (HDF5 behind a 512-byte user block) held in memory, with libhdf5:
   struct arrays stored as a vector of object references, and their numeric and char fields. */
#include "matlab73_read.h"
#include "common/base/input_file.h"

#include "common/base/error.h"
#include "common/formats/hdf5_object_header.h"

#include <hdf5.h>
#include <hdf5_hl.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Type conversion (references are converted even to their own type) uses a buffer HDF5 would
   otherwise calloc at 1 MiB per read; SVHN's files take millions of tiny reads. */
enum { CONVERSION_BUFFER_BYTES = 4096 };

/* HDF5's adaptive metadata cache counts entries by their size on disk, but a decoded object header
   takes many times that in memory: reading a 20,000-struct file grew it by 500 MB. Each object of
   a digitStruct.mat is read once, so a cache miss costs a decode, not a second one: a 256 KiB
   cache (some 10 MB decoded) reads as fast as 1 MiB did (25 MB). */
enum { METADATA_CACHE_BYTES = 1 << 18 };

struct matlab73 {
    hid_t file;
    hid_t transfer;
    size_t size;
    const unsigned char *image; /* the file's bytes when opened from memory, else NULL */
    int descriptor;             /* the file when opened by path (for raw reads), else 0 or -1 */
    struct hdf5_layout layout;  /* for checking object headers before libhdf5 loads them */
    unsigned char window[4096]; /* the last block read for those checks, from window_offset */
    uint64_t window_offset;
    size_t window_size;
    char *name;
    H5E_auto2_t saved_error_handler;
    void *saved_error_data;
};

struct matlab73_vector {
    struct matlab73 *file;
    char *path;
    hobj_ref_t *elements;
    uint64_t length;
    hobj_ref_t *cell; /* scratch for the references of one cell field */
    size_t cell_capacity;
};

static int corrupt(const struct matlab73 *file, const char *where, const char *why)
{
    return error_set(EXIT_CORRUPT_INPUT, "cannot read MATLAB 7.3 file: %s: %s: %s", file->name,
                     where, why);
}

static int out_of_memory(const struct matlab73 *file)
{
    return error_set(EXIT_OTHER, "cannot read MATLAB 7.3 file: %s: out of memory", file->name);
}

static herr_t fix_metadata_cache(hid_t file)
{
    H5AC_cache_config_t config = {.version = H5AC__CURR_CACHE_CONFIG_VERSION};
    if (H5Fget_mdc_config(file, &config) < 0)
        return -1;
    config.set_initial_size = true;
    config.initial_size = METADATA_CACHE_BYTES;
    config.min_size = METADATA_CACHE_BYTES;
    config.max_size = METADATA_CACHE_BYTES;
    config.incr_mode = H5C_incr__off;
    config.flash_incr_mode = H5C_flash_incr__off;
    config.decr_mode = H5C_decr__off;
    return H5Fset_mdc_config(file, &config);
}

/* A handle named NAME of SIZE bytes with the error handler silenced and its transfer properties;
   NULL with error_set on failure. */
static struct matlab73 *handle_create(size_t size, const char *name)
{
    struct matlab73 *opened = calloc(1, sizeof *opened);
    if (opened == NULL || (opened->name = strdup(name)) == NULL) {
        free(opened);
        error_set(EXIT_OTHER, "cannot read MATLAB 7.3 file: %s: out of memory", name);
        return NULL;
    }
    opened->size = size;
    opened->file = -1;
    /* libhdf5 keeps freed objects on free lists of up to 40 MB (its defaults) for reuse; the
       millions of small objects of a digitStruct.mat filled them. A few hundred KiB reuse as
       well. The limits are the process's: they bound the writer's lists too. */
    H5set_free_list_limits(1 << 18, 1 << 16, 1 << 18, 1 << 16, 1 << 20, 1 << 18);
    H5Eget_auto2(H5E_DEFAULT, &opened->saved_error_handler, &opened->saved_error_data);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    opened->transfer = H5Pcreate(H5P_DATASET_XFER);
    if (opened->transfer < 0 ||
        H5Pset_buffer(opened->transfer, CONVERSION_BUFFER_BYTES, NULL, NULL) < 0) {
        matlab73_close(opened);
        error_set(EXIT_OTHER, "cannot read MATLAB 7.3 file: %s: no transfer properties", name);
        return NULL;
    }
    return opened;
}

static bool read_raw(void *source, uint64_t offset, void *buffer, size_t size)
{
    struct matlab73 *file = source;
    if (offset > file->size || size > file->size - offset)
        return false;
    if (file->image != NULL) {
        memcpy(buffer, file->image + offset, size);
        return true;
    }
    if (size > sizeof file->window)
        return pread(file->descriptor, buffer, size, (off_t)offset) == (ssize_t)size;
    /* A header's messages are read a few bytes at a time: one read of the block around them. */
    if (offset < file->window_offset || offset + size > file->window_offset + file->window_size) {
        ssize_t count = pread(file->descriptor, file->window, sizeof file->window, (off_t)offset);
        file->window_offset = offset;
        file->window_size = count > 0 ? (size_t)count : 0;
        if (size > file->window_size)
            return false;
    }
    memcpy(buffer, file->window + (offset - file->window_offset), size);
    return true;
}

/* Where addresses count from and how wide they are, from the file's creation properties. */
static herr_t learn_layout(struct matlab73 *file)
{
    hid_t creation = H5Fget_create_plist(file->file);
    size_t offset_size = 0, length_size = 0;
    hsize_t user_block = 0;
    herr_t status = creation >= 0 && H5Pget_sizes(creation, &offset_size, &length_size) >= 0 &&
                            H5Pget_userblock(creation, &user_block) >= 0
                        ? 0
                        : -1;
    if (creation >= 0)
        H5Pclose(creation);
    file->layout = (struct hdf5_layout){user_block, file->size, (unsigned)offset_size,
                                        (unsigned)length_size, read_raw, file};
    return status;
}

/* Takes OPENED's file just opened (or failed to), sizes its cache and hands it out. */
static int handle_finish(struct matlab73 *opened, struct matlab73 **file)
{
    if (opened->file < 0) {
        int code = corrupt(opened, "file", "not an HDF5 file (MATLAB 7.3 format)");
        matlab73_close(opened);
        return code;
    }
    if (fix_metadata_cache(opened->file) < 0 || learn_layout(opened) < 0) {
        int code = error_set(EXIT_OTHER, "cannot read MATLAB 7.3 file: %s: cannot size the cache",
                             opened->name);
        matlab73_close(opened);
        return code;
    }
    /* The root group's header was read when the file was opened; its local heap is not yet. */
    H5O_info_t root;
    const char *why = H5Oget_info2(opened->file, &root, H5O_INFO_BASIC) < 0
                          ? "no root group"
                          : hdf5_object_header_check(&opened->layout, root.addr);
    if (why != NULL) {
        int code = corrupt(opened, "/", why);
        matlab73_close(opened);
        return code;
    }
    *file = opened;
    return EXIT_OK;
}

int matlab73_open(struct matlab73 **file, void *image, size_t size, const char *name)
{
    struct matlab73 *opened = handle_create(size, name);
    if (opened == NULL)
        return error_code();
    opened->image = image;
    /* HDF5 finds the superblock behind MATLAB's 512-byte header by itself: it looks at offsets
       0, 512, 1024, ... as for any file with a user block. */
    opened->file = H5LTopen_file_image(image, size,
                                       H5LT_FILE_IMAGE_DONT_COPY | H5LT_FILE_IMAGE_DONT_RELEASE);
    return handle_finish(opened, file);
}

int matlab73_open_file(struct matlab73 **file, const char *path, const char *name)
{
    struct stat status;
    int descriptor = input_file_open(path, &status);
    if (descriptor < 0 && error_code() == EXIT_CORRUPT_INPUT)
        return error_code();
    if (descriptor < 0)
        return error_set(EXIT_MISSING_INPUT, "cannot read MATLAB 7.3 file: %s: %s", name,
                         strerror(errno));
    struct matlab73 *opened = handle_create((size_t)status.st_size, name);
    if (opened == NULL) {
        close(descriptor);
        return error_code();
    }
    opened->descriptor = descriptor;
    opened->file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    return handle_finish(opened, file);
}

void matlab73_close(struct matlab73 *file)
{
    if (file == NULL)
        return;
    if (file->file >= 0)
        H5Fclose(file->file);
    if (file->transfer > 0)
        H5Pclose(file->transfer);
    if (file->descriptor > 0)
        close(file->descriptor);
    H5Eset_auto2(H5E_DEFAULT, file->saved_error_handler, file->saved_error_data);
    free(file->name);
    free(file);
}

/* The number of elements of DATASET's simple dataspace, or -1 when it is not a vector. */
static int64_t vector_elements(hid_t dataset)
{
    hid_t space = H5Dget_space(dataset);
    if (space < 0)
        return -1;
    hsize_t dimensions[2];
    int rank = H5Sget_simple_extent_ndims(space);
    int64_t elements = -1;
    if (rank >= 1 && rank <= 2 && H5Sget_simple_extent_dims(space, dimensions, NULL) == rank &&
        (rank == 1 || dimensions[0] == 1 || dimensions[1] == 1))
        elements = (int64_t)H5Sget_simple_extent_npoints(space);
    H5Sclose(space);
    return elements;
}

static bool is_object_reference(hid_t dataset)
{
    hid_t type = H5Dget_type(dataset);
    bool reference = type >= 0 && H5Tequal(type, H5T_STD_REF_OBJ) > 0;
    if (type >= 0)
        H5Tclose(type);
    return reference;
}

static bool is_numeric(hid_t dataset, size_t *element_size)
{
    hid_t type = H5Dget_type(dataset);
    if (type < 0)
        return false;
    H5T_class_t class = H5Tget_class(type);
    *element_size = H5Tget_size(type);
    H5Tclose(type);
    return (class == H5T_INTEGER || class == H5T_FLOAT) && *element_size > 0;
}

/* HDF5 1.10 reads a compact dataset from the bytes its layout message holds without checking
   that they cover the dataspace: a forged file made it copy from NULL. Checked before reading. */
static bool stored_data_covers(hid_t dataset, int64_t elements)
{
    hid_t type = H5Dget_type(dataset);
    size_t element_size = type >= 0 ? H5Tget_size(type) : 0;
    if (type >= 0)
        H5Tclose(type);
    /* Storage that holds them all settles it without the creation properties, which cost a
       property list copy per read (SVHN reads hundreds of thousands of one-number cells). */
    if (element_size > 0 && H5Dget_storage_size(dataset) / element_size >= (uint64_t)elements)
        return true;
    hid_t properties = H5Dget_create_plist(dataset);
    H5D_layout_t layout = properties >= 0 ? H5Pget_layout(properties) : H5D_LAYOUT_ERROR;
    if (properties >= 0)
        H5Pclose(properties);
    return layout != H5D_COMPACT && layout != H5D_LAYOUT_ERROR;
}

/* Reads the ELEMENTS references of DATASET into BUFFER, checking first that the file can hold
   them, so a forged dataspace cannot make us allocate more than the file's size. */
static int read_references(struct matlab73 *file, hid_t dataset, int64_t elements,
                           hobj_ref_t **buffer, size_t *capacity, const char *where)
{
    if ((uint64_t)elements > file->size / sizeof(hobj_ref_t))
        return corrupt(file, where, "declares more references than the file holds");
    if (!stored_data_covers(dataset, elements))
        return corrupt(file, where, "stored data shorter than its dimensions");
    if ((size_t)elements > *capacity) {
        hobj_ref_t *grown = realloc(*buffer, (size_t)elements * sizeof **buffer);
        if (grown == NULL)
            return out_of_memory(file);
        *buffer = grown;
        *capacity = (size_t)elements;
    }
    if (elements > 0 &&
        H5Dread(dataset, H5T_STD_REF_OBJ, H5S_ALL, H5S_ALL, file->transfer, *buffer) < 0)
        return corrupt(file, where, "unreadable object references");
    return EXIT_OK;
}

/* The address of the object that link NAME of LOCATION names, checked before libhdf5 loads it;
   MISSING when there is no such hard link. */
static int check_link(struct matlab73 *file, hid_t location, const char *name, const char *where,
                      const char *missing, haddr_t *address)
{
    H5L_info_t information;
    if (H5Lget_info(location, name, &information, H5P_DEFAULT) < 0 ||
        information.type != H5L_TYPE_HARD)
        return corrupt(file, where, missing);
    const char *why = hdf5_object_header_check(&file->layout, information.u.address);
    *address = information.u.address;
    return why != NULL ? corrupt(file, where, why) : EXIT_OK;
}

/* Each group on PATH, then PATH itself, checked in turn before libhdf5 goes through it. */
static int check_path(struct matlab73 *file, const char *path)
{
    char prefix[256];
    int code = EXIT_OK;
    for (size_t length = 1; code == EXIT_OK && length <= strlen(path); length++) {
        if (path[length] != '/' && path[length] != '\0')
            continue;
        if (length >= sizeof prefix)
            return corrupt(file, path, "path too long");
        memcpy(prefix, path, length);
        prefix[length] = '\0';
        haddr_t address;
        code = check_link(file, file->file, prefix, path, "no such dataset", &address);
    }
    return code;
}

int matlab73_vector_open(struct matlab73 *file, const char *path, struct matlab73_vector **vector)
{
    struct matlab73_vector *opened = calloc(1, sizeof *opened);
    if (opened == NULL || (opened->path = strdup(path)) == NULL) {
        free(opened);
        return out_of_memory(file);
    }
    opened->file = file;
    int code = check_path(file, path);
    hid_t dataset = code == EXIT_OK ? H5Dopen2(file->file, path, H5P_DEFAULT) : -1;
    int64_t elements = dataset >= 0 ? vector_elements(dataset) : -1;
    size_t capacity = 0;
    if (code != EXIT_OK)
        ;
    else if (dataset < 0)
        code = corrupt(file, path, "no such dataset");
    else if (elements < 0 || !is_object_reference(dataset))
        code = corrupt(file, path, "not a vector of object references");
    else
        code = read_references(file, dataset, elements, &opened->elements, &capacity, path);
    if (dataset >= 0)
        H5Dclose(dataset);
    if (code != EXIT_OK) {
        matlab73_vector_close(opened);
        return code;
    }
    opened->length = (uint64_t)elements;
    *vector = opened;
    return EXIT_OK;
}

uint64_t matlab73_vector_length(const struct matlab73_vector *vector)
{
    return vector->length;
}

void matlab73_vector_close(struct matlab73_vector *vector)
{
    if (vector == NULL)
        return;
    free(vector->path);
    free(vector->elements);
    free(vector->cell);
    free(vector);
}

void matlab73_numbers_free(struct matlab73_numbers *numbers)
{
    free(numbers->values);
    *numbers = (struct matlab73_numbers){0};
}

/* Opens what REFERENCE points to, which must be an object of TYPE. */
static int dereference(struct matlab73 *file, const hobj_ref_t *reference, H5I_type_t type,
                       const char *where, hid_t *object)
{
    const char *why = hdf5_object_header_check(&file->layout, *reference);
    if (why != NULL) {
        *object = -1;
        return corrupt(file, where, why == hdf5_no_object_header ? "dangling object reference" : why);
    }
    *object = H5Rdereference2(file->file, H5P_DEFAULT, H5R_OBJECT, reference);
    if (*object < 0)
        return corrupt(file, where, "dangling object reference");
    if (H5Iget_type(*object) != type) {
        H5Oclose(*object);
        *object = -1;
        return corrupt(file, where,
                       type == H5I_GROUP ? "reference to something other than a struct"
                                         : "reference to something other than a dataset");
    }
    return EXIT_OK;
}

static int reserve_numbers(struct matlab73 *file, struct matlab73_numbers *numbers, size_t count)
{
    if (count <= numbers->capacity)
        return EXIT_OK;
    double *grown = realloc(numbers->values, count * sizeof *grown);
    if (grown == NULL)
        return out_of_memory(file);
    numbers->values = grown;
    numbers->capacity = count;
    return EXIT_OK;
}

static int read_inline_numbers(struct matlab73 *file, hid_t dataset, int64_t elements,
                               size_t element_size, struct matlab73_numbers *numbers,
                               const char *where)
{
    if ((uint64_t)elements > file->size / element_size)
        return corrupt(file, where, "declares more numbers than the file holds");
    if (!stored_data_covers(dataset, elements))
        return corrupt(file, where, "stored data shorter than its dimensions");
    int code = reserve_numbers(file, numbers, (size_t)elements);
    if (code != EXIT_OK)
        return code;
    if (elements > 0 &&
        H5Dread(dataset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, file->transfer,
                numbers->values) < 0)
        return corrupt(file, where, "unreadable numbers");
    numbers->count = (size_t)elements;
    return EXIT_OK;
}

static int read_one_number(struct matlab73 *file, const hobj_ref_t *reference, double *value,
                           const char *where)
{
    hid_t dataset;
    int code = dereference(file, reference, H5I_DATASET, where, &dataset);
    if (code != EXIT_OK)
        return code;
    size_t element_size;
    if (vector_elements(dataset) != 1 || !is_numeric(dataset, &element_size))
        code = corrupt(file, where, "cell element is not a single number");
    else if (!stored_data_covers(dataset, 1))
        code = corrupt(file, where, "stored data shorter than its dimensions");
    else if (H5Dread(dataset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, file->transfer, value) < 0)
        code = corrupt(file, where, "unreadable number");
    H5Dclose(dataset);
    return code;
}

static int read_cell_numbers(struct matlab73_vector *vector, hid_t dataset, int64_t elements,
                             struct matlab73_numbers *numbers, const char *where)
{
    struct matlab73 *file = vector->file;
    int code = read_references(file, dataset, elements, &vector->cell, &vector->cell_capacity,
                               where);
    if (code == EXIT_OK)
        code = reserve_numbers(file, numbers, (size_t)elements);
    for (int64_t element = 0; code == EXIT_OK && element < elements; element++)
        code = read_one_number(file, &vector->cell[element], &numbers->values[element], where);
    if (code == EXIT_OK)
        numbers->count = (size_t)elements;
    return code;
}

static void describe_element(const struct matlab73_vector *vector, uint64_t index,
                             const char *field, char *where, size_t size)
{
    /* MATLAB's own notation: one-based index */
    if (field != NULL)
        snprintf(where, size, "%s(%" PRIu64 ").%s", vector->path, index + 1, field);
    else
        snprintf(where, size, "%s(%" PRIu64 ")", vector->path, index + 1);
}

static int read_field(struct matlab73_vector *vector, hid_t group, const char *field,
                      struct matlab73_numbers *numbers, const char *where)
{
    struct matlab73 *file = vector->file;
    haddr_t address;
    int code = check_link(file, group, field, where, "no such field", &address);
    if (code != EXIT_OK)
        return code;
    /* Opened by the address just checked: a second lookup of the name would cost as much. */
    hid_t dataset = H5Oopen_by_addr(group, address);
    if (dataset >= 0 && H5Iget_type(dataset) != H5I_DATASET) {
        H5Oclose(dataset);
        dataset = -1;
    }
    if (dataset < 0)
        return corrupt(file, where, "field is not a dataset");
    int64_t elements = vector_elements(dataset);
    size_t element_size;
    if (elements < 0)
        code = corrupt(file, where, "field is not a vector");
    else if (is_object_reference(dataset))
        code = read_cell_numbers(vector, dataset, elements, numbers, where);
    else if (is_numeric(dataset, &element_size))
        code = read_inline_numbers(file, dataset, elements, element_size, numbers, where);
    else
        code = corrupt(file, where, "field holds neither numbers nor references");
    H5Dclose(dataset);
    return code;
}

int matlab73_vector_fields(struct matlab73_vector *vector, uint64_t index,
                           const char *const *fields, size_t count,
                           struct matlab73_numbers *numbers)
{
    char where[256];
    describe_element(vector, index, count > 0 ? fields[0] : NULL, where, sizeof where);
    for (size_t field = 0; field < count; field++)
        numbers[field].count = 0;
    if (index >= vector->length)
        return corrupt(vector->file, where, "no such element");
    hid_t group = -1;
    int code = dereference(vector->file, &vector->elements[index], H5I_GROUP, where, &group);
    for (size_t field = 0; code == EXIT_OK && field < count; field++) {
        describe_element(vector, index, fields[field], where, sizeof where);
        code = read_field(vector, group, fields[field], &numbers[field], where);
    }
    if (group >= 0)
        H5Gclose(group);
    return code;
}

int matlab73_vector_numbers(struct matlab73_vector *vector, uint64_t index, const char *field,
                            struct matlab73_numbers *numbers)
{
    return matlab73_vector_fields(vector, index, &field, 1, numbers);
}

static int read_characters(struct matlab73 *file, hid_t dataset, char *text, size_t size,
                           const char *where)
{
    int64_t elements = vector_elements(dataset);
    size_t element_size;
    if (elements < 0 || !is_numeric(dataset, &element_size))
        return corrupt(file, where, "not a char array");
    if ((uint64_t)elements >= size)
        return corrupt(file, where, "text too long");
    if (!stored_data_covers(dataset, elements))
        return corrupt(file, where, "stored data shorter than its dimensions");
    uint16_t *units = calloc((size_t)elements + 1, sizeof *units);
    if (units == NULL)
        return out_of_memory(file);
    int code = EXIT_OK;
    if (elements > 0 &&
        H5Dread(dataset, H5T_NATIVE_UINT16, H5S_ALL, H5S_ALL, file->transfer, units) < 0)
        code = corrupt(file, where, "unreadable char array");
    for (int64_t unit = 0; code == EXIT_OK && unit < elements; unit++) {
        if (units[unit] == 0 || units[unit] > 127)
            code = corrupt(file, where, "text is not ASCII");
        text[unit] = (char)units[unit];
    }
    text[code == EXIT_OK ? elements : 0] = '\0';
    free(units);
    return code;
}

int matlab73_vector_text(struct matlab73_vector *vector, uint64_t index, char *text, size_t size)
{
    char where[256];
    describe_element(vector, index, NULL, where, sizeof where);
    if (size > 0)
        text[0] = '\0';
    if (index >= vector->length)
        return corrupt(vector->file, where, "no such element");
    hid_t dataset;
    int code = dereference(vector->file, &vector->elements[index], H5I_DATASET, where, &dataset);
    if (code != EXIT_OK)
        return code;
    code = read_characters(vector->file, dataset, text, size, where);
    H5Dclose(dataset);
    return code;
}
