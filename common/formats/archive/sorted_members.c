/* Sorts an archive's members by name through an unlinked scratch file (see sorted_members.h).
   An ILSVRC per-class tar (at most ~1,300 images, ~150 MB) is rewritten into the scratch file
   just before it is read back, so its pages are still cached and, the file emptied for the next
   one, rarely reach the disk. */
#include "sorted_members.h"

#include "common/base/error.h"
#include "common/formats/spool.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

enum { COPY_BLOCK = 1 << 20 };

struct member_place {
    size_t name;     /* offset of its name in the names arena */
    uint64_t offset; /* of its bytes in the spool */
    uint64_t size;
};

struct sorted_members {
    struct sorted_members_limits limits;
    struct spool *spool;
    struct member_place *places;
    size_t count;
    size_t capacity;
    char *names; /* NUL-terminated names, one after the other */
    size_t names_used;
    size_t names_capacity;
    unsigned char *block;
};

int sorted_members_create(struct sorted_members **sorted, const char *directory,
                          const struct sorted_members_limits *limits)
{
    *sorted = calloc(1, sizeof **sorted);
    if (*sorted == NULL || ((*sorted)->block = malloc(COPY_BLOCK)) == NULL) {
        free(*sorted);
        *sorted = NULL;
        return error_set(EXIT_OTHER, "cannot sort archive members: out of memory");
    }
    (*sorted)->limits = *limits;
    int result = spool_create(&(*sorted)->spool, directory);
    if (result != EXIT_OK) {
        sorted_members_free(*sorted);
        *sorted = NULL;
    }
    return result;
}

static void forget_members(struct sorted_members *sorted)
{
    sorted->count = 0;
    sorted->names_used = 0;
}

static int out_of_memory(void)
{
    return error_set(EXIT_OTHER, "cannot sort archive members: out of memory");
}

static int keep_name(struct sorted_members *sorted, const char *name, size_t *offset)
{
    size_t length = strlen(name) + 1;
    if (sorted->names_capacity - sorted->names_used < length) {
        size_t capacity = sorted->names_capacity == 0 ? 65536 : sorted->names_capacity;
        while (capacity - sorted->names_used < length)
            capacity *= 2;
        char *grown = realloc(sorted->names, capacity);
        if (grown == NULL)
            return out_of_memory();
        sorted->names = grown;
        sorted->names_capacity = capacity;
    }
    *offset = sorted->names_used;
    memcpy(sorted->names + sorted->names_used, name, length);
    sorted->names_used += length;
    return EXIT_OK;
}

static int add_place(struct sorted_members *sorted, const struct member_place *place)
{
    if (sorted->count == sorted->capacity) {
        size_t capacity = sorted->capacity == 0 ? 1024 : sorted->capacity * 2;
        struct member_place *grown = realloc(sorted->places, capacity * sizeof *grown);
        if (grown == NULL)
            return out_of_memory();
        sorted->places = grown;
        sorted->capacity = capacity;
    }
    sorted->places[sorted->count++] = *place;
    return EXIT_OK;
}

/* Copies the current member of STREAM to the end of the spool. */
static int copy_member(struct sorted_members *sorted, struct archive_stream *stream,
                       const char *archive_name, const char *name, struct member_place *place)
{
    place->size = 0;
    for (;;) {
        size_t read;
        int result = archive_stream_read(stream, sorted->block, COPY_BLOCK, &read);
        if (result != EXIT_OK || read == 0)
            return result;
        place->size += read;
        if (place->size > sorted->limits.maximum_member_bytes)
            return error_set(EXIT_CORRUPT_INPUT, "refusing archive member: %s: %s: more than "
                             "%" PRIu64 " bytes", archive_name, name,
                             sorted->limits.maximum_member_bytes);
        if ((result = spool_append(sorted->spool, sorted->block, read, NULL)) != EXIT_OK)
            return result;
    }
}

/* qsort_r's comparison of two places by their names in the arena NAMES. */
static int compare_places(const void *left, const void *right, void *names)
{
    const struct member_place *first = left, *second = right;
    return strcmp((const char *)names + first->name, (const char *)names + second->name);
}

/* Sorts the places by name (bytes compared: UTF-8 sorts as Python sorts its code points). */
static int sort_places(struct sorted_members *sorted, const char *archive_name)
{
    if (sorted->count > 1)
        qsort_r(sorted->places, sorted->count, sizeof *sorted->places, compare_places,
                sorted->names);
    for (size_t rank = 1; rank < sorted->count; rank++)
        if (strcmp(sorted->names + sorted->places[rank - 1].name,
                   sorted->names + sorted->places[rank].name) == 0)
            return error_set(EXIT_CORRUPT_INPUT, "cannot read archive: %s: member %s comes "
                             "twice", archive_name, sorted->names + sorted->places[rank].name);
    return EXIT_OK;
}

