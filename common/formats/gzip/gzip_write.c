/* Writes a gzip member with an optional header comment through zlib's deflate (see gzip_write.h):
   zlib's gzopen cannot set a comment. */
#include "gzip_write.h"

#include "common/base/error.h"

#include <errno.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

enum { BLOCK_BYTES = 1 << 16, UNIX = 3 };

struct gzip_writer {
    FILE *file;
    z_stream stream;
    gz_header header;
    char *comment;
    char path[4096];
    bool failed;
    int error_number; /* errno of the first failed write or close; 0: deflate failed */
    unsigned char pending[BLOCK_BYTES]; /* small writes gathered before deflate sees them */
    size_t pending_size;
};

static void writer_free(struct gzip_writer *writer)
{
    free(writer->comment);
    free(writer);
}

int gzip_writer_open(struct gzip_writer **writer, const char *path, const char *comment)
{
    *writer = calloc(1, sizeof **writer);
    if (*writer == NULL)
        return error_set(EXIT_OTHER, "cannot write: %s: out of memory", path);
    struct gzip_writer *opened = *writer;
    snprintf(opened->path, sizeof opened->path, "%s", path);
    /* As gzopen writes it: no time, Unix, no name. */
    opened->header.os = UNIX;
    bool ready = comment == NULL || (opened->comment = strdup(comment)) != NULL;
    opened->header.comment = (Bytef *)opened->comment;
    if (ready && deflateInit2(&opened->stream, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) !=
                     Z_OK)
        ready = false;
    else if (ready && deflateSetHeader(&opened->stream, &opened->header) != Z_OK) {
        deflateEnd(&opened->stream);
        ready = false;
    }
    if (ready && (opened->file = fopen(path, "wb")) == NULL)
        deflateEnd(&opened->stream);
    if (!ready || opened->file == NULL) {
        writer_free(opened);
        *writer = NULL;
        return error_set(EXIT_WRITE, "cannot write: %s: %s", path,
                         ready ? strerror(errno) : "cannot start deflate");
    }
    return EXIT_OK;
}

static void writer_fail(struct gzip_writer *writer, int error_number)
{
    if (!writer->failed)
        writer->error_number = error_number;
    writer->failed = true;
}

const char *gzip_writer_reason(const struct gzip_writer *writer)
{
    return writer->error_number != 0 ? strerror(writer->error_number) : "gzip write failed";
}

/* Writes SIZE bytes with write(2) itself, as zlib's gzwrite does (stdio's buffering would add
   nothing: deflate's output comes in 64 KiB blocks); false with errno set when it fails. */
static bool write_all(int descriptor, const unsigned char *bytes, size_t size)
{
    while (size > 0) {
        ssize_t written = write(descriptor, bytes, size);
        if (written < 0 && errno == EINTR)
            continue;
        if (written <= 0) {
            errno = written == 0 ? EIO : errno;
            return false;
        }
        bytes += written;
        size -= (size_t)written;
    }
    return true;
}

/* Runs deflate over the pending input with FLUSH, writing what it produces. */
static void deflate_pending(struct gzip_writer *writer, int flush)
{
    unsigned char output[BLOCK_BYTES];
    int status;
    do {
        writer->stream.next_out = output;
        writer->stream.avail_out = sizeof output;
        status = deflate(&writer->stream, flush);
        size_t produced = sizeof output - writer->stream.avail_out;
        if (status == Z_STREAM_ERROR)
            writer->failed = true;
        else if (!write_all(fileno(writer->file), output, produced))
            writer_fail(writer, errno);
    } while (!writer->failed && (writer->stream.avail_out == 0 ||
                                 (flush == Z_FINISH && status != Z_STREAM_END)));
}

static void deflate_bytes(struct gzip_writer *writer, const unsigned char *bytes, size_t size,
                          int flush)
{
    do {
        uInt part = size > (1u << 30) ? (1u << 30) : (uInt)size;
        writer->stream.next_in = (Bytef *)bytes;
        writer->stream.avail_in = part;
        deflate_pending(writer, part == size ? flush : Z_NO_FLUSH);
        bytes += part;
        size -= part;
    } while (size > 0 && !writer->failed);
}

int gzip_writer_write(struct gzip_writer *writer, const void *data, size_t size)
{
    if (writer->pending_size + size > sizeof writer->pending) {
        deflate_bytes(writer, writer->pending, writer->pending_size, Z_NO_FLUSH);
        writer->pending_size = 0;
    }
    if (size > sizeof writer->pending)
        deflate_bytes(writer, data, size, Z_NO_FLUSH);
    else if (size > 0) {
        memcpy(writer->pending + writer->pending_size, data, size);
        writer->pending_size += size;
    }
    return writer->failed ? error_set(EXIT_WRITE, "cannot write: %s: %s", writer->path,
                                      gzip_writer_reason(writer))
                          : EXIT_OK;
}

int gzip_writer_close(struct gzip_writer *writer)
{
    if (!writer->failed)
        deflate_bytes(writer, writer->pending, writer->pending_size, Z_FINISH);
    deflateEnd(&writer->stream);
    if (fclose(writer->file) != 0)
        writer_fail(writer, errno);
    int result = writer->failed ? error_set(EXIT_WRITE, "cannot write: %s: %s", writer->path,
                                            gzip_writer_reason(writer))
                                : EXIT_OK;
    writer_free(writer);
    return result;
}
