/* The manifest of an export set: its top-level entries, each with the inode it was staged as.
   Written into the staging before it is committed and removed with it once the set is published;
   the same lines, in the committed staging, name the entries of the earlier set (.earlier). */
#ifndef FUEL_SET_MANIFEST_H
#define FUEL_SET_MANIFEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SET_MANIFEST_NAME ".manifest"
#define SET_EARLIER_NAME ".earlier"

struct set_entry {
    uint64_t inode;
    char *name;
};

struct set_manifest {
    struct set_entry *entries;
    size_t count;
    size_t capacity;
    char **sorted; /* the names in strcmp order, for set_manifest_has */
};

/* Whether NAME may be a set's top-level entry: not empty, ".", "..", the staging's own files
   (its lock, manifest and record of the earlier set), and without '/' or a newline. */
bool set_entry_name_valid(const char *name);

/* Writes DIRECTORY/.manifest (DIRECTORY an open directory) naming the COUNT entries NAMES, which
   are in DIRECTORY, with their inodes. EXIT_WRITE when it cannot; PATH names DIRECTORY in
   messages. */
int set_manifest_write(int directory, const char *path, char *const *names, size_t count);

/* Writes MANIFEST's entries as DIRECTORY/NAME, whole or not at all (a synced file renamed over
   the name); PATH names DIRECTORY in messages. */
int set_manifest_save(int directory, const char *path, const char *name,
                      const struct set_manifest *manifest);

/* Adds the entry NAME with INODE; set_manifest_index makes the additions searchable. */
int set_manifest_add(struct set_manifest *manifest, uint64_t inode, const char *name);
int set_manifest_index(struct set_manifest *manifest);

/* Reads DIRECTORY/NAME into MANIFEST; *FOUND false (and MANIFEST empty) when there is none.
   Lines that do not hold a valid entry are passed over. */
int set_manifest_read(int directory, const char *name, struct set_manifest *manifest,
                      bool *found);

/* Whether MANIFEST names NAME (a binary search). */
bool set_manifest_has(const struct set_manifest *manifest, const char *name);

void set_manifest_free(struct set_manifest *manifest);

#endif
