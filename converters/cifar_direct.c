/* CIFAR batches of the published counts: their rows written straight into place as they stream. */
#include "cifar_conversion.h"

#include "common/base/error.h"
#include "common/formats/pickle/pickle_scan.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* A member streams into an anonymous mapping of its size, its opcodes walked as they arrive.
   The byte string of the rows (the batch's count times 3,072 bytes, the first that long) goes
   from the stream straight into the features' rows instead, so its pages are never touched and
   the pickle is then parsed in the mapping as if it were whole: the reader never reads a string
   it does not rewrite. A batch that is not what it looked like (another count, the rows elsewhere)
   costs a second pass through the spool, which only made-up archives pay. */
enum {
    LONG_STRING_BYTES = 1 << 16, /* a byte string this long may be the rows */
    HELD_BYTES = 16 << 20,       /* of a member's other bytes held in memory */
};

static uint64_t first_row(const struct cifar_conversion *conversion, size_t member)
{
    uint64_t first = 0;
    for (size_t index = 0; index < member; index++)
        first += conversion->layout->member_examples[index];
    return first;
}

static int declare_features(struct cifar_conversion *conversion)
{
    if (conversion->placing == CIFAR_DIRECT)
        return EXIT_OK;
    conversion->placing = CIFAR_DIRECT;
    return cifar_declare_features(conversion,
                                  first_row(conversion, conversion->layout->member_count));
}

/* Writes LENGTH bytes of rows from row FIRST on: the first HELD_COUNT of them at HELD, the
   rest read from the stream. */
static int write_rows(struct cifar_conversion *conversion, const unsigned char *held,
                      uint64_t held_count, uint64_t length, uint64_t first)
{
    const uint64_t block = CIFAR_COPY_BYTES / CIFAR_IMAGE_BYTES * CIFAR_IMAGE_BYTES;
    int result = declare_features(conversion);
    for (uint64_t done = 0; result == EXIT_OK && done < length;) {
        size_t count = (size_t)(length - done < block ? length - done : block);
        const unsigned char *rows = held + done;
        if (done + count > held_count) {
            size_t from_held = done < held_count ? (size_t)(held_count - done) : 0;
            memcpy(conversion->buffer, held + done, from_held);
            result = archive_stream_read_exactly(conversion->stream,
                                                 conversion->buffer + from_held,
                                                 count - from_held);
            rows = conversion->buffer;
        }
        if (result == EXIT_OK)
            result = h5py_writer_write(conversion->writer, conversion->features,
                                       first + done / CIFAR_IMAGE_BYTES,
                                       count / CIFAR_IMAGE_BYTES, rows);
        done += count;
    }
    return result;
}

/* Reads member INDEX (SIZE bytes) into PREFIX, its rows' string (at *STRING, or UINT64_MAX)
   into place; *FULL when its other bytes would pass HELD_BYTES. */
static int stream_member(struct cifar_conversion *conversion, int index, uint64_t size,
                         struct cifar_prefix *prefix, uint64_t *string, bool *full)
{
    uint64_t wanted = conversion->layout->member_examples[index] * CIFAR_IMAGE_BYTES;
    uint64_t position = 0, length = 0, held = 0;
    bool scanning = true;
    int result = EXIT_OK;
    while (result == EXIT_OK && prefix->filled < size) {
        enum pickle_scan_status status = scanning ? pickle_scan(prefix->bytes, prefix->filled,
                                                                &position, LONG_STRING_BYTES,
                                                                &length)
                                                  : PICKLE_SCAN_END;
        scanning = status != PICKLE_SCAN_END;
        if (status == PICKLE_SCAN_STRING && *string == UINT64_MAX && length == wanted &&
            length <= size - position) {
            uint64_t read = prefix->filled - position < length ? prefix->filled - position
                                                                : length;
            result = write_rows(conversion, prefix->bytes + position, read, length,
                                first_row(conversion, (size_t)index));
            *string = position;
            position += length;
            if (prefix->filled < position)
                prefix->filled = position;
            continue;
        }
        if (status == PICKLE_SCAN_STRING) {
            position += length;
            continue;
        }
        size_t count = (size_t)(size - prefix->filled < CIFAR_COPY_BYTES ? size - prefix->filled
                                                                           : CIFAR_COPY_BYTES);
        if (held + count > HELD_BYTES) {
            *full = true;
            return EXIT_OK;
        }
        result = archive_stream_read_exactly(conversion->stream, prefix->bytes + prefix->filled,
                                             count);
        prefix->filled += count;
        held += count;
    }
    return result;
}

/* Parses the streamed member: CIFAR_PLACED when it is a batch of the published count whose rows
   are in place (written now from the mapping when the string was not taken on the way); a batch
   of another count that took no string, while nothing is in place, has its rows spooled. */
static int place_member(struct cifar_conversion *conversion, int index, const char *name,
                        const struct cifar_prefix *prefix, uint64_t string,
                        enum cifar_direct_outcome *outcome)
{
    struct cifar_batch *batch = &conversion->batches[index];
    uint64_t count = conversion->layout->member_examples[index];
    struct pickle *pickle = NULL;
    struct pickle_value root;
    const struct pickle_array *rows = NULL;
    int result = pickle_parse(&pickle, prefix->bytes, (size_t)prefix->filled, name, &root);
    if (result == EXIT_OK)
        result = cifar_extract_batch(conversion, &root, name, batch, &rows);
    bool placed = result == EXIT_OK && batch->count == count && rows->data_as_read &&
                  rows->size == count * CIFAR_IMAGE_BYTES &&
                  (string == UINT64_MAX || rows->data == prefix->bytes + string);
    *outcome = placed ? CIFAR_PLACED : CIFAR_RESTART;
    if (placed && string == UINT64_MAX)
        result = write_rows(conversion, rows->data, rows->size, rows->size,
                            first_row(conversion, (size_t)index));
    else if (!placed && string == UINT64_MAX && result == EXIT_OK &&
             conversion->placing == CIFAR_TRYING) {
        *outcome = CIFAR_SPOOLED;
        result = spool_append(conversion->spool, rows->data, (size_t)rows->size,
                              &batch->spool_offset);
    } else if (string != UINT64_MAX) {
        result = EXIT_OK; /* the spool's pass tells what is wrong with it */
    }
    pickle_free(pickle);
    return result;
}

int cifar_direct_member(struct cifar_conversion *conversion, int index, const char *name,
                        uint64_t size, enum cifar_direct_outcome *outcome,
                        struct cifar_prefix *prefix)
{
    *outcome = CIFAR_SPOOL;
    *prefix = (struct cifar_prefix){NULL, 0, 0};
    if (size == 0)
        return EXIT_OK;
    void *mapping = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (mapping == MAP_FAILED)
        return EXIT_OK; /* the spool needs no mapping of this size */
    *prefix = (struct cifar_prefix){mapping, size, 0};
    uint64_t string = UINT64_MAX;
    bool full = false;
    int result = stream_member(conversion, index, size, prefix, &string, &full);
    if (result == EXIT_OK && full)
        *outcome = string == UINT64_MAX ? CIFAR_SPOOL : CIFAR_RESTART;
    else if (result == EXIT_OK)
        result = place_member(conversion, index, name, prefix, string, outcome);
    if (result == EXIT_OK && *outcome != CIFAR_PLACED && *outcome != CIFAR_SPOOLED) {
        error_clear();
        cifar_batch_forget(&conversion->batches[index]);
    }
    return result;
}

void cifar_prefix_release(struct cifar_prefix *prefix)
{
    if (prefix->bytes != NULL)
        munmap(prefix->bytes, (size_t)prefix->size);
    *prefix = (struct cifar_prefix){NULL, 0, 0};
}
