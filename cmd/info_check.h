/* fuel-info --check and --verify-inputs: the report on one file, as text lines or JSON. */
#ifndef FUEL_INFO_CHECK_H
#define FUEL_INFO_CHECK_H

#include "common/h5py/h5py_reader.h"

#include <jansson.h>
#include <stdbool.h>

struct info_check_request {
    bool invariants; /* --check */
    bool inputs;     /* --verify-inputs */
    /* -d: directories searched for the inputs first, before the file's own and the data path */
    const char *const *directories;
    size_t directory_count;
    bool recorded_directories; /* --recorded-dirs: the folders the provenance records, last */
};

/* Checks FILE as REQUEST asks. Prints "PATH: ..." lines on stdout, or, with REPORT non-NULL,
   sets "violations" and "inputs" in it instead. Returns EXIT_OK, or with the message set:
   EXIT_CORRUPT_INPUT (violations, or no provenance to verify), EXIT_CHECKSUM (an input differs),
   EXIT_MISSING_INPUT (an input is missing), EXIT_OTHER. */
int info_check_file(const struct h5py_file *file, const struct info_check_request *request,
                    json_t *report);

#endif
