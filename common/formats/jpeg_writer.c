/* Baseline JPEG encoding with libjpeg-turbo into memory (jpeg_mem_dest); libjpeg's errors jump
   back out of the encoder, as the decoder's do. */
#include "jpeg_writer.h"

#include "common/base/error.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <jpeglib.h>

struct encoding {
    struct jpeg_compress_struct compress;
    struct jpeg_error_mgr errors;
    jmp_buf escape;
    char message[JMSG_LENGTH_MAX];
};

static void escape(j_common_ptr common)
{
    struct encoding *encoding = (struct encoding *)common;
    (*common->err->format_message)(common, encoding->message);
    longjmp(encoding->escape, 1);
}

static void configure(struct encoding *encoding, uint32_t height, uint32_t width,
                      uint32_t channels, int quality)
{
    struct jpeg_compress_struct *compress = &encoding->compress;
    compress->image_width = width;
    compress->image_height = height;
    compress->input_components = (int)channels;
    compress->in_color_space = channels == 1 ? JCS_GRAYSCALE : channels == 3 ? JCS_RGB : JCS_CMYK;
    jpeg_set_defaults(compress);
    jpeg_set_quality(compress, quality, TRUE);
    if (channels == 4)
        compress->write_Adobe_marker = TRUE;
}

/* Encodes row by row; runs under the setjmp of jpeg_encode. */
static void encode_rows(struct encoding *encoding, const uint8_t *pixels, uint32_t height,
                        uint32_t width, uint32_t channels, int quality, struct jpeg_bytes *bytes)
{
    jpeg_create_compress(&encoding->compress);
    jpeg_mem_dest(&encoding->compress, &bytes->data, &bytes->size);
    configure(encoding, height, width, channels, quality);
    jpeg_start_compress(&encoding->compress, TRUE);
    while (encoding->compress.next_scanline < height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)encoding->compress.next_scanline * width *
                                               channels);
        jpeg_write_scanlines(&encoding->compress, &row, 1);
    }
    jpeg_finish_compress(&encoding->compress);
}

int jpeg_encode(const uint8_t *pixels, uint32_t height, uint32_t width, uint32_t channels,
                int quality, struct jpeg_bytes *bytes)
{
    if (channels != 1 && channels != 3 && channels != 4)
        return error_set(EXIT_OTHER, "cannot encode JPEG: %u channels", channels);
    struct encoding *encoding = calloc(1, sizeof *encoding);
    if (encoding == NULL)
        return error_set(EXIT_OTHER, "cannot encode JPEG: out of memory");
    encoding->compress.err = jpeg_std_error(&encoding->errors);
    encoding->errors.error_exit = escape;
    /* jpeg_mem_dest reuses a buffer only through its own realloc: start anew each time. */
    free(bytes->data);
    bytes->data = NULL;
    bytes->size = 0;
    int result = EXIT_OK;
    if (setjmp(encoding->escape) == 0)
        encode_rows(encoding, pixels, height, width, channels, quality, bytes);
    else
        result = error_set(EXIT_OTHER, "cannot encode JPEG: %s", encoding->message);
    jpeg_destroy_compress(&encoding->compress);
    free(encoding);
    return result;
}

void jpeg_bytes_free(struct jpeg_bytes *bytes)
{
    free(bytes->data);
    *bytes = (struct jpeg_bytes){0};
}
