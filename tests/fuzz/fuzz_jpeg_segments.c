/* libFuzzer target: a JPEG's header segments gathered from its file for fuel pack's probe: what
   is kept fits the bound, starts with a start of image and ends with an end of image. */
#include "packing/jpeg_segments.h"
#include "common/base/error.h"

#include "fuzz_input.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static unsigned char kept[JPEG_SEGMENTS_MAX_BYTES];

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    int descriptor = open(fuzz_input_file(data, size), O_RDONLY);
    if (descriptor < 0)
        abort();
    size_t length = 0;
    if (jpeg_segments_gather(descriptor, "fuzz", kept, &length) == EXIT_OK &&
        (length < 4 || length > JPEG_SEGMENTS_MAX_BYTES || length > size + 2 || kept[0] != 0xff ||
         kept[1] != 0xd8 || kept[length - 2] != 0xff || kept[length - 1] != 0xd9))
        abort();
    error_clear();
    close(descriptor);
    return 0;
}
