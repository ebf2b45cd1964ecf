/* Runs of stored byte strings read into our own buffers: straight from the file
   (h5py_vlen_direct) or with one H5Dread each. */
#include "stored_bytes.h"

#include "common/base/error.h"

#include <stdlib.h>

/* The examples' buffers are ours: HDF5 allocates them with malloc and we free them. */
static void *bytes_allocate(size_t size, void *context)
{
    (void)context;
    return malloc(size ? size : 1);
}

static void bytes_free(void *pointer, void *context)
{
    (void)context;
    free(pointer);
}

int stored_bytes_open(struct stored_bytes *reader)
{
    *reader = (struct stored_bytes){0};
    reader->transfer = H5Pcreate(H5P_DATASET_XFER);
    /* HDF5 zeroes its conversion buffer (1 MiB by default) on every read: a run of vlen elements
       needs 16 bytes each. */
    if (reader->transfer < 0 ||
        H5Pset_vlen_mem_manager(reader->transfer, bytes_allocate, NULL, bytes_free, NULL) < 0 ||
        H5Pset_buffer(reader->transfer, 64 << 10, NULL, NULL) < 0) {
        stored_bytes_close(reader);
        return error_set(EXIT_OTHER, "cannot read stored examples: HDF5 transfer list");
    }
    return EXIT_OK;
}

void stored_bytes_close(struct stored_bytes *reader)
{
    if (reader->transfer >= 0)
        H5Pclose(reader->transfer);
    reader->transfer = -1;
}

/* How many of INDICES[0..COUNT) follow INDICES[0] one by one. */
static size_t run_length(const uint64_t *indices, size_t count)
{
    size_t length = 1;
    while (length < count && indices[length] == indices[0] + length)
        length++;
    return length;
}

/* Reads rows [FIRST, FIRST + COUNT) of DATASET (one column, or a 1-D dataset when COLUMNS is 0)
   with MEMORY_TYPE into BUFFER. */
static herr_t rows_read(hid_t dataset, hid_t memory_type, hid_t transfer, uint64_t first,
                        size_t count, int columns, void *buffer)
{
    hid_t space = H5Dget_space(dataset);
    hsize_t start[2] = {first, 0}, size[2] = {count, 1}, length = count;
    hid_t memory = H5Screate_simple(1, &length, NULL);
    herr_t status = space < 0 || memory < 0 ? -1
                    : H5Sselect_hyperslab(space, H5S_SELECT_SET, start, NULL,
                                          columns ? size : &length, NULL);
    if (status >= 0)
        status = H5Dread(dataset, memory_type, memory, space, transfer, buffer);
    if (memory >= 0)
        H5Sclose(memory);
    if (space >= 0)
        H5Sclose(space);
    return status;
}

int stored_bytes_sizes(const struct stored_bytes *reader, const struct h5py_vlen_examples *source,
                       const uint64_t *indices, size_t count, uint64_t *sizes)
{
    for (size_t done = 0; done < count;) {
        size_t length = run_length(indices + done, count - done);
        if (indices[done] + length > source->count ||
            rows_read(source->shapes, H5T_NATIVE_UINT64, reader->transfer, indices[done], length, 1,
                      sizes + done) < 0)
            return error_set(EXIT_CORRUPT_INPUT, "cannot read source %s: unreadable shapes",
                             source->source);
        for (size_t index = done; index < done + length; index++)
            if (sizes[index] > H5PY_VLEN_MAX_BYTES)
                return error_set(EXIT_CORRUPT_INPUT, "cannot read source %s: an example larger "
                                 "than 64 MiB", source->source);
        done += length;
    }
    return EXIT_OK;
}

static int run_read(const struct stored_bytes *reader, const struct h5py_vlen_examples *source,
                    uint64_t first, size_t length, const uint64_t *sizes, void **data,
                    hvl_t *elements)
{
    herr_t status = rows_read(source->dataset, source->memory_type, reader->transfer, first,
                              length, 0, elements);
    int result = status < 0 ? error_set(EXIT_CORRUPT_INPUT, "cannot read source %s: HDF5 read "
                                        "failed", source->source) : EXIT_OK;
    for (size_t index = 0; status >= 0 && index < length; index++) {
        data[index] = elements[index].p;
        if (elements[index].len != sizes[index] && result == EXIT_OK)
            result = error_set(EXIT_CORRUPT_INPUT, "cannot read source %s: example %llu holds "
                               "%zu bytes, its shape says %llu", source->source,
                               (unsigned long long)(first + index), elements[index].len,
                               (unsigned long long)sizes[index]);
    }
    return result;
}

int stored_bytes_read(struct stored_bytes *reader, const struct h5py_vlen_examples *source,
                      const uint64_t *indices, size_t count, const uint64_t *sizes, void **data)
{
    hvl_t *elements = calloc(count ? count : 1, sizeof *elements);
    if (elements == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    int result = EXIT_OK;
    for (size_t done = 0; result == EXIT_OK && done < count;) {
        size_t length = run_length(indices + done, count - done);
        if (indices[done] + length <= source->count &&
            h5py_vlen_direct_read_run(&source->direct, indices[done], length, sizes + done,
                                      data + done))
            reader->direct_examples += length;
        else
            result = run_read(reader, source, indices[done], length, sizes + done, data + done,
                              elements);
        done += length;
    }
    free(elements);
    return result;
}
