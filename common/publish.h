/* Atomic publication of an output file: a hidden temporary beside it, renamed over it when whole. */
#ifndef FUEL_PUBLISH_H
#define FUEL_PUBLISH_H

#include <stddef.h>

struct publication {
    char final_path[4096];
    char temporary_path[4096]; /* DIRECTORY/.NAME.XXXXXX */
};

/* Creates the temporary file beside DIRECTORY/NAME (NAME may hold directories; an absolute NAME
   ignores DIRECTORY, as Python's os.path.join) and arranges for it to be removed on SIGINT,
   SIGTERM, SIGHUP and normal exit until published. EXIT_WRITE when it cannot be created. */
int publish_begin(struct publication *publication, const char *directory, const char *name);

/* fsyncs the temporary file, renames it over the final name and fsyncs the directory. */
int publish_commit(struct publication *publication);

/* Removes the temporary file; the final name is untouched. */
void publish_abort(struct publication *publication);

#endif
