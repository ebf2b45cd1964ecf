/* Atomic publication of an output file: a hidden temporary beside it, renamed over it when whole. */
#ifndef FUEL_PUBLISH_H
#define FUEL_PUBLISH_H

#include <stdbool.h>
#include <stddef.h>

struct publication {
    char final_path[4096];
    char temporary_path[4096]; /* DIRECTORY/.NAME.XXXXXX */
    int lock_descriptor;       /* holds the temporary's lock until it is published or removed */
};

/* Creates the temporary file beside DIRECTORY/NAME (NAME may hold directories; an absolute NAME
   ignores DIRECTORY, as Python's os.path.join) and arranges for it to be removed on SIGINT,
   SIGTERM, SIGHUP and normal exit until published. While it exists, an open file description
   lock (fcntl F_OFD_SETLK, write) is held on it, so that fuel clean can tell a live temporary
   from the leftover of a killed process (publish_remove_leftover). EXIT_WRITE when it cannot
   be created. */
int publish_begin(struct publication *publication, const char *directory, const char *name);

/* GIVEN (fuel-convert -r) with .hdf5 appended unless it ends in .hdf5, .hdf or .h5. */
void publish_file_name(const char *given, char *name, size_t size);

/* Creates DIRECTORY, where a file is to be published, and its missing parents, as mkdir -p does;
   EXIT_WRITE when it cannot (a file in the way, no permission). */
int publish_directory_create(const char *directory);

/* fsyncs the temporary file, renames it over the final name and fsyncs the directory. */
int publish_commit(struct publication *publication);

/* Removes the temporary file; the final name is untouched. */
void publish_abort(struct publication *publication);

/* Whether NAME (a file name, no directory) has the shape of publish_begin's temporaries:
   .NAME.XXXXXX with NAME ending in .hdf5, .h5 or .hdf (the extensions fuel-convert writes). */
bool publish_is_temporary_name(const char *name);

/* Removes the leftover temporary PATH (or, with DRY_RUN, only tells) unless a running process
   holds its lock or it is not a regular file; *REMOVED tells which. EXIT_WRITE when it cannot be
   locked or removed. */
int publish_remove_leftover(const char *path, bool dry_run, bool *removed);

#endif
