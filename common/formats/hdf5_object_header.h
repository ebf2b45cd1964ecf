/* Checks an HDF5 object header's chunks against the file's size before libhdf5 loads it; walks
   its messages. */
#ifndef FUEL_HDF5_OBJECT_HEADER_H
#define FUEL_HDF5_OBJECT_HEADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Copies SIZE bytes at file offset OFFSET into BUFFER; false when they are not all in the file. */
typedef bool (*hdf5_read_bytes)(void *source, uint64_t offset, void *buffer, size_t size);

struct hdf5_layout {
    uint64_t base;         /* where addresses count from: the user block's size */
    uint64_t size;         /* of the whole file */
    unsigned offset_size;  /* bytes of an address (superblock), 1 to 8 */
    unsigned length_size;  /* bytes of a length, 1 to 8 */
    hdf5_read_bytes read;
    void *source;
};

/* What hdf5_object_header_check returns when ADDRESS holds no object header at all. */
extern const char hdf5_no_object_header[];

/* libhdf5 (1.10) allocates each continuation chunk of an object header at the length the header
   declares, before reading it and without comparing it with the file's end: a forged length made
   it ask for terabytes. This walks the header at ADDRESS (version 1 or 2) and every chunk it
   chains to, and returns NULL when each lies inside the file and there are at most 1024, else
   why not. Nothing is allocated. */
const char *hdf5_object_header_check(const struct hdf5_layout *layout, uint64_t address);

/* Called with each message of a header but its continuations: its type, the file offset of its
   data and their size (inside its chunk); false stops the walk. */
typedef bool (*hdf5_message_visit)(void *context, unsigned type, uint64_t offset, uint64_t size);

/* As hdf5_object_header_check, VISIT shown each message as the walk meets it. */
const char *hdf5_object_header_walk(const struct hdf5_layout *layout, uint64_t address,
                                    hdf5_message_visit visit, void *context);

#endif
