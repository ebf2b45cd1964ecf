/* Reads image files into a reused buffer, tells PNG from JPEG by their signatures, probes their
   headers and decodes them channel-major; each image's bytes are bounded before decoding. */
#include "image_file.h"
#include "common/base/input_file.h"
#include "jpeg_segments.h"

#include "common/base/error.h"
#include "common/h5py/h5py_reader.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* JPEG headers nearly always end within this prefix (Exif thumbnails included). */
enum { PROBE_BYTES = 64 << 10 };

enum image_format { FORMAT_PNG, FORMAT_JPEG, FORMAT_OTHER };

static enum image_format format_of(const unsigned char *bytes, size_t size)
{
    if (size >= 8 && memcmp(bytes, "\x89PNG\r\n\x1a\n", 8) == 0)
        return FORMAT_PNG;
    if (size >= 3 && bytes[0] == 0xff && bytes[1] == 0xd8 && bytes[2] == 0xff)
        return FORMAT_JPEG;
    return FORMAT_OTHER;
}

/* Reads up to LIMIT bytes of PATH (the whole file when LIMIT is 0) into FILE; *WHOLE when that
   is the whole file. */
static int file_read(struct image_file *file, const char *path, size_t limit, bool *whole)
{
    struct stat status;
    int descriptor = input_file_open(path, &status);
    if (descriptor < 0)
        return error_code();
    size_t wanted = (uint64_t)status.st_size > IMAGE_FILE_MAX_BYTES ? IMAGE_FILE_MAX_BYTES + 1
                                                                    : (size_t)status.st_size;
    if (limit != 0 && wanted > limit)
        wanted = limit;
    else if (wanted > IMAGE_FILE_MAX_BYTES) {
        close(descriptor);
        return error_set(EXIT_CORRUPT_INPUT, "image too large: %s: more than %u bytes", path,
                         IMAGE_FILE_MAX_BYTES);
    }
    if (wanted + 1 > file->capacity) {
        unsigned char *grown = realloc(file->bytes, wanted + 1);
        if (grown == NULL) {
            close(descriptor);
            return error_set(EXIT_OTHER, "out of memory");
        }
        file->bytes = grown;
        file->capacity = wanted + 1;
    }
    ssize_t got = 0;
    for (file->size = 0; file->size < wanted; file->size += (size_t)got)
        if ((got = read(descriptor, file->bytes + file->size, wanted - file->size)) <= 0)
            break;
    close(descriptor);
    if (got < 0)
        return error_set(EXIT_CORRUPT_INPUT, "cannot read: %s: %s", path, strerror(errno));
    *whole = file->size == (size_t)status.st_size;
    file->decoding_bytes = (uint64_t)status.st_size;
    return EXIT_OK;
}

/* The header of the bytes read: PNG's IHDR, JPEG's frame; what decoding them holds is added to
   the file's bytes in FILE's decoding_bytes. */
static int header_read(struct image_file *file, const char *path, uint64_t shape[3])
{
    uint32_t width = 0, height = 0, channels = 0;
    int result;
    enum image_format format = format_of(file->bytes, file->size);
    if (format == FORMAT_PNG) {
        result = png_probe(file->bytes, file->size, path, &width, &height, &channels);
        file->decoding_bytes += UINT64_C(2) * width * height * channels;
    } else if (format == FORMAT_JPEG) {
        struct jpeg_header header;
        result = jpeg_probe(file->bytes, file->size, path, &header);
        width = header.width;
        height = header.height;
        channels = header.channels;
        file->decoding_bytes += jpeg_decode_bytes(&header, false);
    } else {
        return error_set(EXIT_CORRUPT_INPUT, "cannot decode image: %s: not a PNG or JPEG file",
                         path);
    }
    shape[0] = channels;
    shape[1] = height;
    shape[2] = width;
    if (result == EXIT_OK && shape[0] * shape[1] * shape[2] > H5PY_EXAMPLE_MAX_BYTES)
        return error_set(EXIT_CORRUPT_INPUT, "image too large: %s: %" PRIu32 "x%" PRIu32 ", %"
                         PRIu32 " channels, more than the %zu bytes an example may hold", path,
                         width, height, channels, H5PY_EXAMPLE_MAX_BYTES);
    return result;
}

/* FILE's bytes replaced by PATH's JPEG header segments (jpeg_segments.h): never more than
   JPEG_SEGMENTS_MAX_BYTES read, however far into the file its header reaches. */
static int segments_read(struct image_file *file, const char *path)
{
    struct stat status;
    int descriptor = input_file_open(path, &status);
    if (descriptor < 0)
        return error_code();
    int result = EXIT_OK;
    if (file->capacity < JPEG_SEGMENTS_MAX_BYTES) {
        unsigned char *grown = realloc(file->bytes, JPEG_SEGMENTS_MAX_BYTES);
        if (grown == NULL)
            result = error_set(EXIT_OTHER, "out of memory");
        else
            file->bytes = grown, file->capacity = JPEG_SEGMENTS_MAX_BYTES;
    }
    if (result == EXIT_OK)
        result = jpeg_segments_gather(descriptor, path, file->bytes, &file->size);
    close(descriptor);
    file->decoding_bytes = (uint64_t)status.st_size;
    return result;
}

int image_file_probe(struct image_file *file, const char *path, uint64_t shape[3])
{
    bool whole;
    int result = file_read(file, path, PROBE_BYTES, &whole);
    if (result != EXIT_OK)
        return result;
    result = header_read(file, path, shape);
    if (result == EXIT_CORRUPT_INPUT && !whole && format_of(file->bytes, file->size) == FORMAT_JPEG) {
        error_clear();
        if ((result = segments_read(file, path)) == EXIT_OK)
            result = header_read(file, path, shape);
    }
    return result;
}

int image_file_decode(struct image_file *file, const char *path)
{
    bool whole;
    uint64_t shape[3];
    int result = file_read(file, path, 0, &whole);
    if (result == EXIT_OK)
        result = header_read(file, path, shape);
    if (result != EXIT_OK)
        return result;
    if (format_of(file->bytes, file->size) == FORMAT_PNG) {
        png_rgb_free(&file->png);
        result = png_decode_stored(file->bytes, file->size, path, &file->png);
        file->channels = file->png.channels;
        file->height = file->png.height;
        file->width = file->png.width;
        file->pixels = file->png.pixels;
        return result;
    }
    struct jpeg_options options = {.max_pixels = H5PY_EXAMPLE_MAX_BYTES / shape[0]};
    result = jpeg_decode(file->bytes, file->size, path, &options, &file->jpeg);
    file->channels = file->jpeg.channels;
    file->height = file->jpeg.height;
    file->width = file->jpeg.width;
    file->pixels = file->jpeg.pixels;
    return result;
}

void image_file_free(struct image_file *file)
{
    free(file->bytes);
    jpeg_image_free(&file->jpeg);
    png_rgb_free(&file->png);
    *file = (struct image_file){0};
}
