/* Finds a file by its content: the file of a recorded size and sha256 among directories, under
   its recorded name first, then under any name (the inputs a provenance records, renamed or
   moved since). A candidate is opened without blocking and read only once fstat shows a regular
   file of the recorded size; it is accepted by its size and sha256 alone. A recorded name that
   climbs ("../") or is absolute is looked for by its last part only, inside each folder. */
#ifndef FUEL_INPUT_FIND_H
#define FUEL_INPUT_FIND_H

#include "common/base/hash.h"

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

struct input_wanted {
    const char *name; /* a plain name, or a relative path below the folders searched */
    uint64_t size;
    const char *sha256;
};

enum input_search_state {
    INPUT_SEARCH_FOUND,
    INPUT_SEARCH_CHANGED,   /* not found; a file of its name holds other bytes */
    INPUT_SEARCH_NOT_FOUND, /* neither its bytes nor its name anywhere */
};

struct input_search {
    enum input_search_state state;
    char path[PATH_MAX]; /* FOUND: the file; CHANGED: the first file of the name */
    uint64_t size;       /* CHANGED: that file's size and sha256 (empty when of another size:
                            it is not read) */
    char sha256[HASH_HEX_SIZE];
};

/* Looks for WANTED in DIRECTORIES (COUNT of them, in order; one that does not exist is skipped):
   DIRECTORY/NAME in each, then every regular file of each of WANTED's size. EXIT_OTHER when a
   file of the right size cannot be read through. */
int input_find(const struct input_wanted *wanted, const char *const *directories, size_t count,
               struct input_search *search);

/* DIRECTORIES' regular files by size, listed once for many searches (a provenance may record a
   million inputs: listing and opening every file of every folder for each took minutes). */
struct input_listing;

/* Lists the COUNT DIRECTORIES (kept by the caller while LISTING lives). EXIT_OTHER when memory
   runs out. */
int input_listing_create(struct input_listing **listing, const char *const *directories,
                         size_t count);

void input_listing_free(struct input_listing *listing);

/* input_find over LISTING's directories, the files of each size taken from its lists. */
int input_find_listed(const struct input_wanted *wanted, const struct input_listing *listing,
                      struct input_search *search);

/* The first DIRECTORY/NAME of WANTED's name among DIRECTORIES that exists but is not a regular
   file (a directory, a FIFO), its path into PATH and its status into STATUS; false when none. */
bool input_find_occupied(const struct input_wanted *wanted, const char *const *directories,
                         size_t count, char path[PATH_MAX], struct stat *status);

/* input_find_occupied over LISTING's directories, looking only where the listing saw something
   of the name that is not a regular file (no stat for each name of a long list). */
bool input_find_listed_occupied(const struct input_wanted *wanted,
                                const struct input_listing *listing, char path[PATH_MAX],
                                struct stat *status);

#endif
