/* Publishing of an export set past its commit point. The commit is one rename of the whole,
   synced staging (holding the set's manifest) to DIR/.fuel-staging-LABEL.publishing (staging.h); finishing then moves the
   entries over their final names one after another, removes the entries of the earlier set that
   the new one lacks, and keeps the manifest as DIR/.LABEL.exported. Every step can be done
   again, so a publishing that a killed export left is finished by the next export of the set or
   by fuel clean. */
#ifndef FUEL_SET_PUBLISH_H
#define FUEL_SET_PUBLISH_H

#include "common/base/staging.h"

#include <stdbool.h>
#include <stddef.h>

/* Commits STAGING as the set LABEL of DIRECTORY and finishes publishing it; while a live export
   publishes the same set, waits for it first. Once committed, STAGING is consumed (its path
   emptied): removed when published, or on a failure left as .fuel-staging-LABEL.publishing for
   the next export or fuel clean to finish. EXIT_WRITE when it cannot. */
int set_publish_commit(struct staging *staging, const char *directory, const char *label);

/* Finishes DIRECTORY/.fuel-staging-LABEL.publishing when a killed export left it (its lock is free); one a
   live export holds is left to it. With DRY_RUN only tells. *FINISHED: there was one. */
int set_publish_finish_dead(const char *directory, const char *label, bool dry_run,
                            bool *finished);

#endif
