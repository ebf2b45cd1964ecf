/* Walks HDF5 object headers (format versions 1 and 2) and their continuation chunks, checking
   that each chunk lies inside the file, as the file format specification lays them out, and
   shows a caller their messages. */
#include "hdf5_object_header.h"

#include <string.h>

enum {
    MAXIMUM_CHUNKS = 1024,
    CONTINUATION_MESSAGE = 0x10,
    SYMBOL_TABLE_MESSAGE = 0x11,
    VERSION_1_PREFIX = 16,
    VERSION_1_MESSAGE_HEADER = 8,
    CHECKSUM_BYTES = 4,
    TIMES_STORED = 0x20,
    PHASE_CHANGE_STORED = 0x10,
    CREATION_ORDER_TRACKED = 0x04,
};

const char hdf5_no_object_header[] = "no object header there";

struct chunk {
    uint64_t start; /* file offset of its first message */
    uint64_t end;   /* file offset past its last message (before any checksum) */
};

struct walk {
    const struct hdf5_layout *layout;
    int version;
    unsigned flags;
    struct chunk chunks[MAXIMUM_CHUNKS];
    size_t count;
    hdf5_message_visit visit; /* NULL: none */
    void *context;
    bool stopped; /* VISIT asked to stop */
};

static uint64_t little_endian(const unsigned char *bytes, unsigned size)
{
    uint64_t value = 0;
    for (unsigned index = size; index > 0; index--)
        value = value << 8 | bytes[index - 1];
    return value;
}

/* The file offset of ADDRESS + SKIP, and whether LENGTH bytes from there are in the file. */
static bool locate(const struct hdf5_layout *layout, uint64_t address, uint64_t skip,
                   uint64_t length, uint64_t *offset)
{
    uint64_t size = layout->size;
    if (address > size || layout->base > size - address || skip > size - address - layout->base)
        return false;
    *offset = layout->base + address + skip;
    return length <= size - *offset;
}

static const char *add_chunk(struct walk *walk, uint64_t start, uint64_t end)
{
    if (walk->count == MAXIMUM_CHUNKS)
        return "more than 1024 object header chunks";
    walk->chunks[walk->count++] = (struct chunk){start, end};
    return NULL;
}

/* A continuation message's data: the chunk's address and length, which must lie in the file. */
static const char *follow(struct walk *walk, uint64_t data, uint64_t size)
{
    const struct hdf5_layout *layout = walk->layout;
    unsigned char bytes[16];
    if (size < layout->offset_size + layout->length_size ||
        !layout->read(layout->source, data, bytes, layout->offset_size + layout->length_size))
        return "continuation message cut short";
    uint64_t address = little_endian(bytes, layout->offset_size);
    uint64_t length = little_endian(bytes + layout->offset_size, layout->length_size);
    uint64_t offset;
    if (!locate(layout, address, 0, length, &offset))
        return "continuation chunk beyond the end of the file";
    if (walk->version == 1)
        return add_chunk(walk, offset, offset + length);
    unsigned char signature[4];
    if (length < sizeof signature + CHECKSUM_BYTES ||
        !layout->read(layout->source, offset, signature, sizeof signature) ||
        memcmp(signature, "OCHK", sizeof signature) != 0)
        return "continuation chunk without its signature";
    return add_chunk(walk, offset + sizeof signature, offset + length - CHECKSUM_BYTES);
}

/* A group's symbol table message: its local heap (names) must keep its data segment, which
   libhdf5 allocates at the size the heap declares, inside the file. */
static const char *check_local_heap(struct walk *walk, uint64_t data, uint64_t size)
{
    const struct hdf5_layout *layout = walk->layout;
    unsigned offset_size = layout->offset_size, length_size = layout->length_size;
    unsigned char bytes[32];
    if (size < 2 * offset_size ||
        !layout->read(layout->source, data + offset_size, bytes, offset_size))
        return "symbol table message cut short";
    uint64_t heap;
    if (!locate(layout, little_endian(bytes, offset_size), 0, 8 + 2 * length_size + offset_size,
                &heap) ||
        !layout->read(layout->source, heap, bytes, 8 + 2 * length_size + offset_size) ||
        memcmp(bytes, "HEAP", 4) != 0)
        return "local heap missing";
    uint64_t segment_size = little_endian(bytes + 8, length_size);
    uint64_t segment_address = little_endian(bytes + 8 + 2 * length_size, offset_size);
    uint64_t segment;
    if (!locate(layout, segment_address, 0, segment_size, &segment))
        return "local heap beyond the end of the file";
    return NULL;
}

