/* An unlinked scratch file for bytes whose final place is only known later. */
#ifndef FUEL_SPOOL_H
#define FUEL_SPOOL_H

#include <stddef.h>
#include <stdint.h>

struct spool;

/* Creates a scratch file in DIRECTORY (NULL: $TMPDIR, else /tmp) that no name points to, so it
   vanishes however the process ends. EXIT_WRITE when it cannot be created. */
int spool_create(struct spool **spool, const char *directory);

/* Appends SIZE bytes; *OFFSET (may be NULL) tells where they start. EXIT_WRITE on failure. */
int spool_append(struct spool *spool, const void *data, size_t size, uint64_t *offset);

/* Reads back SIZE bytes from OFFSET. */
int spool_read(struct spool *spool, uint64_t offset, void *buffer, size_t size);

void spool_close(struct spool *spool);

#endif
