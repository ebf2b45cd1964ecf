/* Commits an export set with one rename, then finishes publishing it from its manifest. */
#include "set_publish.h"

#include "common/base/error.h"
#include "set_listing.h"
#include "set_manifest.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* DIRECTORY/.fuel-staging-LABEL.publishing into PATH, a staging's path; EXIT_WRITE when too
   long. */
static int publishing_path(const char *directory, const char *label, char *path)
{
    return staging_committed_path(directory, label, path, sizeof ((struct staging *)NULL)->path);
}

/* The open directories of one publishing, and DIRECTORY's path for messages. */
struct publishing_step {
    int directory;
    int publishing;
    const char *path;
    const char *label;
};

/* Best effort: a file system that refuses to sync a directory cannot undo the renames in it. */
static void directory_sync(int directory)
{
    fsync(directory);
}

struct move {
    const char *name;
    bool exchange; /* a directory on either side: swapped in one step, the earlier one kept staged */
};

/* The moves still to do, all decided before the first: entries still staged under their name
   with the inode they were staged as. Others were moved already (and may since have been
   replaced: an image list's SPLIT directory is shared by the sets of its split). */
static void moves_plan(const struct publishing_step *step, const struct set_manifest *manifest,
                       struct move *moves, size_t *count)
{
    *count = 0;
    for (size_t index = 0; index < manifest->count; index++) {
        const struct set_entry *entry = &manifest->entries[index];
        struct stat final, staged;
        bool has_final = fstatat(step->directory, entry->name, &final, AT_SYMLINK_NOFOLLOW) == 0;
        if ((has_final && final.st_ino == entry->inode) ||
            fstatat(step->publishing, entry->name, &staged, AT_SYMLINK_NOFOLLOW) != 0 ||
            staged.st_ino != entry->inode)
            continue;
        moves[(*count)++] = (struct move){
            entry->name, has_final && (S_ISDIR(final.st_mode) || S_ISDIR(staged.st_mode))};
    }
}

/* The renames, back to back with nothing in between: the moments readers can see a mixed set. */
static int moves_run(const struct publishing_step *step, const struct move *moves, size_t count,
                     const struct set_manifest *manifest, const struct set_manifest *record)
{
    int directory = step->directory, publishing = step->publishing;
    for (size_t index = 0; index < count; index++) {
        const char *name = moves[index].name;
        if ((moves[index].exchange
                 ? renameat2(publishing, name, directory, name, RENAME_EXCHANGE)
                 : renameat(publishing, name, directory, name)) != 0)
            return error_set(EXIT_WRITE, "cannot publish: %s/%s: %s", step->path, name,
                             strerror(errno));
    }
    /* The earlier set's entries the new one lacks go into the staging, removed with it. */
    for (size_t index = 0; index < record->count; index++) {
        const char *name = record->entries[index].name;
        if (!set_manifest_has(manifest, name) &&
            renameat(directory, name, publishing, name) != 0 && errno != ENOENT)
            return error_set(EXIT_WRITE, "cannot remove: %s/%s: %s", step->path, name,
                             strerror(errno));
    }
    return EXIT_OK;
}

static int entries_publish(const struct publishing_step *step, const struct set_manifest *manifest,
                           const struct set_manifest *record)
{
    struct move *moves = malloc((manifest->count ? manifest->count : 1) * sizeof *moves);
    if (moves == NULL)
        return error_set(EXIT_OTHER, "out of memory publishing a set");
    size_t count;
    moves_plan(step, manifest, moves, &count);
    int result = moves_run(step, moves, count, manifest, record);
    free(moves);
    return result;
}

/* The earlier set's entries, kept in the staging before the first move: read from the set's
   listing while it is still the earlier set's, then from the staging by every later finishing. */
static int earlier_read(const struct publishing_step *step, struct set_manifest *record)
{
    bool found;
    int result = set_manifest_read(step->publishing, SET_EARLIER_NAME, record, &found);
    if (result != EXIT_OK || found)
        return result;
    /* None kept when there was no earlier set: read again, the listing then names none or the
       new set's own entries. */
    set_manifest_free(record);
    result = set_listing_read(step->directory, step->label, record);
    return result == EXIT_OK && record->count > 0
               ? set_manifest_save(step->publishing, step->path, SET_EARLIER_NAME, record)
               : result;
}

