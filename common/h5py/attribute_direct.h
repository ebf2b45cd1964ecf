/* A root attribute holding one variable-length string, read from the file itself: its attribute
   message found in the root group's object header, its bytes where the global heap keeps them,
   read once into a buffer of their length (H5Aread made four copies of a 200 MB provenance), and
   their length known, and capped, before anything is allocated. */
#ifndef FUEL_ATTRIBUTE_DIRECT_H
#define FUEL_ATTRIBUTE_DIRECT_H

#include <hdf5.h>
#include <stdint.h>

enum attribute_direct_answer {
    ATTRIBUTE_DIRECT_READ,      /* *VALUE holds its text (caller frees) */
    ATTRIBUTE_DIRECT_UNSEEN,    /* not laid out as read here: read it through HDF5 */
    ATTRIBUTE_DIRECT_TOO_LONG,  /* its heap ID declares more than LIMIT bytes (*LENGTH) */
    ATTRIBUTE_DIRECT_MALFORMED, /* its heap ID names no object of its length inside the file */
    ATTRIBUTE_DIRECT_NO_MEMORY,
};

/* The root attribute NAME of FILE (HDF5's handle), a variable-length string: read as above when
   FILE uses 8-byte offsets and lengths, no user block, the sec2 or the tapped driver
   (hdf5_tapped_driver.h), and NAME's message is in the root group's header with its datatype
   and dataspace unshared. */
enum attribute_direct_answer attribute_direct_read(hid_t file, const char *name, uint64_t limit,
                                                   char **value, uint64_t *length);

/* The global heap object HEAP_ID (GLOBAL_HEAP_ID_BYTES, as stored) names, read from FILE itself
   into a new *VALUE as attribute_direct_read does (its length checked by the caller): for an
   attribute HDF5 found elsewhere, whose string HDF5 1.10 would read through a collection walk
   that loops without end on some damaged files. ATTRIBUTE_DIRECT_UNSEEN when FILE is not laid
   out as read here. */
enum attribute_direct_answer attribute_direct_heap_read(hid_t file, const unsigned char *heap_id,
                                                        char **value);

#endif
