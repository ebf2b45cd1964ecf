/* Encodes 8-bit grayscale or RGB images as PNG with libpng: into memory or streamed by rows. */
#include "png_encode.h"

#include "common/base/error.h"
#include "png_messages.h"

#include <errno.h>
#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

/* Everything an encoding owns, outside the frame that calls setjmp (libpng longjmps). */
struct encoding {
    struct png_bytes *memory; /* or */
    FILE *stream;
    int failed_write; /* the errno of the write that failed */
    int failed_source;
    char message[PNG_MESSAGE_SIZE];
    uint8_t *row;
    png_row_source source;
    void *context;
    const uint8_t *pixels;
};

static void write_memory(png_structp png, png_bytep data, size_t length)
{
    struct encoding *encoding = png_get_io_ptr(png);
    struct png_bytes *out = encoding->memory;
    if (length > out->capacity - out->size) {
        size_t capacity = out->capacity ? out->capacity : 4096;
        while (capacity - out->size < length)
            capacity *= 2;
        uint8_t *grown = realloc(out->data, capacity);
        if (grown == NULL)
            png_error(png, "out of memory");
        out->data = grown;
        out->capacity = capacity;
    }
    memcpy(out->data + out->size, data, length);
    out->size += length;
}

static void write_stream(png_structp png, png_bytep data, size_t length)
{
    struct encoding *encoding = png_get_io_ptr(png);
    if (fwrite(data, 1, length, encoding->stream) != length) {
        encoding->failed_write = errno != 0 ? errno : EIO;
        png_error(png, "write failed");
    }
}

static void flush_nothing(png_structp png)
{
    (void)png;
}

/* Runs libpng over the rows; returns 0, or -1 with ENCODING->message set. */
static int encode(struct encoding *encoding, uint32_t width, uint32_t height, int channels)
{
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, encoding->message,
                                              png_message_keep, png_warning_ignore);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (info == NULL) {
        png_destroy_write_struct(&png, NULL);
        snprintf(encoding->message, sizeof encoding->message, "out of memory");
        return -1;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        return -1;
    }
    png_set_write_fn(png, encoding, encoding->memory ? write_memory : write_stream, flush_nothing);
    png_set_IHDR(png, info, width, height, 8, channels == 1 ? PNG_COLOR_TYPE_GRAY : PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    /* One filter and a fast level: exports and fixtures encode an image per example, and the
       adaptive filters and default level cost twice the time for a few percent of size. */
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_SUB);
    png_set_compression_level(png, 3);
    png_write_info(png, info);
    size_t stride = (size_t)width * (size_t)channels;
    for (uint32_t y = 0; y < height; y++) {
        const uint8_t *row = encoding->pixels ? encoding->pixels + (size_t)y * stride : encoding->row;
        if (encoding->pixels == NULL && encoding->source(encoding->context, y, encoding->row) != 0) {
            encoding->failed_source = 1;
            png_error(png, "the image's rows could not be made");
        }
        png_write_row(png, row);
    }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    return 0;
}

int png_encode_memory(const uint8_t *pixels, uint32_t width, uint32_t height, int channels,
                      struct png_bytes *out)
{
    if ((channels != 1 && channels != 3) || width == 0 || height == 0)
        return error_set(EXIT_USAGE, "cannot encode PNG: %ux%u pixels of %d channels", width,
                         height, channels);
    struct encoding encoding = {.memory = out, .pixels = pixels};
    out->size = 0;
    if (encode(&encoding, width, height, channels) != 0)
        return error_set(EXIT_OTHER, "cannot encode PNG: %s", encoding.message);
    return EXIT_OK;
}

int png_encode_stream(FILE *stream, const char *path, uint32_t width, uint32_t height,
                      int channels, png_row_source source, void *context)
{
    if ((channels != 1 && channels != 3) || width == 0 || height == 0)
        return error_set(EXIT_USAGE, "cannot encode PNG: %ux%u pixels of %d channels", width,
                         height, channels);
    struct encoding encoding = {.stream = stream, .source = source, .context = context};
    encoding.row = malloc((size_t)width * (size_t)channels);
    if (encoding.row == NULL)
        return error_set(EXIT_OTHER, "cannot encode PNG: %s: out of memory", path);
    int failed = encode(&encoding, width, height, channels);
    free(encoding.row);
    if (failed && encoding.failed_write)
        return error_set(EXIT_WRITE, "cannot write: %s: %s", path,
                         strerror(encoding.failed_write));
    if (failed && encoding.failed_source)
        return error_code();
    if (failed)
        return error_set(EXIT_OTHER, "cannot encode PNG: %s: %s", path, encoding.message);
    return EXIT_OK;
}

void png_bytes_free(struct png_bytes *bytes)
{
    free(bytes->data);
    *bytes = (struct png_bytes){0};
}
