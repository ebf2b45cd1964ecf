/* Hidden work directories (DIR/.NAME.XXXXXX) locked while the process that made them lives, so
   that one a killed process left can be told from one in use, and removed. */
#ifndef FUEL_STAGING_H
#define FUEL_STAGING_H

#include <stdbool.h>

#define STAGING_LOCK_NAME ".lock"

struct staging {
    char path[4096];
    int lock; /* an open file description write lock on PATH/.lock, held while it lives */
};

/* Creates the directory TEMPLATE (a path ending in XXXXXX, replaced by mkdtemp) holding the lock
   file, locked. A fuel clean that removed it before the lock was taken makes it try another
   name. EXIT_WRITE when it cannot. */
int staging_create(struct staging *staging, const char *template);

/* Removes the staging and everything in it (its lock file last), then releases the lock. */
void staging_remove(struct staging *staging);

/* Takes the lock of the existing staging PATH, waiting for its holder with WAIT: the descriptor,
   or -1 when a live process holds it, PATH has no lock file or it went away meanwhile. */
int staging_lock(const char *path, bool wait);

/* Whether NAME is PREFIX followed by six letters or digits (mkdtemp's XXXXXX). */
bool staging_name_matches(const char *name, const char *prefix);

/* Removes the staging PATH when no live process holds it (with DRY_RUN, only tells): *REMOVED.
   A staging without a lock file is empty (killed before taking it) and removed when still so. */
void staging_remove_dead(const char *path, bool dry_run, bool *removed);

#endif
