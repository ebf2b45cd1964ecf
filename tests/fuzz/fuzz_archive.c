/* libFuzzer target: archive members streamed from a tar (first byte even) or a zip (odd), each
   read whole; a member that reads clean holds exactly the bytes its header declared. */
#include "common/formats/archive/archive_read.h"

#include "fuzz_input.h"

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

enum { MEMBER_LIMIT = 1 << 24 };

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    if (size < 1)
        return 0;
    enum archive_stream_format format = data[0] & 1 ? ARCHIVE_STREAM_ZIP : ARCHIVE_STREAM_TAR;
    struct archive_stream *stream;
    if (archive_stream_open(&stream, fuzz_input_file(data + 1, size - 1), format, 1) != 0)
        return 0;
    unsigned char *bytes = NULL;
    size_t capacity = 0;
    for (;;) {
        const char *name;
        uint64_t declared;
        if (archive_stream_next(stream, &name, &declared) != 0 || name == NULL)
            break;
        size_t read;
        if (archive_stream_read_member(stream, &bytes, &capacity, &read, MEMBER_LIMIT) != 0)
            break;
        if (declared != ARCHIVE_STREAM_SIZE_UNKNOWN && read != declared)
            abort();
    }
    free(bytes);
    archive_stream_close(stream);
    return 0;
}
