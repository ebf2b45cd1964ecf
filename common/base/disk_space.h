/* Whether a write fits before it starts: the free space of the filesystem and the file size limit. */
#ifndef FUEL_DISK_SPACE_H
#define FUEL_DISK_SPACE_H

#include <stdint.h>

/* Whether BYTES in all, the largest file LARGEST bytes, fit at PATH (a file or directory; its
   nearest existing parent when it is not there yet): in the space statvfs says is free to
   unprivileged users, and under the file size limit (RLIMIT_FSIZE, `ulimit -f`). EXIT_OK when
   they fit or statvfs cannot tell; otherwise
   EXIT_WRITE naming SHOWN: "cannot write: SHOWN: needs N bytes, M free" or "cannot write: SHOWN:
   needs a file of N bytes, over the file size limit of M bytes (ulimit -f)". A lower bound of
   what will be written is enough: the writes still report ENOSPC and EFBIG. */
int disk_space_check(const char *path, const char *shown, uint64_t bytes, uint64_t largest);

/* A * B, or UINT64_MAX when that passes 2^64 - 1: sizes of declared data may be hostile. */
uint64_t disk_space_product(uint64_t a, uint64_t b);

/* A + B, or UINT64_MAX. */
uint64_t disk_space_sum(uint64_t a, uint64_t b);

#endif
