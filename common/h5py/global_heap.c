/* Walks a global heap collection's object headers with pread: every object, or the one wanted. */
#include "global_heap.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

/* A collection: "GCOL", version 1, 3 reserved bytes, its size (8 bytes) including this header;
   then objects: index (2 bytes), reference count (2), reserved (4), size (8), the data padded
   to a multiple of 8. Index 0 is the free space that ends the collection. */
enum { COLLECTION_HEADER = 16, OBJECT_HEADER = 16, MAX_OBJECTS = 65536 };

static uint64_t little_endian(const unsigned char *bytes, int count)
{
    uint64_t value = 0;
    for (int index = count - 1; index >= 0; index--)
        value = value << 8 | bytes[index];
    return value;
}

void global_heap_id_decode(const unsigned char bytes[GLOBAL_HEAP_ID_BYTES],
                           struct global_heap_id *id)
{
    id->length = (uint32_t)little_endian(bytes, 4);
    id->collection = little_endian(bytes + 4, 8);
    id->object = (uint32_t)little_endian(bytes + 12, 4);
}

static bool read_exactly(int descriptor, void *buffer, size_t size, uint64_t offset)
{
    unsigned char *into = buffer;
    while (size > 0) {
        ssize_t got = pread(descriptor, into, size, (off_t)offset);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return false;
        into += got;
        offset += (uint64_t)got;
        size -= (size_t)got;
    }
    return true;
}

bool global_heap_walk(int descriptor, uint64_t file_size, uint64_t collection,
                      global_heap_visit visit, void *context)
{
    unsigned char header[COLLECTION_HEADER];
    if (collection > file_size || file_size - collection < COLLECTION_HEADER + OBJECT_HEADER ||
        !read_exactly(descriptor, header, sizeof header, collection) ||
        memcmp(header, "GCOL", 4) != 0 || header[4] != 1)
        return false;
    uint64_t size = little_endian(header + 8, 8);
    if (size < COLLECTION_HEADER + OBJECT_HEADER || size > file_size - collection)
        return false;
    uint64_t end = collection + size, position = collection + COLLECTION_HEADER;
    for (int step = 0; step < MAX_OBJECTS && end - position >= OBJECT_HEADER; step++) {
        unsigned char object[OBJECT_HEADER];
        if (!read_exactly(descriptor, object, sizeof object, position))
            return false;
        uint64_t index = little_endian(object, 2), bytes = little_endian(object + 8, 8);
        uint64_t room = end - position - OBJECT_HEADER;
        if (index == 0)
            return true;
        if (bytes > room)
            return false;
        if (!visit(context, (uint32_t)index, position + OBJECT_HEADER, bytes))
            return true;
        uint64_t padded = (bytes + 7) & ~(uint64_t)7;
        if (padded > room)
            return true;
        position += OBJECT_HEADER + padded;
    }
    return true;
}

struct wanted {
    const struct global_heap_id *id;
    bool found;
    uint64_t offset, size;
};

static bool match(void *context, uint32_t index, uint64_t offset, uint64_t size)
{
    struct wanted *wanted = context;
    if (index != wanted->id->object)
        return true;
    *wanted = (struct wanted){wanted->id, true, offset, size};
    return false;
}

bool global_heap_locate(int descriptor, uint64_t file_size, const struct global_heap_id *id,
                        uint64_t *offset)
{
    struct wanted wanted = {.id = id};
    if (id->object == 0 || !global_heap_walk(descriptor, file_size, id->collection, match,
                                             &wanted) ||
        !wanted.found || wanted.size != id->length)
        return false;
    *offset = wanted.offset;
    return true;
}
