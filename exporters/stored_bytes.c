/* Runs of stored byte strings read into our own buffers: straight from the file (the heap IDs,
   then each object's bytes) or with one H5Dread each. */
#include "stored_bytes.h"

#include "common/base/error.h"
#include "common/h5py/global_heap.h"

#include <stdbool.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

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
    *reader = (struct stored_bytes){.dataset = -1, .descriptor = -1};
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

/* Whether DATASET's elements are bytes whose heap IDs lie in one unfiltered block of a file of
   8-byte offsets and lengths without a user block (h5py's defaults), open with the sec2 driver:
   *DESCRIPTOR is then HDF5's own descriptor of the file. */
static bool direct_layout(hid_t dataset, int *descriptor)
{
    hid_t properties = H5Dget_create_plist(dataset), stored = H5Dget_type(dataset);
    hid_t base = stored >= 0 ? H5Tget_super(stored) : -1, file = H5Iget_file_id(dataset);
    hid_t creation = file >= 0 ? H5Fget_create_plist(file) : -1;
    hid_t access = file >= 0 ? H5Fget_access_plist(file) : -1;
    size_t offsets = 0, lengths = 0;
    hsize_t user_block = 1;
    int *handle = NULL;
    bool direct = properties >= 0 && base >= 0 && creation >= 0 && access >= 0 &&
                  H5Pget_layout(properties) == H5D_CONTIGUOUS && H5Pget_nfilters(properties) == 0 &&
                  H5Pget_external_count(properties) == 0 && H5Tget_class(stored) == H5T_VLEN &&
                  H5Tget_size(base) == 1 && H5Pget_sizes(creation, &offsets, &lengths) >= 0 &&
                  offsets == 8 && lengths == 8 && H5Pget_userblock(creation, &user_block) >= 0 &&
                  user_block == 0 && H5Pget_driver(access) == H5FD_SEC2 &&
                  H5Fget_vfd_handle(file, access, (void **)&handle) >= 0 && handle != NULL;
    *descriptor = direct ? *handle : -1;
    hid_t lists[] = {properties, creation, access}, types[] = {base, stored};
    for (size_t index = 0; index < 3; index++)
        if (lists[index] >= 0)
            H5Pclose(lists[index]);
    for (size_t index = 0; index < 2; index++)
        if (types[index] >= 0)
            H5Tclose(types[index]);
    if (file >= 0)
        H5Fclose(file);
    return direct;
}

/* Readies READER for SOURCE's dataset: direct reads when its layout allows them. */
static void direct_prepare(struct stored_bytes *reader, const struct h5py_vlen_examples *source)
{
    if (reader->dataset == source->dataset)
        return;
    reader->dataset = source->dataset;
    reader->descriptor = -1;
    int descriptor;
    struct stat status;
    haddr_t offset = H5Dget_offset(source->dataset);
    if (!direct_layout(source->dataset, &descriptor) || offset == HADDR_UNDEF ||
        H5Dget_storage_size(source->dataset) / GLOBAL_HEAP_ID_BYTES < source->count ||
        fstat(descriptor, &status) != 0)
        return;
    reader->descriptor = descriptor;
    reader->file_size = (uint64_t)status.st_size;
    reader->offset = offset;
}

/* The run from FIRST read from the file: each heap ID, then its object's bytes. False (nothing
   kept in DATA) when anything is not as expected: HDF5 then reads the run and says what is. */
static bool run_read_direct(const struct stored_bytes *reader, uint64_t first, size_t length,
                            const uint64_t *sizes, void **data)
{
    unsigned char ids[64 * GLOBAL_HEAP_ID_BYTES];
    bool read = true;
    size_t done = 0;
    for (; read && done < length; done++) {
        if (done % 64 == 0) {
            size_t batch = length - done < 64 ? length - done : 64;
            off_t position = (off_t)(reader->offset + (first + done) * GLOBAL_HEAP_ID_BYTES);
            read = pread(reader->descriptor, ids, batch * GLOBAL_HEAP_ID_BYTES, position) ==
                   (ssize_t)(batch * GLOBAL_HEAP_ID_BYTES);
        }
        struct global_heap_id id;
        global_heap_id_decode(ids + done % 64 * GLOBAL_HEAP_ID_BYTES, &id);
        uint64_t offset = 0;
        data[done] = read && id.length == sizes[done] ? malloc(sizes[done] ? sizes[done] : 1)
                                                      : NULL;
        read = data[done] != NULL &&
               (sizes[done] == 0 ||
                (global_heap_locate(reader->descriptor, reader->file_size, &id, &offset) &&
                 pread(reader->descriptor, data[done], sizes[done], (off_t)offset) ==
                     (ssize_t)sizes[done]));
    }
    for (size_t index = 0; !read && index < done; index++) {
        free(data[index]);
        data[index] = NULL;
    }
    return read;
}

int stored_bytes_read(struct stored_bytes *reader, const struct h5py_vlen_examples *source,
                      const uint64_t *indices, size_t count, const uint64_t *sizes, void **data)
{
    direct_prepare(reader, source);
    hvl_t *elements = calloc(count ? count : 1, sizeof *elements);
    if (elements == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    int result = EXIT_OK;
    for (size_t done = 0; result == EXIT_OK && done < count;) {
        size_t length = run_length(indices + done, count - done);
        if (reader->descriptor >= 0 && indices[done] + length <= source->count &&
            run_read_direct(reader, indices[done], length, sizes + done, data + done))
            reader->direct_examples += length;
        else
            result = run_read(reader, source, indices[done], length, sizes + done, data + done,
                              elements);
        done += length;
    }
    free(elements);
    return result;
}
