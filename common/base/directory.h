/* A download directory: created when missing, and locked so concurrent runs take turns. */
#ifndef FUEL_DIRECTORY_H
#define FUEL_DIRECTORY_H

#include <stdbool.h>
#include <stddef.h>

#define DIRECTORY_LOCK_NAME ".fuel-download.lock"

/* Creates PATH and its missing parents (mode 0777 before umask). EXIT_WRITE on failure. */
int directory_create(const char *path);

/* Takes an exclusive flock on DIRECTORY/.fuel-download.lock into *DESCRIPTOR. Without WAIT, a lock
   held elsewhere sets *BUSY and returns EXIT_OK with *DESCRIPTOR = -1; with WAIT it blocks. A lock
   file its holder removed while this run waited is not taken: the run locks the new one.
   EXIT_WRITE when the lock file cannot be opened or locked. */
int directory_lock(const char *directory, bool wait, int *descriptor, bool *busy);

/* Takes DIRECTORY's lock, waiting while another run holds it; before waiting prints WAITING
   (a whole line; NULL: nothing) on stderr. */
int directory_lock_waiting(const char *directory, const char *waiting, int *descriptor);

/* The same with the lock file DIRECTORY/NAME. */
int directory_lock_file(const char *directory, const char *name, bool wait, int *descriptor,
                        bool *busy);

/* The length of PATH's shortest prefix that does not exist (PATH itself when only it is
   missing); 0 when PATH exists. */
size_t directory_missing_prefix(const char *path);

/* Removes the empty directories of PATH down to its prefix of MISSING bytes (what
   directory_missing_prefix found missing before they were made): a failed command leaves no
   empty directory it created. */
void directory_remove_created(const char *path, size_t missing);

/* Releases the lock DESCRIPTOR holds on DIRECTORY/NAME, removing the lock file first (while
   still holding it: a run waiting on it then finds it unlinked and locks a new one). */
void directory_unlock(int descriptor, const char *directory, const char *name);

#endif
