/* Reads a stream ahead of its consumer: a thread fills a few rotating blocks while the caller
   works on the one before, so that decoding (inflate) and writing overlap. */
#ifndef FUEL_READ_AHEAD_H
#define FUEL_READ_AHEAD_H

#include <stddef.h>
#include <stdint.h>

/* Fills BLOCK with exactly SIZE bytes from SOURCE; EXIT_OK, or an exit code with its message
   recorded by error_set (in the reading thread). */
typedef int (*read_ahead_fill)(void *source, void *block, size_t size);

/* For a stream of unknown length: fills BLOCK with up to SIZE bytes, *FILLED of them, fewer than
   SIZE only at the stream's end. A fill that fails may have filled some bytes first: they are
   handed out before the failure is. */
typedef int (*read_ahead_fill_stream)(void *source, void *block, size_t size, size_t *filled);

struct read_ahead;

/* Starts a thread reading TOTAL bytes from SOURCE with FILL, BLOCK_SIZE bytes at a time. SOURCE
   belongs to that thread until read_ahead_end. */
int read_ahead_start(struct read_ahead **ahead, read_ahead_fill fill, void *source,
                     size_t block_size, uint64_t total);

/* Starts a thread reading SOURCE to its end with FILL, BLOCK_SIZE bytes at a time; after the last
   block, read_ahead_next hands out *SIZE = 0. */
int read_ahead_start_stream(struct read_ahead **ahead, read_ahead_fill_stream fill, void *source,
                            size_t block_size);

/* Waits for the next block and hands it out (BLOCK_SIZE bytes, the last one maybe fewer); the
   block handed out before is given back. EXIT_OK, or the fill's failure with its message. */
int read_ahead_next(struct read_ahead *ahead, const unsigned char **block, size_t *size);

/* Stops the thread once its current fill returns and frees AHEAD; NULL is allowed. */
void read_ahead_end(struct read_ahead *ahead);

#endif
