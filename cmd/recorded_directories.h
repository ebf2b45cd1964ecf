/* The folders a file's provenance says its inputs were read from: the recorded command's
   -d/--directory values (fuel convert DATASET -d DIR), and the folder of a packed file's spec as
   recorded. fuel-info --verify-inputs and fuel-reproduce name them when inputs are missing, and
   search them only when --recorded-dirs asks: a file's metadata never makes fuel open a path the
   user did not give. */
#ifndef FUEL_RECORDED_DIRECTORIES_H
#define FUEL_RECORDED_DIRECTORIES_H

#include <stddef.h>
#include <stdio.h>

/* The most folders kept; a provenance naming more has the others left out. */
#define RECORDED_DIRECTORIES_MAX 8

struct recorded_directories {
    char *items[RECORDED_DIRECTORIES_MAX];
    size_t count;
};

/* Reads the folders of PROVENANCE (a fuel_provenance text; NULL or not fuel's: none), each once,
   as recorded (a relative one is relative to where the command ran). A value holding a control
   character is left out (it could not be pasted). Never fails: out of memory keeps fewer; any
   error set before is cleared. */
void recorded_directories_read(const char *provenance, struct recorded_directories *folders);

void recorded_directories_free(struct recorded_directories *folders);

/* Leaves out of FOLDERS those among DIRECTORIES (COUNT), the folders already searched: no hint
   to give what was given. */
void recorded_directories_drop_searched(struct recorded_directories *folders,
                                        const char *const *directories, size_t count);

/* "; the file records them in DIR, DIR (give -d DIR, or --recorded-dirs)", or "" without
   folders; the hint after a count of missing inputs. */
void recorded_directories_hint(FILE *stream, const struct recorded_directories *folders);

#endif
