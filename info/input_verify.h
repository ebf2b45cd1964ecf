/* Re-hashes the raw inputs a file's fuel_provenance names, found by their size and sha256 in the
   directories the caller names (input_find.h: opened only when a regular file of the recorded
   size, under the recorded plain name or any other). */
#ifndef FUEL_INPUT_VERIFY_H
#define FUEL_INPUT_VERIFY_H

#include "common/base/config.h"
#include "common/base/hash.h"

#include <jansson.h>

#include <stddef.h>
#include <stdint.h>

enum input_state {
    INPUT_MATCHING,  /* found, with the recorded size and sha256 */
    INPUT_DIFFERENT, /* not found; a file of its name holds other bytes (SHA256 empty when its
                        size already differs: it is not read) */
    INPUT_MISSING,   /* in none of the directories */
    INPUT_NOT_REGULAR, /* not found; a directory or a FIFO stands at its name (PATH) */
};

struct input_report {
    char *name;
    char *path;                    /* where it was found; NULL when missing */
    enum input_state state;
    uint64_t recorded_size, size;
    char recorded_sha256[HASH_HEX_SIZE], sha256[HASH_HEX_SIZE];
    const char *kind; /* not regular: what stands there, "a directory" (input_file.h) */
};

struct input_reports {
    struct input_report *items;
    size_t count;
};

/* Reads the inputs of PROVENANCE_JSON (the fuel_provenance text of the file at FILE_PATH) and
   looks for each in DIRECTORIES (COUNT, in order). EXIT_CORRUPT_INPUT when the JSON has no
   well-formed "inputs" list (a name, a size and a sha256 each; a name may be a relative path, as
   fuel pack records them: input_find keeps it inside the directories);
   EXIT_OTHER on a read error or out of memory. */
int input_verify(const char *provenance_json, const char *file_path,
                 const char *const *directories, size_t count, struct input_reports *reports);

void input_reports_free(struct input_reports *reports);

/* "matching", "different", "missing", "not a regular file". */
const char *input_state_name(enum input_state state);

/* Where the inputs are looked for: the folders given (-d), then, when asked (--recorded-dirs),
   the folders the file records. */
struct input_directories {
    const char *const *directories;
    size_t directory_count;
    const char *const *recorded;
    size_t recorded_count;
};

/* The folders to search, in order: GIVEN's directories, the folder of BESIDE (a copy of the
   file's path, changed), CONFIG's data path, GIVEN's recorded ones; their count into COUNT
   (caller frees the list, not the strings); NULL when out of memory. */
const char **input_directories_list(const struct input_directories *given, char *beside,
                                    const struct fuel_config *config, size_t *count);

/* The exit code of REPORTS' states for FILE: a difference first (EXIT_CHECKSUM), then something
   not a regular file at an input's name (EXIT_CORRUPT_INPUT, in fuel download's words), then a
   missing file (EXIT_MISSING_INPUT), each with its message; else EXIT_OK. */
int input_reports_outcome(const char *file, const struct input_reports *reports);

/* INPUT's details for --json: where it was found, its bytes and sha256 (not computed for a file
   of another size), or what stands at its name ("kind"), and what the file records. */
json_t *input_report_json(const struct input_report *input);

#endif
