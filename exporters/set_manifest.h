/* The manifest of an export set: its top-level entries, each with the inode it was staged as.
   Written into the staging before it is committed; once the set is published it stays beside it
   as DIR/.LABEL.exported, the record of which entries the set holds. */
#ifndef FUEL_SET_MANIFEST_H
#define FUEL_SET_MANIFEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SET_MANIFEST_NAME ".manifest"

struct set_entry {
    uint64_t inode;
    char *name;
};

struct set_manifest {
    struct set_entry *entries;
    size_t count;
    char **sorted; /* the names in strcmp order, for set_manifest_has */
};

/* Whether NAME may be a set's top-level entry: not empty, ".", "..", the staging's own files, and
   without '/' or a newline. */
bool set_entry_name_valid(const char *name);

/* Writes DIRECTORY/.manifest (DIRECTORY an open directory) naming the COUNT entries NAMES, which
   are in DIRECTORY, with their inodes. EXIT_WRITE when it cannot; PATH names DIRECTORY in
   messages. */
int set_manifest_write(int directory, const char *path, char *const *names, size_t count);

/* Reads DIRECTORY/NAME into MANIFEST; *FOUND false (and MANIFEST empty) when there is none.
   Lines that do not hold a valid entry are passed over. */
int set_manifest_read(int directory, const char *name, struct set_manifest *manifest,
                      bool *found);

/* Whether MANIFEST names NAME (a binary search). */
bool set_manifest_has(const struct set_manifest *manifest, const char *name);

void set_manifest_free(struct set_manifest *manifest);

#endif
