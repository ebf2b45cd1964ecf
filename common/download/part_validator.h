/* The HTTP validator (strong ETag or Last-Modified) of the bytes in a .part file, kept on the
   file itself as the extended attribute user.fuel.validator so a later run can resume with
   If-Range. On a file system without user attributes nothing is kept and transfers restart. */
#ifndef FUEL_PART_VALIDATOR_H
#define FUEL_PART_VALIDATOR_H

#include <stddef.h>

#define PART_VALIDATOR_SIZE 512

/* Copies the validator of PATH into VALIDATOR; 0 when one is kept, -1 otherwise. */
int part_validator_read(const char *path, char validator[PART_VALIDATOR_SIZE]);

/* Keeps VALIDATOR on the open .part file DESCRIPTOR, or forgets it when VALIDATOR is "". */
void part_validator_write(int descriptor, const char *validator);

#endif
