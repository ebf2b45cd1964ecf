/* pread of contiguous example rows at the dataset's file offset; HDF5 only finds that offset. */
#include "h5py_direct.h"

#include "common/base/error.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Whether DATASET keeps its elements as MEMORY_TYPE in one unfiltered block of the file. */
static bool layout_direct(hid_t dataset, hid_t memory_type)
{
    hid_t properties = H5Dget_create_plist(dataset);
    hid_t stored = H5Dget_type(dataset);
    bool direct = properties >= 0 && stored >= 0 && H5Pget_layout(properties) == H5D_CONTIGUOUS &&
                  H5Pget_nfilters(properties) == 0 && H5Pget_external_count(properties) == 0 &&
                  H5Tequal(stored, memory_type) > 0;
    if (stored >= 0)
        H5Tclose(stored);
    if (properties >= 0)
        H5Pclose(properties);
    return direct;
}

bool h5py_direct_open(struct h5py_direct *direct, const struct h5py_examples *examples,
                      const char *path)
{
    *direct = (struct h5py_direct){.descriptor = -1, .example_bytes = examples->example_bytes,
                                   .examples = examples->shape[0]};
    if (!layout_direct(examples->dataset, examples->memory_type))
        return false;
    haddr_t offset = H5Dget_offset(examples->dataset);
    hsize_t stored = H5Dget_storage_size(examples->dataset);
    if (offset == HADDR_UNDEF || direct->example_bytes == 0 ||
        stored / direct->example_bytes < direct->examples)
        return false;
    struct stat status;
    int descriptor = open(path, O_RDONLY | O_CLOEXEC);
    if (descriptor < 0 || fstat(descriptor, &status) != 0 ||
        (uint64_t)status.st_size < offset || (uint64_t)status.st_size - offset < stored) {
        if (descriptor >= 0)
            close(descriptor);
        return false;
    }
    direct->descriptor = descriptor;
    direct->offset = offset;
    return true;
}

void h5py_direct_close(struct h5py_direct *direct)
{
    if (direct->descriptor >= 0)
        close(direct->descriptor);
    direct->descriptor = -1;
}

static int bytes_read(const struct h5py_direct *direct, uint64_t first, size_t size, void *buffer)
{
    unsigned char *into = buffer;
    off_t position = (off_t)(direct->offset + first * direct->example_bytes);
    while (size > 0) {
        ssize_t got = pread(direct->descriptor, into, size, position);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return error_set(EXIT_CORRUPT_INPUT, "cannot read examples: %s",
                             got < 0 ? strerror(errno) : "the file ends early");
        into += got;
        position += got;
        size -= (size_t)got;
    }
    return EXIT_OK;
}

int h5py_direct_read(const struct h5py_direct *direct, uint64_t first, uint64_t count,
                     void *buffer)
{
    if (first > direct->examples || count > direct->examples - first)
        return error_set(EXIT_CORRUPT_INPUT, "cannot read examples: past the end");
    return count == 0 ? EXIT_OK : bytes_read(direct, first, count * direct->example_bytes, buffer);
}

int h5py_direct_read_indices(const struct h5py_direct *direct, const uint64_t *indices,
                             size_t count, void *buffer)
{
    struct placed_index *order = placed_indices_sorted(indices, count);
    if (order == NULL)
        return error_set(EXIT_OTHER, "cannot read examples: out of memory");
    int result = EXIT_OK;
    for (size_t number = 0; result == EXIT_OK && number < count; number++)
        result = h5py_direct_read(direct, order[number].index, 1,
                                  (unsigned char *)buffer +
                                      order[number].position * direct->example_bytes);
    free(order);
    return result;
}
