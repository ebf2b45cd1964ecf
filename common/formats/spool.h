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

/* SIZE bytes of the spool from OFFSET mapped copy-on-write: they may be rewritten in memory,
   the file never is; pages are read in as touched and count in memory only while they are. */
struct spool_view {
    unsigned char *bytes;
    size_t size;
    void *base;    /* the mapping, from the page holding OFFSET */
    size_t length;
};

/* Maps SIZE bytes (at least 1) from OFFSET, which must lie within what was appended. */
int spool_map(struct spool *spool, uint64_t offset, size_t size, struct spool_view *view);

/* Drops the pages wholly inside bytes [FROM, FROM + SIZE) of VIEW from memory: touched again,
   they are read again from the file (changes made to them are lost). */
void spool_view_forget(struct spool_view *view, size_t from, size_t size);

void spool_unmap(struct spool_view *view);

/* Empties the spool for reuse: its pages are dropped (dirty ones never reach the disk). */
int spool_reset(struct spool *spool);

void spool_close(struct spool *spool);

#endif
