/* Checks the free space and the file size limit before a large write, so it fails at once, whole,
   instead of after filling the disk. */
#include "disk_space.h"

#include "error.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/statvfs.h>

uint64_t disk_space_product(uint64_t a, uint64_t b)
{
    uint64_t product;
    return __builtin_mul_overflow(a, b, &product) ? UINT64_MAX : product;
}

uint64_t disk_space_sum(uint64_t a, uint64_t b)
{
    uint64_t sum;
    return __builtin_add_overflow(a, b, &sum) ? UINT64_MAX : sum;
}

/* The filesystem of PATH, or of its nearest existing parent: the directory may be made later. */
static bool nearest_statvfs(const char *path, struct statvfs *space)
{
    char nearest[PATH_MAX];
    snprintf(nearest, sizeof nearest, "%s", path[0] != '\0' ? path : ".");
    while (statvfs(nearest, space) != 0) {
        char *slash = strrchr(nearest, '/');
        if (errno != ENOENT || strcmp(nearest, ".") == 0 || strcmp(nearest, "/") == 0)
            return false;
        if (slash == NULL)
            snprintf(nearest, sizeof nearest, ".");
        else if (slash == nearest)
            nearest[1] = '\0';
        else
            *slash = '\0';
    }
    return true;
}

int disk_space_check(const char *path, const char *shown, uint64_t bytes, uint64_t largest)
{
    struct rlimit limit;
    if (getrlimit(RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY &&
        largest > (uint64_t)limit.rlim_cur)
        return error_set(EXIT_WRITE,
                         "cannot write: %s: needs a file of %" PRIu64 " bytes, over the file "
                         "size limit of %" PRIu64 " bytes (ulimit -f)",
                         shown, largest, (uint64_t)limit.rlim_cur);
    struct statvfs space;
    if (!nearest_statvfs(path, &space))
        return EXIT_OK;
    uint64_t free_bytes = disk_space_product(space.f_bavail, space.f_frsize);
    if (bytes <= free_bytes)
        return EXIT_OK;
    return error_set(EXIT_WRITE, "cannot write: %s: needs %" PRIu64 " bytes, %" PRIu64 " free",
                     shown, bytes, free_bytes);
}
