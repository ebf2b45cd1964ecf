/* A folder's entries in sorted order (Python's sorted() on names: byte order), each a file or a
   folder, symbolic links followed, as os.walk(followlinks=True) sees them. */
#ifndef FUEL_PACK_FOLDER_H
#define FUEL_PACK_FOLDER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* A hostile tree cannot make a listing longer than this. */
#define FOLDER_MAX_ENTRIES (1u << 24)

struct folder_entry {
    char *name;
    bool folder;     /* a directory (through a link or not) */
    dev_t device;    /* of what it names, to find cycles */
    ino_t inode;
};

struct folder_listing {
    struct folder_entry *entries;
    size_t count;
};

/* Lists PATH. EXIT_MISSING_INPUT when it is not there or not a folder, EXIT_CORRUPT_INPUT when
   it cannot be read or holds more than FOLDER_MAX_ENTRIES. Broken links are listed as files. */
int folder_list(const char *path, struct folder_listing *listing);

void folder_listing_free(struct folder_listing *listing);

/* PATH/NAME, malloc'd; NULL when memory runs out. */
char *folder_join(const char *path, const char *name);

#endif
