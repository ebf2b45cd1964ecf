/* Reads a stream ahead of its consumer: a thread fills a few rotating blocks while the caller
   works on the one before, so that decoding (inflate) and writing overlap. */
#ifndef FUEL_READ_AHEAD_H
#define FUEL_READ_AHEAD_H

#include <stddef.h>
#include <stdint.h>

/* Fills BLOCK with exactly SIZE bytes from SOURCE; EXIT_OK, or an exit code with its message
   recorded by error_set (in the reading thread). */
typedef int (*read_ahead_fill)(void *source, void *block, size_t size);

struct read_ahead;

/* Starts a thread reading TOTAL bytes from SOURCE with FILL, BLOCK_SIZE bytes at a time. SOURCE
   belongs to that thread until read_ahead_end. */
int read_ahead_start(struct read_ahead **ahead, read_ahead_fill fill, void *source,
                     size_t block_size, uint64_t total);

/* Waits for the next block and hands it out (BLOCK_SIZE bytes, the last one maybe fewer); the
   block handed out before is given back. EXIT_OK, or the fill's failure with its message. */
int read_ahead_next(struct read_ahead *ahead, const unsigned char **block, size_t *size);

/* Stops the thread once its current fill returns and frees AHEAD; NULL is allowed. */
void read_ahead_end(struct read_ahead *ahead);

#endif
