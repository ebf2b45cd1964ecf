/* Checksums read from a file in md5sum/sha256sum format ("HEX  NAME" or "HEX *NAME" lines). */
#ifndef FUEL_CHECKSUM_LIST_H
#define FUEL_CHECKSUM_LIST_H

#include "common/base/hash.h"

#include <stddef.h>

struct checksum_entry {
    char *name;
    char hex[HASH_HEX_SIZE];
};

struct checksum_list {
    struct checksum_entry *entries;
    size_t count;
};

/* Reads PATH; blank lines and lines starting with '#' are skipped. EXIT_MISSING_INPUT when it
   cannot be opened, EXIT_CORRUPT_INPUT naming FILE:LINE for a line that is not a checksum. */
int checksum_list_load(struct checksum_list *list, const char *path);

/* The hex checksum listed for a file whose base name is NAME (the last such line); NULL if none. */
const char *checksum_list_find(const struct checksum_list *list, const char *name);

void checksum_list_free(struct checksum_list *list);

#endif
