/* libFuzzer target: fuel-info's split-array reader and fuel-info --check, the content digest and
   the content diff. The input describes a `split` attribute (its field types and raw rows); the
   harness writes it with libhdf5 into a small file that also holds sources, an indices dataset
   and a group for references to point at, then reads and checks it, digests it and compares it
   with itself, which must be the same content. */
#include "diff/content_diff.h"
#include "info/content_digest.h"
#include "common/h5py/h5py_check.h"
#include "common/h5py/h5py_reader.h"

#include <hdf5.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

#define FIELDS 7
static const char *const field_names[FIELDS] = {"split", "source", "start", "stop",
                                                "indices", "available", "comment"};

struct input {
    const unsigned char *data;
    size_t size;
};

static unsigned take(struct input *input)
{
    if (input->size == 0)
        return 0;
    input->size--;
    return *input->data++;
}

static hid_t enum_bool(void)
{
    hid_t type = H5Tenum_create(H5T_NATIVE_INT8);
    signed char no = 0, yes = 1;
    H5Tenum_insert(type, "FALSE", &no);
    H5Tenum_insert(type, "TRUE", &yes);
    return type;
}

/* The file type of one field, chosen by SELECTOR: mostly what Fuel writes, sometimes not. */
static hid_t field_type(int field, unsigned selector)
{
    hid_t type;
    switch (field) {
    case 0: case 1: case 6:
        type = H5Tcopy(H5T_C_S1);
        H5Tset_size(type, selector % 4 == 1 ? H5T_VARIABLE : 1 + selector / 4 % 16);
        if (selector % 4 == 2)
            H5Tset_strpad(type, H5T_STR_SPACEPAD);
        if (selector % 4 == 3)
            H5Tset_strpad(type, H5T_STR_NULLTERM);
        return type;
    case 2: case 3: {
        const hid_t choices[] = {H5T_NATIVE_INT64, H5T_NATIVE_INT8, H5T_NATIVE_UINT64,
                                 H5T_NATIVE_INT32, H5T_NATIVE_DOUBLE};
        return H5Tcopy(choices[selector % 5]);
    }
    case 4:
        return H5Tcopy(selector % 4 == 3 ? H5T_NATIVE_INT64 : H5T_STD_REF_OBJ);
    default:
        if (selector % 4 == 0)
            return enum_bool();
        return H5Tcopy(selector % 4 == 1 ? H5T_NATIVE_UINT8
                       : selector % 4 == 2 ? H5T_NATIVE_INT64 : H5T_NATIVE_FLOAT);
    }
}

