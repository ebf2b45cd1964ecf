/* libFuzzer target: the .amat reader. The first byte picks the row width (0: MNIST's 784). */
#include "converters/amat_read.h"
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    if (size == 0)
        return 0;
    size_t width = data[0] == 0 ? 784 : data[0];
    struct amat_reader *reader;
    if (amat_open(&reader, fuzz_input_file(data + 1, size - 1), width) != 0)
        return 0;
    unsigned char row[784];
    bool read = true;
    while (read && amat_next(reader, row, &read) == 0)
        continue;
    amat_close(reader);
    return 0;
}
