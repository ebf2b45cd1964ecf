/* Re-hashes the raw inputs a file's fuel_provenance names, found beside it or in the data path. */
#ifndef FUEL_INPUT_VERIFY_H
#define FUEL_INPUT_VERIFY_H

#include "common/base/config.h"
#include "common/base/hash.h"

#include <stddef.h>
#include <stdint.h>

enum input_state {
    INPUT_MATCHING,  /* found, with the recorded size and sha256 */
    INPUT_DIFFERENT, /* found, but its size or sha256 differs */
    INPUT_MISSING,   /* neither beside the file nor in the data path */
};

struct input_report {
    char *name;
    char *path;                    /* where it was found; NULL when missing */
    enum input_state state;
    uint64_t recorded_size, size;
    char recorded_sha256[HASH_HEX_SIZE], sha256[HASH_HEX_SIZE];
};

struct input_reports {
    struct input_report *items;
    size_t count;
};

/* Reads the inputs of PROVENANCE_JSON (the fuel_provenance text of the file at FILE_PATH) and
   checks each, looking first in FILE_PATH's directory, then in CONFIG's data path.
   EXIT_CORRUPT_INPUT when the JSON has no well-formed "inputs" list; EXIT_OTHER on a read error
   or out of memory. */
int input_verify(const char *provenance_json, const char *file_path,
                 const struct fuel_config *config, struct input_reports *reports);

void input_reports_free(struct input_reports *reports);

/* "matching", "different", "missing". */
const char *input_state_name(enum input_state state);

#endif