static void make_objects(hid_t file, hobj_ref_t references[4])
{
    hsize_t shape[2] = {10, 2};
    hid_t space = H5Screate_simple(2, shape, NULL);
    hid_t features = H5Dcreate2(file, "features", H5T_NATIVE_UINT8, space, H5P_DEFAULT,
                                H5P_DEFAULT, H5P_DEFAULT);
    hid_t targets = H5Dcreate2(file, "targets", H5T_NATIVE_UINT8, space, H5P_DEFAULT,
                               H5P_DEFAULT, H5P_DEFAULT);
    H5Sclose(space);
    hsize_t length = 3;
    space = H5Screate_simple(1, &length, NULL);
    hid_t indices = H5Dcreate2(file, "indices", H5T_NATIVE_INT64, space, H5P_DEFAULT,
                               H5P_DEFAULT, H5P_DEFAULT);
    H5Sclose(space);
    hid_t group = H5Gcreate2(file, "group", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    memset(references, 0, 4 * sizeof *references);
    H5Rcreate(&references[1], file, "indices", H5R_OBJECT, -1);
    H5Rcreate(&references[2], file, "features", H5R_OBJECT, -1);
    H5Rcreate(&references[3], file, "group", H5R_OBJECT, -1);
    H5Dclose(features);
    H5Dclose(targets);
    H5Dclose(indices);
    H5Gclose(group);
}

/* Fills one row's field from the input: raw bytes, a string, or a reference index. */
static void fill_field(struct input *input, hid_t type, unsigned char *place,
                       const hobj_ref_t references[4], char **strings, size_t *string_count)
{
    size_t size = H5Tget_size(type);
    if (H5Tget_class(type) == H5T_REFERENCE) {
        memcpy(place, &references[take(input) % 4], sizeof(hobj_ref_t));
    } else if (H5Tis_variable_str(type) > 0) {
        size_t length = take(input) % 24;
        char *text = calloc(1, length + 1);
        for (size_t index = 0; index < length; index++)
            text[index] = (char)take(input);
        strings[(*string_count)++] = text;
        memcpy(place, &text, sizeof text);
    } else {
        for (size_t index = 0; index < size; index++)
            place[index] = (unsigned char)take(input);
    }
}

static void write_split(hid_t file, struct input *input)
{
    size_t rows = take(input) % 12 + 1;
    unsigned omitted = take(input);
    hid_t types[FIELDS];
    size_t offsets[FIELDS], row_size = 0;
    for (int field = 0; field < FIELDS; field++) {
        types[field] = field_type(field, take(input));
        offsets[field] = row_size;
        row_size += H5Tget_size(types[field]);
    }
    hid_t compound = H5Tcreate(H5T_COMPOUND, row_size);
    for (int field = 0; field < FIELDS; field++)
        if (omitted % 8 != (unsigned)field + 1 || omitted < 128)
            H5Tinsert(compound, field_names[field], offsets[field], types[field]);
    hobj_ref_t references[4];
    make_objects(file, references);
    unsigned char *buffer = calloc(rows, row_size);
    char *strings[12 * 3];
    size_t string_count = 0;
    for (size_t row = 0; row < rows; row++)
        for (int field = 0; field < FIELDS; field++)
            fill_field(input, types[field], buffer + row * row_size + offsets[field],
                       references, strings, &string_count);
    hsize_t length = rows;
    hid_t space = H5Screate_simple(1, &length, NULL);
    hid_t attribute = H5Acreate2(file, "split", compound, space, H5P_DEFAULT, H5P_DEFAULT);
    if (attribute >= 0) {
        H5Awrite(attribute, compound, buffer);
        H5Aclose(attribute);
    }
    H5Sclose(space);
    for (size_t index = 0; index < string_count; index++)
        free(strings[index]);
    free(buffer);
    H5Tclose(compound);
    for (int field = 0; field < FIELDS; field++)
        H5Tclose(types[field]);
}

static char path[4096];

static void remove_file(void)
{
    unlink(path);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    if (path[0] == '\0') {
        const char *directory = getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp";
        snprintf(path, sizeof path, "%s/fuel-fuzz-split-%d.hdf5", directory, (int)getpid());
        atexit(remove_file);
        H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    }
    struct input input = {data, size};
    hid_t file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (file < 0)
        abort();
    write_split(file, &input);
    H5Fclose(file);
    struct h5py_file *read;
    if (h5py_reader_open(&read, path) == 0) {
        uint64_t total = 0;
        for (size_t index = 0; index < read->row_count; index++)
            total += h5py_split_row_count(&read->rows[index]) + strlen(read->rows[index].split) +
                     strlen(read->rows[index].source) + strlen(read->rows[index].comment);
        for (size_t index = 0; index < read->split_count; index++)
            total += strlen(read->splits[index]);
        struct h5py_violations violations = {0};
        if (h5py_check(read, &violations) == 0)
            for (size_t index = 0; index < violations.count; index++)
                total += strlen(violations.lines[index]);
        h5py_violations_free(&violations);
        struct content_digest digest;
        if (content_digest_compute(read, &digest) == 0)
            total += strlen(digest.sha256);
        content_digest_free(&digest);
        struct content_diff_report report;
        if (content_diff_compare(read, read, NULL, &report) == 0 && !content_diff_same(&report))
            abort();
        content_diff_free(&report);
        h5py_reader_close(read);
        return total == UINT64_MAX;
    }
    return 0;
}
