/* Direct reads of variable-length byte examples: heap IDs and objects with pread. */
#include "h5py_vlen_direct.h"

#include "global_heap.h"
#include "hdf5_tapped_driver.h"

#include "common/base/input_file.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* Drivers whose handle is the file's descriptor, read here with pread. */
static bool tapped_or_sec2(hid_t driver)
{
    return driver == H5FD_SEC2 || driver == hdf5_tapped_driver();
}

/* Whether DATASET's elements are bytes whose heap IDs lie in one unfiltered block of a file of
   8-byte offsets and lengths without a user block, open with the sec2 or the tapped driver:
   *DESCRIPTOR is then HDF5's own descriptor of the file. */
static bool direct_layout(hid_t dataset, int *descriptor)
{
    hid_t properties = H5Dget_create_plist(dataset), stored = H5Dget_type(dataset);
    hid_t base = stored >= 0 ? H5Tget_super(stored) : -1, file = H5Iget_file_id(dataset);
    hid_t creation = file >= 0 ? H5Fget_create_plist(file) : -1;
    hid_t access = file >= 0 ? H5Fget_access_plist(file) : -1;
    size_t offsets = 0, lengths = 0;
    hsize_t user_block = 1;
    int *handle = NULL;
    bool direct = properties >= 0 && base >= 0 && creation >= 0 && access >= 0 &&
                  H5Pget_layout(properties) == H5D_CONTIGUOUS && H5Pget_nfilters(properties) == 0 &&
                  H5Pget_external_count(properties) == 0 && H5Tget_class(stored) == H5T_VLEN &&
                  H5Tget_size(base) == 1 && H5Pget_sizes(creation, &offsets, &lengths) >= 0 &&
                  offsets == 8 && lengths == 8 && H5Pget_userblock(creation, &user_block) >= 0 &&
                  user_block == 0 && tapped_or_sec2(H5Pget_driver(access)) &&
                  H5Fget_vfd_handle(file, access, (void **)&handle) >= 0 && handle != NULL;
    *descriptor = direct ? *handle : -1;
    hid_t lists[] = {properties, creation, access}, types[] = {base, stored};
    for (size_t index = 0; index < 3; index++)
        if (lists[index] >= 0)
            H5Pclose(lists[index]);
    for (size_t index = 0; index < 2; index++)
        if (types[index] >= 0)
            H5Tclose(types[index]);
    if (file >= 0)
        H5Fclose(file);
    return direct;
}

/* A collection's objects in their order: index, where their bytes lie, their count. */
struct heap_object {
    uint32_t index;
    uint64_t offset, size;
};

struct heap_table {
    uint64_t collection; /* 0: none listed (no collection starts at the superblock) */
    struct heap_object *objects;
    size_t count, capacity;
    size_t next; /* where the next lookup starts: examples usually follow their objects */
};

void h5py_vlen_direct_open(struct h5py_vlen_direct *direct, hid_t dataset, uint64_t count)
{
    *direct = (struct h5py_vlen_direct){.descriptor = -1, .count = count};
    int descriptor;
    struct stat status;
    haddr_t offset = H5Dget_offset(dataset);
    if (dataset < 0 || !direct_layout(dataset, &descriptor) || offset == HADDR_UNDEF ||
        H5Dget_storage_size(dataset) / GLOBAL_HEAP_ID_BYTES < count ||
        fstat(descriptor, &status) != 0 ||
        (direct->table = calloc(1, sizeof *direct->table)) == NULL)
        return;
    direct->descriptor = descriptor;
    direct->file_size = (uint64_t)status.st_size;
    direct->offset = offset;
}

static bool ids_read(const struct h5py_vlen_direct *direct, uint64_t first, size_t count,
                     unsigned char *ids)
{
    off_t position = (off_t)(direct->offset + first * GLOBAL_HEAP_ID_BYTES);
    return first <= direct->count && count <= direct->count - first &&
           input_file_pread(direct->descriptor, ids, count * GLOBAL_HEAP_ID_BYTES, position) ==
               (ssize_t)(count * GLOBAL_HEAP_ID_BYTES);
}