/* The messages of CHUNK, following each continuation message. */
static const char *walk_chunk(struct walk *walk, const struct chunk *chunk)
{
    bool first_version = walk->version == 1;
    unsigned header = first_version ? VERSION_1_MESSAGE_HEADER
                                    : (walk->flags & CREATION_ORDER_TRACKED ? 6 : 4);
    for (uint64_t position = chunk->start; chunk->end - position >= header;) {
        unsigned char bytes[8];
        if (!walk->layout->read(walk->layout->source, position, bytes, header))
            return "object header message beyond the end of the file";
        unsigned type = first_version ? (unsigned)little_endian(bytes, 2) : bytes[0];
        uint64_t size = little_endian(bytes + (first_version ? 2 : 1), 2);
        if (size > chunk->end - position - header)
            return "object header message longer than its chunk";
        const char *why = NULL;
        if (type == CONTINUATION_MESSAGE)
            why = follow(walk, position + header, size);
        else if (type == SYMBOL_TABLE_MESSAGE)
            why = check_local_heap(walk, position + header, size);
        if (why == NULL && walk->visit != NULL &&
            !walk->visit(walk->context, type, position + header, size)) {
            walk->stopped = true;
            return NULL;
        }
        if (why != NULL)
            return why;
        position += header + size;
    }
    return NULL;
}

/* The first chunk of a version 2 header ("OHDR" already read at OFFSET). */
static const char *first_chunk_2(struct walk *walk, uint64_t offset)
{
    const struct hdf5_layout *layout = walk->layout;
    unsigned char bytes[2];
    if (!layout->read(layout->source, offset + 4, bytes, 2) || bytes[0] != 2)
        return hdf5_no_object_header;
    walk->flags = bytes[1];
    uint64_t position = offset + 6 + (walk->flags & TIMES_STORED ? 16 : 0) +
                        (walk->flags & PHASE_CHANGE_STORED ? 4 : 0);
    unsigned width = 1u << (walk->flags & 3);
    unsigned char size_bytes[8];
    if (!layout->read(layout->source, position, size_bytes, width))
        return "object header beyond the end of the file";
    uint64_t size = little_endian(size_bytes, width);
    position += width;
    if (position > layout->size || size > layout->size - position ||
        CHECKSUM_BYTES > layout->size - position - size)
        return "object header chunk beyond the end of the file";
    return add_chunk(walk, position, position + size);
}

static const char *first_chunk(struct walk *walk, uint64_t address)
{
    const struct hdf5_layout *layout = walk->layout;
    unsigned char prefix[VERSION_1_PREFIX];
    uint64_t offset;
    if (!locate(layout, address, 0, 4, &offset) || !layout->read(layout->source, offset, prefix, 4))
        return hdf5_no_object_header;
    if (memcmp(prefix, "OHDR", 4) == 0) {
        walk->version = 2;
        return first_chunk_2(walk, offset);
    }
    walk->version = 1;
    if (prefix[0] != 1 || !locate(layout, address, 0, VERSION_1_PREFIX, &offset) ||
        !layout->read(layout->source, offset, prefix, VERSION_1_PREFIX))
        return hdf5_no_object_header;
    uint64_t size = little_endian(prefix + 8, 4);
    if (!locate(layout, address, VERSION_1_PREFIX, size, &offset))
        return "object header chunk beyond the end of the file";
    return add_chunk(walk, offset, offset + size);
}

const char *hdf5_object_header_walk(const struct hdf5_layout *layout, uint64_t address,
                                    hdf5_message_visit visit, void *context)
{
    struct walk walk = {.layout = layout, .visit = visit, .context = context};
    if (layout->offset_size < 1 || layout->offset_size > 8 || layout->length_size < 1 ||
        layout->length_size > 8)
        return "unusual address or length size";
    const char *why = first_chunk(&walk, address);
    for (size_t index = 0; why == NULL && !walk.stopped && index < walk.count; index++)
        why = walk_chunk(&walk, &walk.chunks[index]);
    return why;
}

const char *hdf5_object_header_check(const struct hdf5_layout *layout, uint64_t address)
{
    return hdf5_object_header_walk(layout, address, NULL, NULL);
}
