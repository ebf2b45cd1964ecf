/* libFuzzer target: the IDX reader (header, data streamed in blocks, gzip trailer). */
#include "converters/idx_read.h"
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    struct idx_reader *reader;
    struct idx_header header;
    if (idx_open(&reader, fuzz_input_file(data, size), &header, 2) != 0)
        return 0;
    static unsigned char block[65536];
    uint64_t left = idx_data_size(&header);
    int result = 0;
    while (result == 0 && left > 0) {
        size_t part = left < sizeof block ? (size_t)left : sizeof block;
        result = idx_read(reader, block, part);
        left -= part;
    }
    if (result == 0)
        idx_finish(reader);
    idx_close(reader);
    return 0;
}
