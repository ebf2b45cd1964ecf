/* Reads a root variable-length string attribute straight from the file (HDF5 file format
   specification: the attribute message, version 1 to 3, and the global heap). */
#include "attribute_direct.h"

#include "common/formats/hdf5_object_header.h"
#include "global_heap.h"
#include "hdf5_tapped_driver.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum {
    ATTRIBUTE_MESSAGE = 0x0C,
    VARIABLE_LENGTH_CLASS = 9,
    SHARED_PARTS = 0x03, /* the datatype or the dataspace shared: not in the message */
};

struct search {
    int descriptor;
    const char *name;
    uint64_t file_size;
    bool found;
    unsigned char heap_id[GLOBAL_HEAP_ID_BYTES];
};

static bool raw_read(void *source, uint64_t offset, void *buffer, size_t size)
{
    const struct search *search = source;
    return pread(search->descriptor, buffer, size, (off_t)offset) == (ssize_t)size;
}

static uint64_t padded(uint64_t size, bool eight)
{
    return eight ? (size + 7) / 8 * 8 : size;
}

/* An attribute message at OFFSET (SIZE bytes): when it is NAME's, a variable-length string of
   unshared type and space, its heap ID is kept and the walk stops. */
static bool attribute_seen(void *context, unsigned type, uint64_t offset, uint64_t size)
{
    struct search *search = context;
    unsigned char head[9];
    size_t name_length = strlen(search->name) + 1;
    if (type != ATTRIBUTE_MESSAGE || size < sizeof head || !raw_read(search, offset, head, 9))
        return true;
    unsigned version = head[0];
    uint64_t name_size = head[2] | (uint64_t)head[3] << 8;
    uint64_t type_size = head[4] | (uint64_t)head[5] << 8;
    uint64_t space_size = head[6] | (uint64_t)head[7] << 8;
    uint64_t name_at = version == 3 ? 9 : 8;
    if (version < 1 || version > 3 || (version > 1 && (head[1] & SHARED_PARTS) != 0) ||
        name_size != name_length)
        return true;
    char name[256];
    uint64_t type_at = name_at + padded(name_size, version == 1);
    uint64_t data_at = type_at + padded(type_size, version == 1) + padded(space_size, version == 1);
    unsigned char datatype[2];
    if (name_length > sizeof name || data_at > size || size - data_at < GLOBAL_HEAP_ID_BYTES ||
        type_size < sizeof datatype || !raw_read(search, offset + name_at, name, name_length) ||
        memcmp(name, search->name, name_length) != 0)
        return true;
    /* Ours: it is a variable-length string, or HDF5 reads it. */
    if (raw_read(search, offset + type_at, datatype, sizeof datatype) &&
        (datatype[0] & 0x0f) == VARIABLE_LENGTH_CLASS && (datatype[1] & 0x0f) == 1 &&
        raw_read(search, offset + data_at, search->heap_id, GLOBAL_HEAP_ID_BYTES))
        search->found = true;
    return false;
}

/* FILE's descriptor when it is laid out as read here; -1 otherwise. */
static int direct_descriptor(hid_t file)
{
    hid_t creation = H5Fget_create_plist(file), access = H5Fget_access_plist(file);
    size_t offsets = 0, lengths = 0;
    hsize_t user_block = 1;
    int *handle = NULL;
    hid_t driver = access >= 0 ? H5Pget_driver(access) : -1;
    bool direct = creation >= 0 && access >= 0 && driver >= 0 &&
                  H5Pget_sizes(creation, &offsets, &lengths) >= 0 && offsets == 8 &&
                  lengths == 8 && H5Pget_userblock(creation, &user_block) >= 0 &&
                  user_block == 0 && (driver == H5FD_SEC2 || driver == hdf5_tapped_driver()) &&
                  H5Fget_vfd_handle(file, access, (void **)&handle) >= 0 && handle != NULL;
    if (creation >= 0)
        H5Pclose(creation);
    if (access >= 0)
        H5Pclose(access);
    return direct ? *handle : -1;
}

/* The object ID names, of LENGTH bytes, into a new NUL-terminated *VALUE. */
static enum attribute_direct_answer object_read(const struct search *search,
                                                const struct global_heap_id *id, char **value)
{
    uint64_t offset = 0;
    if (id->length > 0 &&
        !global_heap_locate(search->descriptor, search->file_size, id, &offset))
        return ATTRIBUTE_DIRECT_MALFORMED;
    if ((*value = malloc((size_t)id->length + 1)) == NULL)
        return ATTRIBUTE_DIRECT_NO_MEMORY;
    if (id->length > 0 &&
        pread(search->descriptor, *value, id->length, (off_t)offset) != (ssize_t)id->length) {
        free(*value);
        *value = NULL;
        return ATTRIBUTE_DIRECT_MALFORMED;
    }
    (*value)[id->length] = '\0';
    return ATTRIBUTE_DIRECT_READ;
}

enum attribute_direct_answer attribute_direct_read(hid_t file, const char *name, uint64_t limit,
                                                   char **value, uint64_t *length)
{
    *value = NULL;
    struct search search = {.descriptor = direct_descriptor(file), .name = name};
    struct stat status;
    H5O_info_t root;
    if (search.descriptor < 0 || fstat(search.descriptor, &status) != 0 ||
        H5Oget_info2(file, &root, H5O_INFO_BASIC) < 0)
        return ATTRIBUTE_DIRECT_UNSEEN;
    search.file_size = (uint64_t)status.st_size;
    struct hdf5_layout layout = {0, search.file_size, 8, 8, raw_read, &search};
    if (hdf5_object_header_walk(&layout, root.addr, attribute_seen, &search) != NULL ||
        !search.found)
        return ATTRIBUTE_DIRECT_UNSEEN;
    struct global_heap_id id;
    global_heap_id_decode(search.heap_id, &id);
    *length = id.length;
    if (id.length > limit)
        return ATTRIBUTE_DIRECT_TOO_LONG;
    return object_read(&search, &id, value);
}

enum attribute_direct_answer attribute_direct_heap_read(hid_t file, const unsigned char *heap_id,
                                                        char **value)
{
    *value = NULL;
    struct search search = {.descriptor = direct_descriptor(file)};
    struct stat status;
    if (search.descriptor < 0 || fstat(search.descriptor, &status) != 0)
        return ATTRIBUTE_DIRECT_UNSEEN;
    search.file_size = (uint64_t)status.st_size;
    struct global_heap_id id;
    global_heap_id_decode(heap_id, &id);
    return object_read(&search, &id, value);
}