int sorted_members_collect(struct sorted_members *sorted, struct archive_stream *stream,
                           const char *archive_name)
{
    forget_members(sorted);
    int result = spool_reset(sorted->spool);
    uint64_t offset = 0;
    while (result == EXIT_OK) {
        const char *name;
        uint64_t declared;
        if ((result = archive_stream_next(stream, &name, &declared)) != EXIT_OK || name == NULL)
            break;
        if (sorted->count == sorted->limits.maximum_members)
            return error_set(EXIT_CORRUPT_INPUT, "cannot read archive: %s: more than %zu "
                             "members", archive_name, sorted->limits.maximum_members);
        struct member_place place = {.offset = offset};
        result = keep_name(sorted, name, &place.name);
        if (result == EXIT_OK)
            result = copy_member(sorted, stream, archive_name, name, &place);
        if (result == EXIT_OK)
            result = add_place(sorted, &place);
        offset += place.size;
    }
    return result == EXIT_OK ? sort_places(sorted, archive_name) : result;
}

static int list_headers(struct sorted_members *sorted, struct archive *archive, const char *path)
{
    for (;;) {
        struct archive_entry *entry;
        int status = archive_read_next_header(archive, &entry);
        if (status == ARCHIVE_EOF)
            return EXIT_OK;
        const char *name = status == ARCHIVE_OK || status == ARCHIVE_WARN
                               ? archive_entry_pathname(entry)
                               : NULL;
        if (name == NULL) {
            const char *reason = archive_error_string(archive);
            return error_set(EXIT_CORRUPT_INPUT, "cannot read archive: %s: %s", path,
                             reason != NULL ? reason : "unreadable archive");
        }
        if (archive_entry_filetype(entry) != AE_IFREG)
            continue;
        if (sorted->count == sorted->limits.maximum_members)
            return error_set(EXIT_CORRUPT_INPUT, "cannot read archive: %s: more than %zu "
                             "members", path, sorted->limits.maximum_members);
        struct member_place place = {0};
        int result = keep_name(sorted, name, &place.name);
        if (result == EXIT_OK)
            result = add_place(sorted, &place);
        if (result != EXIT_OK)
            return result;
    }
}

int sorted_members_list(struct sorted_members *sorted, const char *path)
{
    forget_members(sorted);
    struct archive *archive = archive_read_new();
    if (archive == NULL)
        return out_of_memory();
    archive_read_support_filter_gzip(archive);
    archive_read_support_format_tar(archive);
    int result;
    if (archive_read_open_filename(archive, path, COPY_BLOCK) != ARCHIVE_OK)
        result = error_set(archive_errno(archive) == ENOENT ? EXIT_MISSING_INPUT
                                                            : EXIT_CORRUPT_INPUT,
                           "cannot open archive: %s: %s", path,
                           archive_error_string(archive) != NULL ? archive_error_string(archive)
                                                                 : "unreadable archive");
    else
        result = list_headers(sorted, archive, path);
    archive_read_free(archive);
    return result == EXIT_OK ? sort_places(sorted, path) : result;
}

bool sorted_members_rank(const struct sorted_members *sorted, const char *name, size_t *rank)
{
    size_t low = 0, high = sorted->count;
    while (low < high) {
        size_t middle = low + (high - low) / 2;
        int order = strcmp(sorted->names + sorted->places[middle].name, name);
        if (order == 0) {
            *rank = middle;
            return true;
        }
        if (order < 0)
            low = middle + 1;
        else
            high = middle;
    }
    return false;
}

size_t sorted_members_count(const struct sorted_members *sorted)
{
    return sorted->count;
}

const char *sorted_members_name(const struct sorted_members *sorted, size_t rank)
{
    return sorted->names + sorted->places[rank].name;
}

uint64_t sorted_members_size(const struct sorted_members *sorted, size_t rank)
{
    return sorted->places[rank].size;
}

int sorted_members_read(struct sorted_members *sorted, size_t rank, void *buffer)
{
    const struct member_place *place = &sorted->places[rank];
    return spool_read(sorted->spool, place->offset, buffer, (size_t)place->size);
}

void sorted_members_free(struct sorted_members *sorted)
{
    if (sorted == NULL)
        return;
    spool_close(sorted->spool);
    free(sorted->places);
    free(sorted->names);
    free(sorted->block);
    free(sorted);
}
