/* Encodes JPEG into memory through libjpeg's memory destination (jpeg_mem_dest); libjpeg's
   errors jump back out of the encoder, as the decoder's do. */
#include "jpeg_write.h"

#include "common/base/error.h"

#include <setjmp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include <jpeglib.h>

/* Kept outside the frame that calls setjmp so that libjpeg's longjmp leaves it intact. */
struct encoding {
    struct jpeg_compress_struct info;
    struct jpeg_error_mgr errors;
    jmp_buf failure;
    unsigned char *data;
    unsigned long size;
    char why[JMSG_LENGTH_MAX];
};

static void fail(j_common_ptr common)
{
    struct encoding *encoding = common->client_data;
    (*common->err->format_message)(common, encoding->why);
    longjmp(encoding->failure, 1);
}

static void configure(struct jpeg_compress_struct *info, uint32_t height, uint32_t width,
                      uint32_t channels, int quality)
{
    info->image_width = width;
    info->image_height = height;
    info->input_components = (int)channels;
    info->in_color_space = channels == 1 ? JCS_GRAYSCALE : channels == 3 ? JCS_RGB : JCS_CMYK;
    jpeg_set_defaults(info);
    jpeg_set_quality(info, quality, TRUE);
    if (channels == 4)
        info->write_Adobe_marker = TRUE;
}

/* Runs libjpeg's compression under the setjmp of the caller. */
static void compress_rows(struct encoding *encoding, const uint8_t *pixels, uint32_t height,
                          uint32_t width, uint32_t channels, int quality)
{
    struct jpeg_compress_struct *info = &encoding->info;
    jpeg_mem_dest(info, &encoding->data, &encoding->size);
    configure(info, height, width, channels, quality);
    jpeg_start_compress(info, TRUE);
    size_t stride = (size_t)width * channels;
    while (info->next_scanline < info->image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)info->next_scanline * stride);
        jpeg_write_scanlines(info, &row, 1);
    }
    jpeg_finish_compress(info);
}

static int encode(struct encoding *encoding, const uint8_t *pixels, uint32_t height,
                  uint32_t width, uint32_t channels, int quality)
{
    encoding->info.err = jpeg_std_error(&encoding->errors);
    encoding->errors.error_exit = fail;
    jpeg_create_compress(&encoding->info);
    encoding->info.client_data = encoding;
    bool failed = setjmp(encoding->failure) != 0;
    if (!failed)
        compress_rows(encoding, pixels, height, width, channels, quality);
    jpeg_destroy_compress(&encoding->info);
    if (failed) {
        free(encoding->data);
        encoding->data = NULL;
        return error_set(EXIT_OTHER, "cannot encode JPEG: %s", encoding->why);
    }
    return EXIT_OK;
}

int jpeg_encode(const uint8_t *pixels, uint32_t height, uint32_t width, uint32_t channels,
                int quality, struct jpeg_bytes *output)
{
    if ((channels != 1 && channels != 3 && channels != 4) || quality < 1 || quality > 100 ||
        height == 0 || width == 0 || height > JPEG_MAX_DIMENSION || width > JPEG_MAX_DIMENSION)
        return error_set(EXIT_OTHER, "cannot encode JPEG: %ux%u pixels of %u channels at "
                         "quality %d", width, height, channels, quality);
    struct encoding *encoding = calloc(1, sizeof *encoding);
    if (encoding == NULL)
        return error_set(EXIT_OTHER, "cannot encode JPEG: out of memory");
    int result = encode(encoding, pixels, height, width, channels, quality);
    if (result == EXIT_OK) {
        free(output->data);
        output->data = encoding->data;
        output->size = encoding->size;
    }
    free(encoding);
    return result;
}

void jpeg_bytes_free(struct jpeg_bytes *bytes)
{
    free(bytes->data);
    *bytes = (struct jpeg_bytes){0};
}
