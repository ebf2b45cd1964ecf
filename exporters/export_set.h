/* A set of exported files staged in a hidden directory beside their final place, committed with
   one rename once every file is whole and synced, then moved into place (set_publish): a failed
   or killed export leaves the earlier set, or a committed one that is finished later. */
#ifndef FUEL_EXPORT_SET_H
#define FUEL_EXPORT_SET_H

#include "common/base/staging.h"

#include <stdbool.h>
#include <stddef.h>

struct export_set {
    char directory[4096];
    char label[512];
    struct staging staging; /* DIRECTORY/.fuel-staging-LABEL.XXXXXX, locked while it lives */
    char **entries; /* top-level names, in the order they are published */
    size_t entry_count;
    size_t entry_capacity;
};

/* Creates the staging directory for the set LABEL in DIRECTORY (created when missing), after
   finishing a publishing of LABEL that a killed export left and removing the stagings of killed
   exports of LABEL (their lock is free). EXIT_WRITE when it cannot. */
int export_set_begin(struct export_set *set, const char *directory, const char *label);

/* Writes into PATH where the set's file ENTRY (relative; its first component is published as a
   whole, so "train/3/7.png" publishes "train") is staged, creating its directories. Entries are
   published in the order first named here; the files of one entry are named one after another. */
int export_set_path(struct export_set *set, const char *entry, char *path, size_t size);

/* Syncs the staged files and their manifest to disk, commits the staging (one rename) and
   publishes it: each entry moved over its final name (a directory that exists is exchanged in one
   step), the earlier set's entries that this one lacks removed. */
int export_set_commit(struct export_set *set);

/* Removes the staging directory and everything in it; final names are untouched. */
void export_set_abort(struct export_set *set);

#endif
