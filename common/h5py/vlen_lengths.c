/* Reads the lengths stored variable-length strings declare through a conversion function HDF5
   hands their stored form (HDF5 file format specification: a variable-length datum is its length,
   4 bytes little-endian, then its global heap ID). */
#include "vlen_lengths.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* The opaque memory types the conversion writes: a uint64_t length for each element, or the
   stored form itself (VLEN_HEAP_ID_BYTES: 8-byte file addresses). */
#define LENGTHS_TAG "fuel: declared lengths of variable-length strings"
#define HEAP_IDS_TAG "fuel: stored heap IDs of variable-length strings"

static bool tagged(hid_t type, const char *name)
{
    char *tag = H5Tget_class(type) == H5T_OPAQUE ? H5Tget_tag(type) : NULL;
    bool ours = tag != NULL && strcmp(tag, name) == 0;
    H5free_memory(tag);
    return ours;
}

/* Converts stored variable-length strings of SOURCE to their declared lengths in place: each
   destination element (8 bytes) starts at or before its source element, so a forward pass
   reads every source before it is written over. */
static herr_t lengths_convert(hid_t source, hid_t destination, H5T_cdata_t *data, size_t count,
                              size_t stride, size_t background_stride, void *buffer,
                              void *background, hid_t transfer)
{
    (void)background_stride, (void)background, (void)transfer;
    size_t source_size = H5Tget_size(source);
    if (data->command == H5T_CONV_INIT) {
        data->need_bkg = H5T_BKG_NO;
        bool lengths = source_size >= sizeof(uint64_t) && tagged(destination, LENGTHS_TAG);
        bool ids = source_size == VLEN_HEAP_ID_BYTES && tagged(destination, HEAP_IDS_TAG);
        return H5Tis_variable_str(source) > 0 && (lengths || ids) ? 0 : -1;
    }
    /* The stored heap IDs are the destination's bytes as they are. */
    if (data->command != H5T_CONV_CONV || !tagged(destination, LENGTHS_TAG))
        return 0;
    unsigned char *bytes = buffer;
    size_t source_step = stride > 0 ? stride : source_size;
    size_t step = stride > 0 ? stride : sizeof(uint64_t);
    for (size_t index = 0; index < count; index++) {
        const unsigned char *stored = bytes + index * source_step;
        uint64_t length = stored[0] | (uint64_t)stored[1] << 8 | (uint64_t)stored[2] << 16 |
                          (uint64_t)stored[3] << 24;
        memcpy(bytes + index * step, &length, sizeof length);
    }
    return 0;
}

static hid_t lengths_type, heap_ids_type;

static hid_t tagged_type(size_t size, const char *tag)
{
    hid_t type = H5Tcreate(H5T_OPAQUE, size);
    if (type >= 0 && H5Tset_tag(type, tag) < 0) {
        H5Tclose(type);
        return -1;
    }
    return type;
}

static void lengths_register(void)
{
    hid_t lengths = tagged_type(sizeof(uint64_t), LENGTHS_TAG);
    hid_t ids = tagged_type(VLEN_HEAP_ID_BYTES, HEAP_IDS_TAG), variable = H5Tcopy(H5T_C_S1);
    if (lengths >= 0 && ids >= 0 && variable >= 0 && H5Tset_size(variable, H5T_VARIABLE) >= 0 &&
        H5Tregister(H5T_PERS_SOFT, "fuel declared lengths", variable, lengths,
                    lengths_convert) >= 0 &&
        H5Tregister(H5T_PERS_SOFT, "fuel stored heap IDs", variable, ids, lengths_convert) >= 0) {
        lengths_type = lengths;
        heap_ids_type = ids;
    }
    if (variable >= 0)
        H5Tclose(variable);
}

static pthread_once_t registered = PTHREAD_ONCE_INIT;

/* Whether ATTRIBUTE (or DATASET when ATTRIBUTE is negative) holds COUNT elements: HDF5 writes
   them all into the buffer given. */
static bool holds(hid_t attribute, hid_t dataset, size_t count)
{
    hid_t space = attribute >= 0 ? H5Aget_space(attribute) : H5Dget_space(dataset);
    hssize_t points = space >= 0 ? H5Sget_simple_extent_npoints(space) : -1;
    if (space >= 0)
        H5Sclose(space);
    return points >= 0 && (size_t)points == count;
}

int vlen_heap_id_read(hid_t attribute, unsigned char id[VLEN_HEAP_ID_BYTES])
{
    pthread_once(&registered, lengths_register);
    return heap_ids_type > 0 && holds(attribute, -1, 1) &&
                   H5Aread(attribute, heap_ids_type, id) >= 0
               ? 0
               : -1;
}

int vlen_lengths_read(hid_t attribute, hid_t dataset, size_t count, uint64_t *total,
                      uint64_t *longest)
{
    pthread_once(&registered, lengths_register);
    *total = *longest = 0;
    uint64_t *lengths = lengths_type > 0 && holds(attribute, dataset, count)
                            ? calloc(count > 0 ? count : 1, sizeof *lengths)
                            : NULL;
    herr_t read = lengths == NULL ? -1
                  : attribute >= 0 ? H5Aread(attribute, lengths_type, lengths)
                                   : H5Dread(dataset, lengths_type, H5S_ALL, H5S_ALL, H5P_DEFAULT,
                                             lengths);
    for (size_t index = 0; read >= 0 && index < count; index++) {
        *total += lengths[index];
        *longest = lengths[index] > *longest ? lengths[index] : *longest;
    }
    free(lengths);
    return read >= 0 ? 0 : -1;
}