void h5py_vlen_direct_close(struct h5py_vlen_direct *direct)
{
    if (direct->table != NULL)
        free(direct->table->objects);
    free(direct->table);
    *direct = (struct h5py_vlen_direct){.descriptor = -1};
}

static bool object_listed(void *context, uint32_t index, uint64_t offset, uint64_t size)
{
    struct heap_table *table = context;
    if (table->count == table->capacity) {
        size_t capacity = table->capacity ? table->capacity * 2 : 64;
        struct heap_object *grown = realloc(table->objects, capacity * sizeof *grown);
        if (grown == NULL)
            return false;
        table->objects = grown;
        table->capacity = capacity;
    }
    table->objects[table->count++] = (struct heap_object){index, offset, size};
    return true;
}

/* Where ID's object lies, from its collection's table (listed now when it is another one). */
static bool object_find(const struct h5py_vlen_direct *direct, const struct global_heap_id *id,
                        uint64_t *offset)
{
    struct heap_table *table = direct->table;
    if (table->collection != id->collection) {
        table->collection = 0;
        table->count = table->next = 0;
        if (!global_heap_walk(direct->descriptor, direct->file_size, id->collection,
                              object_listed, table) ||
            table->count == 0)
            return false;
        table->collection = id->collection;
    }
    for (size_t step = 0; step < table->count; step++) {
        const struct heap_object *object = &table->objects[(table->next + step) % table->count];
        if (object->index == id->object) {
            table->next = (table->next + step + 1) % table->count;
            *offset = object->offset;
            return object->size == id->length;
        }
    }
    return false;
}

/* The object of ID (ID's length bytes) into a new buffer at *DATA; false with *DATA NULL. */
static bool object_read(const struct h5py_vlen_direct *direct, const struct global_heap_id *id,
                        void **data)
{
    uint64_t offset = 0;
    *data = malloc(id->length ? id->length : 1);
    bool read = *data != NULL &&
                (id->length == 0 ||
                 (object_find(direct, id, &offset) &&
                  input_file_pread(direct->descriptor, *data, id->length, (off_t)offset) ==
                      (ssize_t)id->length));
    if (!read) {
        free(*data);
        *data = NULL;
    }
    return read;
}

enum { IDS_AT_ONCE = 64 };

bool h5py_vlen_direct_read_run(const struct h5py_vlen_direct *direct, uint64_t first,
                               size_t length, const uint64_t *sizes, void **data)
{
    unsigned char ids[IDS_AT_ONCE * GLOBAL_HEAP_ID_BYTES];
    bool read = direct->table != NULL;
    size_t done = 0;
    for (; read && done < length; done++) {
        size_t slot = done % IDS_AT_ONCE;
        data[done] = NULL;
        if (slot == 0)
            read = ids_read(direct, first + done,
                            length - done < IDS_AT_ONCE ? length - done : IDS_AT_ONCE, ids);
        struct global_heap_id id;
        global_heap_id_decode(ids + slot * GLOBAL_HEAP_ID_BYTES, &id);
        read = read && id.length == sizes[done] && object_read(direct, &id, &data[done]);
    }
    for (size_t index = 0; !read && index < done; index++) {
        free(data[index]);
        data[index] = NULL;
    }
    return read;
}

bool h5py_vlen_direct_read(const struct h5py_vlen_direct *direct, uint64_t index, uint64_t limit,
                           void **data, size_t *size)
{
    unsigned char bytes[GLOBAL_HEAP_ID_BYTES];
    struct global_heap_id id;
    *data = NULL;
    if (direct->table == NULL || !ids_read(direct, index, 1, bytes))
        return false;
    global_heap_id_decode(bytes, &id);
    if (id.length > limit || !object_read(direct, &id, data))
        return false;
    *size = id.length;
    return true;
}
