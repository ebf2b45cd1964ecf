/* libFuzzer target: a tar of tars walked as the ILSVRC converters walk the training archive: each
   member opened as a nested tar, its members spooled and sorted (sorted_members), each read back
   whole; a member that reads clean holds the bytes its header declared. */
#include "common/formats/archive/archive_read.h"
#include "common/formats/archive/sorted_members.h"

#include "fuzz_input.h"

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static const struct sorted_members_limits limits = {.maximum_members = 4096,
                                                    .maximum_member_bytes = 1 << 24};

/* Reads back every member of the nested tar just collected. */
static void read_back(struct sorted_members *sorted)
{
    for (size_t rank = 0; rank < sorted_members_count(sorted); rank++) {
        uint64_t size = sorted_members_size(sorted, rank);
        unsigned char *bytes = malloc(size > 0 ? (size_t)size : 1);
        if (bytes == NULL || sorted_members_read(sorted, rank, bytes) != 0)
            abort();
        size_t found;
        if (!sorted_members_rank(sorted, sorted_members_name(sorted, rank), &found) ||
            found != rank)
            abort();
        free(bytes);
    }
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    struct archive_stream *outer;
    if (archive_stream_open(&outer, fuzz_input_file(data, size), ARCHIVE_STREAM_TAR, 1) != 0)
        return 0;
    struct sorted_members *sorted;
    if (sorted_members_create(&sorted, NULL, &limits) != 0) {
        archive_stream_close(outer);
        return 0;
    }
    for (;;) {
        const char *name;
        uint64_t declared;
        if (archive_stream_next(outer, &name, &declared) != 0 || name == NULL)
            break;
        struct archive_stream *inner;
        if (archive_stream_open_member(&inner, outer) != 0)
            break;
        int result = sorted_members_collect(sorted, inner, name);
        archive_stream_close(inner);
        if (result != 0)
            break;
        read_back(sorted);
    }
    sorted_members_free(sorted);
    archive_stream_close(outer);
    return 0;
}
