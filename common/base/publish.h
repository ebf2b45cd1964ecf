/* Atomic publication of an output file: written under its own name inside a staging directory
   beside it (staging.h), renamed over the final name when whole. */
#ifndef FUEL_PUBLISH_H
#define FUEL_PUBLISH_H

#include "staging.h"

#include <stdbool.h>
#include <stddef.h>

struct publication {
    char final_path[4096];
    char temporary_path[4096]; /* STAGING/NAME, created empty */
    struct staging staging;    /* DIRECTORY/.fuel-staging-NAME.XXXXXX, locked until published */
};

/* Creates the staging beside DIRECTORY/NAME (NAME may hold directories; an absolute NAME ignores
   DIRECTORY, as Python's os.path.join) and the empty temporary in it, and arranges for both to be
   removed on SIGINT, SIGTERM, SIGHUP and normal exit until published; a killed process leaves
   them to fuel clean. EXIT_WRITE when they cannot be created. */
int publish_begin(struct publication *publication, const char *directory, const char *name);

/* GIVEN (fuel-convert -r) with .hdf5 appended unless it ends in .hdf5, .hdf or .h5. */
void publish_file_name(const char *given, char *name, size_t size);

/* Creates DIRECTORY, where a file is to be published, and its missing parents, as mkdir -p does;
   EXIT_WRITE when it cannot (a file in the way, no permission). */
int publish_directory_create(const char *directory);

/* fsyncs the temporary file, renames it over the final name, fsyncs the directory and removes
   the staging. */
int publish_commit(struct publication *publication);

/* Removes the temporary file and its staging; the final name is untouched. */
void publish_abort(struct publication *publication);

/* Publishes SIZE bytes of DATA as PATH (relative to the working directory) whole or not at all;
   EXIT_WRITE naming PATH and errno's words when they cannot be written. */
int publish_bytes(const char *path, const void *data, size_t size);

#endif
