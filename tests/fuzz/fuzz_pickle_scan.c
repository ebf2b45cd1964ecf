/* libFuzzer target: the pickle opcode walk, whole and as bytes arrive, which must agree. */
#include "common/formats/pickle/pickle_scan.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

enum { THRESHOLD = 16, MOST_STRINGS = 64 };

/* Walks DATA offered STEP bytes more at a time (0: all at once); the strings found go to
   STRINGS (their offsets), their count is returned. */
static size_t walk(const unsigned char *data, size_t size, size_t step, uint64_t *strings)
{
    uint64_t position = 0, length = 0, available = step == 0 ? size : 0;
    size_t found = 0;
    for (;;) {
        enum pickle_scan_status status = pickle_scan(data, available, &position, THRESHOLD,
                                                     &length);
        if (status == PICKLE_SCAN_STRING && found < MOST_STRINGS) {
            strings[found++] = position;
            position += length;
        } else if (status == PICKLE_SCAN_MORE && available < size) {
            available = size - available < step ? size : available + step;
        } else {
            return found;
        }
    }
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    uint64_t whole[MOST_STRINGS], arriving[MOST_STRINGS];
    size_t step = size > 0 ? data[0] % 7 + 1 : 1;
    size_t count = walk(data, size, 0, whole);
    if (walk(data, size, step, arriving) != count)
        abort();
    for (size_t index = 0; index < count; index++)
        if (whole[index] != arriving[index] || whole[index] > size)
            abort();
    return 0;
}
