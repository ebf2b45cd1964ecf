/* An unlinked scratch file for bytes whose final place is only known later. */
#include "spool.h"

#include "common/base/error.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

struct spool {
    int descriptor;
    uint64_t size;
    char directory[4096];
};

/* O_TMPFILE where the file system has it; otherwise a named file unlinked at once. */
static int open_unlinked(const char *directory)
{
    int descriptor = open(directory, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (descriptor >= 0)
        return descriptor;
    char path[4200];
    snprintf(path, sizeof path, "%s/.fuel-spool.XXXXXX", directory);
    descriptor = mkostemp(path, O_CLOEXEC);
    if (descriptor >= 0)
        unlink(path);
    return descriptor;
}

int spool_create(struct spool **spool, const char *directory)
{
    if (directory == NULL)
        directory = getenv("TMPDIR") != NULL && getenv("TMPDIR")[0] != '\0' ? getenv("TMPDIR")
                                                                           : "/tmp";
    *spool = calloc(1, sizeof **spool);
    if (*spool == NULL)
        return error_set(EXIT_OTHER, "cannot create scratch file: %s: out of memory", directory);
    snprintf((*spool)->directory, sizeof (*spool)->directory, "%s", directory);
    (*spool)->descriptor = open_unlinked(directory);
    if ((*spool)->descriptor < 0) {
        int code = error_set(EXIT_WRITE, "cannot create scratch file: %s: %s", directory,
                             strerror(errno));
        free(*spool);
        *spool = NULL;
        return code;
    }
    return EXIT_OK;
}

int spool_append(struct spool *spool, const void *data, size_t size, uint64_t *offset)
{
    if (offset != NULL)
        *offset = spool->size;
    const unsigned char *cursor = data;
    while (size > 0) {
        ssize_t written = pwrite(spool->descriptor, cursor, size, (off_t)spool->size);
        if (written < 0 && errno == EINTR)
            continue;
        if (written <= 0)
            return error_set(EXIT_WRITE, "cannot write scratch file: %s: %s", spool->directory,
                             written < 0 ? strerror(errno) : "no space written");
        cursor += written;
        size -= (size_t)written;
        spool->size += (uint64_t)written;
    }
    return EXIT_OK;
}

int spool_read(struct spool *spool, uint64_t offset, void *buffer, size_t size)
{
    unsigned char *cursor = buffer;
    while (size > 0) {
        ssize_t count = pread(spool->descriptor, cursor, size, (off_t)offset);
        if (count < 0 && errno == EINTR)
            continue;
        if (count <= 0)
            return error_set(EXIT_WRITE, "cannot read back scratch file: %s: %s",
                             spool->directory, count < 0 ? strerror(errno) : "ends early");
        cursor += count;
        offset += (uint64_t)count;
        size -= (size_t)count;
    }
    return EXIT_OK;
}

static uint64_t page_size(void)
{
    long size = sysconf(_SC_PAGESIZE);
    return size > 0 ? (uint64_t)size : 4096;
}

int spool_map(struct spool *spool, uint64_t offset, size_t size, struct spool_view *view)
{
    *view = (struct spool_view){0};
    if (size == 0 || offset > spool->size || size > spool->size - offset)
        return error_set(EXIT_OTHER, "cannot map scratch file: %s: outside what it holds",
                         spool->directory);
    uint64_t start = offset - offset % page_size();
    size_t length = (size_t)(offset - start) + size;
    void *base = mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_PRIVATE, spool->descriptor,
                      (off_t)start);
    if (base == MAP_FAILED)
        return error_set(EXIT_OTHER, "cannot map scratch file: %s: %s", spool->directory,
                         strerror(errno));
    *view = (struct spool_view){(unsigned char *)base + (offset - start), size, base, length};
    return EXIT_OK;
}

void spool_view_forget(struct spool_view *view, size_t from, size_t size)
{
    uint64_t page = page_size();
    uint64_t begin = (uint64_t)(view->bytes - (unsigned char *)view->base) + from;
    uint64_t end = begin + size;
    begin = (begin + page - 1) / page * page;
    end = end / page * page;
    if (end > begin)
        madvise((unsigned char *)view->base + begin, (size_t)(end - begin), MADV_DONTNEED);
}

void spool_unmap(struct spool_view *view)
{
    if (view->base != NULL)
        munmap(view->base, view->length);
    *view = (struct spool_view){0};
}

int spool_reset(struct spool *spool)
{
    spool->size = 0;
    if (ftruncate(spool->descriptor, 0) != 0)
        return error_set(EXIT_WRITE, "cannot reuse scratch file: %s: %s", spool->directory,
                         strerror(errno));
    return EXIT_OK;
}

void spool_close(struct spool *spool)
{
    if (spool == NULL)
        return;
    close(spool->descriptor);
    free(spool);
}
