/* An HDF5 file driver reading through common/base/input_file.h, so that an input's tap (read_tap.h)
   hashes the very bytes HDF5 reads: read-only, pread on one descriptor, shared locks as sec2's. */
#include "hdf5_tapped_driver.h"

#include "common/base/input_file.h"

#include <errno.h>
#include <hdf5.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

struct tapped_file {
    H5FD_t public; /* first: HDF5 sees the file as its H5FD_t */
    int descriptor;
    dev_t device;
    ino_t inode;
    haddr_t end_of_address; /* what HDF5 set it to */
    haddr_t end_of_file;    /* the file's size */
};

static H5FD_t *tapped_open(const char *name, unsigned flags, hid_t access, haddr_t most)
{
    (void)access;
    if ((flags & (H5F_ACC_RDWR | H5F_ACC_CREAT | H5F_ACC_TRUNC)) != 0 || most == 0)
        return NULL;
    struct stat status;
    int descriptor = input_file_open(name, &status);
    if (descriptor < 0)
        return NULL;
    struct tapped_file *file = calloc(1, sizeof *file);
    if (file == NULL) {
        input_file_close(descriptor);
        return NULL;
    }
    file->descriptor = descriptor;
    file->device = status.st_dev;
    file->inode = status.st_ino;
    file->end_of_file = (haddr_t)status.st_size;
    return &file->public;
}

static herr_t tapped_close(H5FD_t *public)
{
    struct tapped_file *file = (struct tapped_file *)public;
    int closed = input_file_close(file->descriptor);
    free(file);
    return closed == 0 ? 0 : -1;
}

static int tapped_compare(const H5FD_t *first, const H5FD_t *second)
{
    const struct tapped_file *one = (const struct tapped_file *)first;
    const struct tapped_file *two = (const struct tapped_file *)second;
    if (one->device != two->device)
        return one->device < two->device ? -1 : 1;
    if (one->inode != two->inode)
        return one->inode < two->inode ? -1 : 1;
    return 0;
}

static herr_t tapped_query(const H5FD_t *public, unsigned long *flags)
{
    (void)public;
    *flags = H5FD_FEAT_AGGREGATE_METADATA | H5FD_FEAT_ACCUMULATE_METADATA |
             H5FD_FEAT_DATA_SIEVE | H5FD_FEAT_AGGREGATE_SMALLDATA;
    return 0;
}

static haddr_t tapped_end_of_address(const H5FD_t *public, H5FD_mem_t type)
{
    (void)type;
    return ((const struct tapped_file *)public)->end_of_address;
}

static herr_t tapped_set_end_of_address(H5FD_t *public, H5FD_mem_t type, haddr_t address)
{
    (void)type;
    ((struct tapped_file *)public)->end_of_address = address;
    return 0;
}

static haddr_t tapped_end_of_file(const H5FD_t *public, H5FD_mem_t type)
{
    (void)type;
    return ((const struct tapped_file *)public)->end_of_file;
}

static herr_t tapped_handle(H5FD_t *public, hid_t access, void **handle)
{
    (void)access;
    *handle = &((struct tapped_file *)public)->descriptor;
    return 0;
}

/* As sec2: the bytes past the file's end read as zeros. */
static herr_t tapped_read(H5FD_t *public, H5FD_mem_t type, hid_t transfer, haddr_t address,
                          size_t size, void *buffer)
{
    (void)type;
    (void)transfer;
    struct tapped_file *file = (struct tapped_file *)public;
    unsigned char *cursor = buffer;
    while (size > 0) {
        ssize_t count = input_file_pread(file->descriptor, cursor, size, (off_t)address);
        if (count < 0 && errno == EINTR)
            continue;
        if (count < 0)
            return -1;
        if (count == 0) {
            memset(cursor, 0, size);
            break;
        }
        cursor += count;
        address += (haddr_t)count;
        size -= (size_t)count;
    }
    return 0;
}

static herr_t tapped_write(H5FD_t *public, H5FD_mem_t type, hid_t transfer, haddr_t address,
                           size_t size, const void *buffer)
{
    (void)public, (void)type, (void)transfer, (void)address, (void)size, (void)buffer;
    return -1;
}

/* Shared, as sec2 takes for a file opened read-only; a filesystem without locks is let be (the
   caller asks to ignore disabled locks). */
static herr_t tapped_lock(H5FD_t *public, hbool_t writing)
{
    (void)writing;
    struct tapped_file *file = (struct tapped_file *)public;
    if (flock(file->descriptor, LOCK_SH | LOCK_NB) == 0 || errno == ENOSYS)
        return 0;
    return -1;
}

static herr_t tapped_unlock(H5FD_t *public)
{
    struct tapped_file *file = (struct tapped_file *)public;
    if (flock(file->descriptor, LOCK_UN) == 0 || errno == ENOSYS)
        return 0;
    return -1;
}

static const H5FD_class_t tapped_class = {
    .name = "fuel_tapped",
    .maxaddr = (haddr_t)INT64_MAX,
    .fc_degree = H5F_CLOSE_WEAK,
    .open = tapped_open,
    .close = tapped_close,
    .cmp = tapped_compare,
    .query = tapped_query,
    .get_eoa = tapped_end_of_address,
    .set_eoa = tapped_set_end_of_address,
    .get_eof = tapped_end_of_file,
    .get_handle = tapped_handle,
    .read = tapped_read,
    .write = tapped_write,
    .lock = tapped_lock,
    .unlock = tapped_unlock,
    .fl_map = H5FD_FLMAP_DICHOTOMY,
};

static pthread_once_t registered = PTHREAD_ONCE_INIT;
static hid_t driver = -1;

static void driver_register(void)
{
    driver = H5FDregister(&tapped_class);
}

hid_t hdf5_tapped_driver(void)
{
    pthread_once(&registered, driver_register);
    return driver;
}

hid_t hdf5_tapped_access(void)
{
    pthread_once(&registered, driver_register);
    hid_t access = H5Pcreate(H5P_FILE_ACCESS);
    if (access < 0)
        return -1;
    if (driver < 0 || H5Pset_driver(access, driver, NULL) < 0 ||
        H5Pset_file_locking(access, true, true) < 0) {
        H5Pclose(access);
        return -1;
    }
    return access;
}
