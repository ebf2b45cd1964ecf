/* The one scheme of every staged output (converted files, cached copies, previews, export sets,
   fixtures and scratch files): a hidden directory DIR/.fuel-staging-WHAT.XXXXXX beside the final
   place (WHAT: the file or set it becomes, or "fixture"), holding the lock file .lock, on which
   the process that made it holds an open file description write lock while it lives. The output
   is written inside and renamed out when whole. An export set committed but not yet published is
   its staging renamed DIR/.fuel-staging-LABEL.publishing. So fuel clean knows one pattern and one
   rule: a .fuel-staging-* directory whose lock it can take was left by a killed process. */
#ifndef FUEL_STAGING_H
#define FUEL_STAGING_H

#include <stdbool.h>
#include <stddef.h>

#define STAGING_PREFIX ".fuel-staging-"
#define STAGING_LOCK_NAME ".lock"
#define STAGING_COMMITTED_SUFFIX ".publishing"

struct staging {
    char path[4096];
    int lock; /* an open file description write lock on PATH/.lock, held while it lives */
};

/* Creates DIRECTORY/.fuel-staging-WHAT.XXXXXX (mkdtemp) holding the lock file, locked. A fuel
   clean that removed it before the lock was taken makes it try another name. EXIT_WRITE when it
   cannot, errno then telling why. */
int staging_create(struct staging *staging, const char *directory, const char *what);

/* Removes the staging and everything in it (its lock file last), then releases the lock. */
void staging_remove(struct staging *staging);

/* Takes the lock of the existing staging PATH, waiting for its holder with WAIT: the descriptor,
   or -1 when a live process holds it, PATH has no lock file or it went away meanwhile. */
int staging_lock(const char *path, bool wait);

/* Whether NAME (no directory) is a staging's: .fuel-staging-WHAT.XXXXXX (six letters or digits,
   mkdtemp's) or .fuel-staging-WHAT.publishing, WHAT not empty. */
bool staging_is_name(const char *name);

/* Whether NAME is the name of a staging of WHAT: .fuel-staging-WHAT.XXXXXX. */
bool staging_is_name_of(const char *name, const char *what);

/* DIRECTORY/.fuel-staging-WHAT.publishing, the committed staging of WHAT, into PATH (SIZE bytes);
   EXIT_WRITE when it does not fit. */
int staging_committed_path(const char *directory, const char *what, char *path, size_t size);

/* The WHAT of a committed staging's NAME (.fuel-staging-WHAT.publishing) into WHAT (SIZE bytes);
   false for other names. */
bool staging_committed_what(const char *name, char *what, size_t size);

/* Removes the staging PATH when no live process holds it (with DRY_RUN, only tells): *REMOVED.
   A staging without a lock file is empty (killed before taking it) and removed when still so;
   anything else there, or anything not a directory, is not ours and kept. EXIT_WRITE ("cannot
   clean: PATH: why") when its lock file cannot be opened or locked. */
int staging_remove_dead(const char *path, bool dry_run, bool *removed);

#endif
