/* Variable-length byte elements found in the file itself (HDF5 file format, global heap): the
   heap ID a contiguous dataset stores for each element, and where its object's bytes lie in the
   collection the ID names. */
#ifndef FUEL_GLOBAL_HEAP_H
#define FUEL_GLOBAL_HEAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What a contiguous variable-length dataset stores for one element: its length (in base-type
   elements), the address of its global heap collection and the object's index there. */
struct global_heap_id {
    uint32_t length;
    uint64_t collection;
    uint32_t object;
};

/* Bytes of one stored heap ID (8-byte file offsets, as h5py writes them). */
#define GLOBAL_HEAP_ID_BYTES 16

void global_heap_id_decode(const unsigned char bytes[GLOBAL_HEAP_ID_BYTES],
                           struct global_heap_id *id);

/* Called with each object of a collection: its index, where its bytes lie, their count; false
   stops the walk. */
typedef bool (*global_heap_visit)(void *context, uint32_t index, uint64_t offset, uint64_t size);

/* Walks the collection at COLLECTION in the file open as DESCRIPTOR (FILE_SIZE bytes), calling
   VISIT for its objects in order up to its free space. False when the collection or an object's
   header is malformed or outside the file (objects before it may have been visited). */
bool global_heap_walk(int descriptor, uint64_t file_size, uint64_t collection,
                      global_heap_visit visit, void *context);

/* Where the bytes of ID's object lie in the file open as DESCRIPTOR, FILE_SIZE bytes long: true
   with *OFFSET set when the collection and the object are well formed, inside the file and the
   object holds ID's length bytes; false otherwise (the caller reads through HDF5, which says what
   is wrong). */
bool global_heap_locate(int descriptor, uint64_t file_size, const struct global_heap_id *id,
                        uint64_t *offset);

#endif
