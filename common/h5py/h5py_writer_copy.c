/* Rows copied into a contiguous dataset's storage from another file, in the kernel
   (copy_file_range) when it can, read and written otherwise: fuel pack's .npy inputs whose bytes
   are already the stored rows. HDF5 allocates the storage with the first row, written through it;
   its caches are flushed before the rest is written around it (a dirty sieve buffer written back
   later would put stale bytes over the copied ones). An input whose digests are taken as it is
   read (a tap) is read and written instead: the kernel's copy would leave it to be read again. */
#include "h5py_writer_state.h"

#include "common/base/error.h"
#include "common/base/input_file.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

enum { COPY_BYTES = 16 << 20, FALLBACK_BYTES = 4 << 20 };

static int read_rows(int descriptor, uint64_t offset, void *buffer, size_t size)
{
    size_t done = 0;
    while (done < size) {
        ssize_t got = input_file_pread(descriptor, (unsigned char *)buffer + done, size - done,
                            (off_t)(offset + done));
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return error_set(EXIT_CORRUPT_INPUT, "cannot read: the input ends before its rows do");
        done += (size_t)got;
    }
    return EXIT_OK;
}

/* Copies SIZE bytes from INPUT at FROM to OUTPUT at TO: copy_file_range, else pread and pwrite. */
static int copy_bytes(struct h5py_writer *writer, int input, uint64_t from, int output, uint64_t to,
                      uint64_t size)
{
    unsigned char *buffer = NULL;
    if (input_file_tapped(input) && (buffer = malloc(FALLBACK_BYTES)) == NULL)
        return error_set(EXIT_OTHER, "cannot write: %s: out of memory", writer->path);
    int result = EXIT_OK;
    while (size > 0 && result == EXIT_OK) {
        size_t part = size < COPY_BYTES ? (size_t)size : COPY_BYTES;
        loff_t in = (loff_t)from, out = (loff_t)to;
        ssize_t copied = buffer == NULL ? copy_file_range(input, &in, output, &out, part, 0) : -1;
        if (copied == 0)
            return error_set(EXIT_CORRUPT_INPUT, "cannot read: the input ends before its rows do");
        if (copied < 0 && buffer == NULL && errno != EINTR &&
            (buffer = malloc(FALLBACK_BYTES)) == NULL)
            return error_set(EXIT_OTHER, "cannot write: %s: out of memory", writer->path);
        if (copied < 0 && buffer != NULL) {
            copied = (ssize_t)(part < FALLBACK_BYTES ? part : FALLBACK_BYTES);
            result = read_rows(input, from, buffer, (size_t)copied);
            if (result == EXIT_OK && pwrite(output, buffer, (size_t)copied, (off_t)to) != copied)
                result = error_set(EXIT_WRITE, "cannot write: %s: %s", writer->path,
                                   error_system_reason());
        }
        if (copied > 0 && result == EXIT_OK) {
            from += (uint64_t)copied;
            to += (uint64_t)copied;
            size -= (uint64_t)copied;
            write_behind_note(&writer->behind, (size_t)copied);
        }
    }
    free(buffer);
    return result;
}

/* Writes COUNT rows from FIRST read from INPUT at OFFSET, a block at a time, through HDF5. */
static int write_through(struct h5py_writer *writer, int index, uint64_t first, uint64_t count,
                         int input, uint64_t offset)
{
    const struct writer_source *source = &writer->sources[index];
    uint64_t rows = source->row_bytes >= FALLBACK_BYTES ? 1 : FALLBACK_BYTES / source->row_bytes;
    void *buffer = malloc(rows * source->row_bytes + 1);
    int result = buffer == NULL ? error_set(EXIT_OTHER, "cannot write: %s: out of memory",
                                            writer->path)
                                : EXIT_OK;
    for (uint64_t done = 0; done < count && result == EXIT_OK; done += rows) {
        uint64_t part = count - done < rows ? count - done : rows;
        result = read_rows(input, offset + done * source->row_bytes, buffer,
                           (size_t)(part * source->row_bytes));
        if (result == EXIT_OK)
            result = h5py_writer_write(writer, index, first + done, part, buffer);
    }
    free(buffer);
    return result;
}

/* The file offset of SOURCE's storage, allocated by writing its row FIRST through HDF5 when it has
   none yet. HDF5's caches are flushed and the dataset reopened, which drops its sieve buffer: a
   stale one would otherwise serve, then write back, bytes of the region copied around HDF5. */
static int storage_offset(struct h5py_writer *writer, int index, uint64_t first, int input,
                          uint64_t offset, haddr_t *address)
{
    struct writer_source *source = &writer->sources[index];
    int result = EXIT_OK;
    if (H5Dget_offset(source->dataset) == HADDR_UNDEF) {
        result = write_through(writer, index, first, 1, input, offset);
        if (result == EXIT_OK)
            result = h5py_writer_flush(writer, source);
    }
    if (result != EXIT_OK)
        return result;
    bool reopened = H5Fflush(writer->file, H5F_SCOPE_LOCAL) >= 0 && H5Dclose(source->dataset) >= 0 &&
                    (source->dataset = H5Dopen2(writer->file, source->name, H5P_DEFAULT)) >= 0;
    if (!reopened || (*address = H5Dget_offset(source->dataset)) == HADDR_UNDEF)
        return hdf5_failure_report(writer->path, source->name);
    return EXIT_OK;
}

/* Rows smaller than this in all go through HDF5: copying around it saves nothing there. */
enum { COPY_AT_LEAST = 1 << 20 };

int h5py_writer_copy(struct h5py_writer *writer, int index, uint64_t first, uint64_t count,
                     int input, uint64_t offset)
{
    hdf5_failure_forget();
    if (index < 0 || (size_t)index >= writer->source_count)
        return error_set(EXIT_OTHER, "cannot write: %s: no source number %d", writer->path, index);
    struct writer_source *source = &writer->sources[index];
    if (source->variable_length || source->type == ELEMENT_STRING || first > source->shape[0] ||
        count > source->shape[0] - first || source->row_bytes == 0)
        return error_set(EXIT_OTHER, "cannot write: %s: %s: cannot copy rows %llu..%llu",
                         writer->path, source->name, (unsigned long long)first,
                         (unsigned long long)(first + count));
    int result = h5py_writer_flush(writer, source);
    /* Rows are stored little-endian: on other machines they go through HDF5's conversion. */
    bool little_endian = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;
    if (result != EXIT_OK || count == 0)
        return result;
    if (writer->behind.descriptor < 0 || !little_endian ||
        count * source->row_bytes < COPY_AT_LEAST)
        return write_through(writer, index, first, count, input, offset);
    haddr_t address;
    result = storage_offset(writer, index, first, input, offset, &address);
    if (result != EXIT_OK)
        return result;
    return copy_bytes(writer, input, offset, writer->behind.descriptor,
                      (uint64_t)address + first * source->row_bytes, count * source->row_bytes);
}
