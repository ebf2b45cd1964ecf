/* libFuzzer target: PNG decoding into channel-major RGB (SVHN format 1 images). */
#include "common/formats/png/png_read.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    struct png_rgb image = {0};
    if (png_rgb_decode(data, size, "fuzz.png", &image) == 0) {
        volatile uint8_t last = image.pixels[3 * (size_t)image.height * image.width - 1];
        (void)last;
        png_rgb_free(&image);
    }
    return 0;
}
