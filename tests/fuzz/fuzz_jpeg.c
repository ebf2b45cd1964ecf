/* libFuzzer target: JPEG decoding under its budget (the scan limit, a pixel limit). The first byte
   picks the options: bit 0 the interleaved layout, bit 1 PIL's warning policy, bit 2 the check,
   whose verdict must be the decode's. A decoded image is within the pixel limit, and its buffers
   within what jpeg_decode_bytes told the memory budget. */
#include "common/formats/jpeg/jpeg_read.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    if (size == 0)
        return 0;
    struct jpeg_options options = {.max_pixels = UINT64_C(1) << 22,
                                   .interleaved = (data[0] & 1) != 0,
                                   .warnings_as_pil = (data[0] & 2) != 0};
    struct jpeg_header header;
    if (jpeg_probe(data + 1, size - 1, "fuzz.jpg", &header) != 0)
        return 0;
    if (data[0] & 4) {
        /* The check must give the decode's verdict: its shortcut decodes nothing. */
        struct jpeg_image image = {0};
        int checked = jpeg_check(data + 1, size - 1, "fuzz.jpg", &options);
        int decoded = jpeg_decode(data + 1, size - 1, "fuzz.jpg", &options, &image);
        jpeg_image_free(&image);
        if (checked != decoded)
            __builtin_trap();
        return 0;
    }
    struct jpeg_image image = {0};
    if (jpeg_decode(data + 1, size - 1, "fuzz.jpg", &options, &image) == 0) {
        size_t bytes = (size_t)image.channels * image.height * image.width;
        volatile uint8_t last = image.pixels[bytes - 1];
        (void)last;
        if (image.width != header.width || image.height != header.height ||
            image.channels != header.channels ||
            (uint64_t)image.width * image.height > options.max_pixels ||
            image.capacity + image.scratch_capacity >
                jpeg_decode_bytes(&header, options.interleaved))
            __builtin_trap();
    }
    jpeg_image_free(&image);
    return 0;
}
