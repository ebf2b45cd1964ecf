/* A set of exported files staged in a hidden directory beside their final place, then moved there
   only when every file is whole: a failed or killed export leaves no partial set. */
#ifndef FUEL_EXPORT_SET_H
#define FUEL_EXPORT_SET_H

#include <stddef.h>

struct export_set {
    char directory[4096];
    char staging[4096];  /* DIRECTORY/.LABEL.export.XXXXXX */
    int lock_descriptor; /* held on the staging directory's lock file while it lives */
    char **entries; /* top-level names, in the order they are published */
    size_t entry_count;
    size_t entry_capacity;
};

/* Creates the staging directory for the set LABEL in DIRECTORY (created when missing), after
   removing the stagings of earlier exports of LABEL that were killed (their lock is free).
   EXIT_WRITE when it cannot. */
int export_set_begin(struct export_set *set, const char *directory, const char *label);

/* Writes into PATH where the set's file ENTRY (relative; its first component is published as a
   whole, so "train/3/7.png" publishes "train") is staged, creating its directories. Entries are
   published in the order first named here; the files of one entry are named one after another. */
int export_set_path(struct export_set *set, const char *entry, char *path, size_t size);

/* Syncs the staged files to disk and moves each entry over its final name (a directory that
   exists is exchanged atomically and the earlier one removed), then removes the staging. */
int export_set_commit(struct export_set *set);

/* Removes the staging directory and everything in it; final names are untouched. */
void export_set_abort(struct export_set *set);

#endif
