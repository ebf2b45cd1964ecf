/* Reads a .npy file's examples with pread: C order in blocks, Fortran order one run of the first
   axis at a time scattered into place, big-endian elements swapped. */
#include "npy_file.h"
#include "common/base/input_file.h"

#include "common/base/error.h"
#include "element_convert.h"
#include "input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int read_at(int descriptor, void *buffer, size_t size, uint64_t offset, size_t *got)
{
    *got = 0;
    while (*got < size) {
        ssize_t part = input_file_pread(descriptor, (unsigned char *)buffer + *got, size - *got,
                             (off_t)(offset + *got));
        if (part < 0 && errno == EINTR)
            continue;
        if (part <= 0)
            return part < 0 ? -1 : 0;
        *got += (size_t)part;
    }
    return 0;
}

static int header_read(struct npy_file *file, uint64_t file_size)
{
    unsigned char preamble[NPY_PREAMBLE_MAX];
    size_t got, length;
    if (read_at(file->descriptor, preamble, sizeof preamble, 0, &got) < 0)
        return error_set(EXIT_CORRUPT_INPUT, "cannot read .npy header: %s: %s", file->path,
                         strerror(errno));
    int result = npy_header_length(preamble, got, file->path, &length);
    if (result != EXIT_OK)
        return result;
    unsigned char *header = malloc(length);
    if (header == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    if (read_at(file->descriptor, header, length, 0, &got) < 0 || got < length)
        result = error_set(EXIT_CORRUPT_INPUT, "cannot read .npy header: %s: truncated header",
                           file->path);
    else
        result = npy_header_parse(header, length, file->path, &file->array);
    free(header);
    if (result != EXIT_OK)
        return result;
    if (file->array.data_bytes > file_size - length)
        return error_set(EXIT_CORRUPT_INPUT,
                         "truncated array: %s: the header declares %llu bytes of data, %llu "
                         "follow it", file->path, (unsigned long long)file->array.data_bytes,
                         (unsigned long long)(file_size - length));
    return EXIT_OK;
}

int npy_file_open_descriptor(struct npy_file *file, int descriptor, const char *path)
{
    *file = (struct npy_file){.descriptor = descriptor, .path = path};
    struct stat status;
    if (fstat(descriptor, &status) < 0 || !S_ISREG(status.st_mode))
        return error_set(EXIT_MISSING_INPUT, "not a file: %s", path);
    int result = header_read(file, (uint64_t)status.st_size);
    if (result != EXIT_OK)
        return result;
    if (file->array.rank == 0)
        return error_set(EXIT_CORRUPT_INPUT, "cannot read .npy: %s: a 0-d array has no examples",
                         path);
    if (!input_npy_type(file->array.kind, file->array.item_size, &file->type))
        return error_set(EXIT_CORRUPT_INPUT, "cannot read .npy: %s: unsupported dtype", path);
    file->example_elements = 1;
    for (int axis = 1; axis < file->array.rank; axis++) {
        uint64_t side = file->array.shape[axis];
        if (side != 0 && file->example_elements > UINT64_MAX / 8 / side)
            return error_set(EXIT_CORRUPT_INPUT, "cannot read .npy: %s: the example shape "
                             "overflows 64 bits", path);
        file->example_elements *= side;
    }
    posix_fadvise(descriptor, 0, 0, POSIX_FADV_SEQUENTIAL);
    return EXIT_OK;
}

int npy_file_open(struct npy_file *file, const char *path)
{
    int descriptor = input_file_open(path, NULL);
    if (descriptor < 0) {
        *file = (struct npy_file){.descriptor = -1, .path = path};
        return error_code();
    }
    return npy_file_open_descriptor(file, descriptor, path);
}

static int shrank(const struct npy_file *file)
{
    return error_set(EXIT_CORRUPT_INPUT, "truncated array: %s: the file ends before its data "
                     "does", file->path);
}

/* The position, in a C-order example, of the element the Fortran-order run COLUMN holds: the
   axes past the first, the second varying fastest in COLUMN, the last in the example. */
static uint64_t c_position(const struct npy_array *array, uint64_t column)
{
    uint64_t position = 0, stride = 1;
    uint64_t strides[NPY_MAX_RANK];
    for (int axis = array->rank - 1; axis >= 1; axis--) {
        strides[axis] = stride;
        stride *= array->shape[axis];
    }
    for (int axis = 1; axis < array->rank; axis++) {
        position += (column % array->shape[axis]) * strides[axis];
        column /= array->shape[axis];
    }
    return position;
}

static int read_fortran(struct npy_file *file, uint64_t first, uint64_t count,
                        unsigned char *output)
{
    const struct npy_array *array = &file->array;
    size_t item = array->item_size, run = (size_t)count * item;
    if (run > file->column_capacity) {
        unsigned char *grown = realloc(file->column, run);
        if (grown == NULL)
            return error_set(EXIT_OTHER, "out of memory");
        file->column = grown;
        file->column_capacity = run;
    }
    for (uint64_t column = 0; column < file->example_elements; column++) {
        uint64_t offset = array->header_length + (column * array->shape[0] + first) * item;
        size_t got;
        if (read_at(file->descriptor, file->column, run, offset, &got) < 0 || got < run)
            return shrank(file);
        uint64_t position = c_position(array, column);
        for (uint64_t example = 0; example < count; example++)
            memcpy(output + (example * file->example_elements + position) * item,
                   file->column + example * item, item);
    }
    return EXIT_OK;
}

int npy_file_read(struct npy_file *file, uint64_t first, uint64_t count, void *output)
{
    const struct npy_array *array = &file->array;
    size_t bytes = (size_t)(count * file->example_elements * array->item_size);
    int result = EXIT_OK;
    if (array->fortran_order && array->rank > 1) {
        result = read_fortran(file, first, count, output);
    } else {
        uint64_t offset =
            array->header_length + first * file->example_elements * array->item_size;
        size_t got;
        if (read_at(file->descriptor, output, bytes, offset, &got) < 0 || got < bytes)
            result = shrank(file);
    }
    if (result == EXIT_OK && array->big_endian && array->item_size > 1)
        element_swap(output, array->item_size, bytes / array->item_size);
    return result;
}

void npy_file_close(struct npy_file *file)
{
    if (file->descriptor >= 0)
        input_file_close(file->descriptor);
    free(file->column);
    file->descriptor = -1;
    file->column = NULL;
}