/* The step that ends publishing: without its manifest the staging holds nothing to finish. */
static int manifest_drop(const struct publishing_step *step)
{
    directory_sync(step->directory);
    if (unlinkat(step->publishing, SET_MANIFEST_NAME, 0) != 0)
        return error_set(EXIT_WRITE, "cannot publish: %s: %s", step->path, strerror(errno));
    return EXIT_OK;
}

/* Reads the manifest (none: publishing was done but for removing the staging) and the record of
   the earlier set, then publishes. */
static int publishing_run(const struct publishing_step *step)
{
    struct set_manifest manifest, record = {0};
    bool found;
    int result = set_manifest_read(step->publishing, SET_MANIFEST_NAME, &manifest, &found);
    if (result == EXIT_OK && found)
        result = earlier_read(step, &record);
    if (result == EXIT_OK && found)
        result = entries_publish(step, &manifest, &record);
    if (result == EXIT_OK && found)
        result = manifest_drop(step);
    set_manifest_free(&manifest);
    set_manifest_free(&record);
    return result;
}

/* Finishes the committed set in PUBLISHING (locked) and removes it; on a failure it stays. */
static int publishing_finish(struct staging *publishing, const char *directory, const char *label)
{
    struct publishing_step step = {
        .directory = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC),
        .publishing = open(publishing->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC),
        .path = directory,
        .label = label};
    int result = step.directory >= 0 && step.publishing >= 0
                     ? publishing_run(&step)
                     : error_set(EXIT_WRITE, "cannot publish: %s: %s", publishing->path,
                                 strerror(errno));
    if (step.directory >= 0)
        close(step.directory);
    if (step.publishing >= 0)
        close(step.publishing);
    if (result == EXIT_OK) {
        staging_remove(publishing);
    } else {
        close(publishing->lock);
        *publishing = (struct staging){.lock = -1};
    }
    return result;
}

/* Finishes the publishing at PATH unless a live export holds it (with WAIT: once it is done). */
static int publishing_take(const char *path, const char *directory, const char *label, bool wait,
                           bool dry_run, bool *finished)
{
    struct stat status;
    *finished = false;
    if (lstat(path, &status) != 0 || !S_ISDIR(status.st_mode))
        return EXIT_OK;
    struct staging publishing = {.lock = staging_lock(path, wait)};
    if (publishing.lock < 0) {
        if (errno == ENOENT) /* killed while removing its lock file: empty */
            return staging_remove_dead(path, dry_run, finished);
        return EXIT_OK;
    }
    *finished = true;
    if (dry_run) {
        close(publishing.lock);
        return EXIT_OK;
    }
    snprintf(publishing.path, sizeof publishing.path, "%s", path);
    return publishing_finish(&publishing, directory, label);
}

int set_publish_finish_dead(const char *directory, const char *label, bool dry_run,
                            bool *finished)
{
    char path[sizeof ((struct staging *)NULL)->path];
    *finished = false;
    int result = publishing_path(directory, label, path);
    return result != EXIT_OK ? result : publishing_take(path, directory, label, false, dry_run, finished);
}

int set_publish_commit(struct staging *staging, const char *directory, const char *label)
{
    char path[sizeof staging->path];
    int result = publishing_path(directory, label, path);
    if (result != EXIT_OK)
        return result;
    for (int attempt = 0; attempt < 64; attempt++) {
        if (rename(staging->path, path) == 0) {
            snprintf(staging->path, sizeof staging->path, "%s", path);
            int descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
            if (descriptor >= 0) {
                directory_sync(descriptor);
                close(descriptor);
            }
            return publishing_finish(staging, directory, label);
        }
        if (errno != EEXIST && errno != ENOTEMPTY)
            return error_set(EXIT_WRITE, "cannot write: %s: %s", path, strerror(errno));
        bool finished;
        result = publishing_take(path, directory, label, true, false, &finished);
        if (result != EXIT_OK)
            return result;
    }
    return error_set(EXIT_WRITE, "cannot write: %s: another export keeps publishing the set", path);
}
