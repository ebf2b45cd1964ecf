/* fuel duplicates --near's hashing on worker threads: the caller reads each example (libhdf5
   stays on its thread) and hands it over, workers decode and hash it, and the hashes come back
   in the order the examples were handed over, so what is recorded does not depend on the
   thread count. */
#ifndef FUEL_HASH_WORKERS_H
#define FUEL_HASH_WORKERS_H

#include "image_hashes.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bytes of examples handed over and not yet hashed, beyond the oldest. */
#define HASH_WORKERS_BUDGET ((size_t)16 << 20)

/* Where an example is: its file and source (what an error names), its index in the source, and
   its split and position there (what is recorded). */
struct example_place {
    const char *path;
    const char *source;
    uint64_t index;
    size_t split;
    uint64_t number;
};

/* Receives each hash, in the order the examples were handed over. */
struct hash_receiver {
    int (*receive)(void *context, const struct example_place *place,
                   const struct perceptual_hash *hash);
    void *context;
};

struct hash_workers;

/* Hashing of images of LAYOUT (kept by the caller) on THREADS threads, the caller among them
   (0: the online CPUs; 1: each example hashed as it is handed over). EXIT_OTHER when threads
   cannot start or memory is short. */
int hash_workers_begin(struct hash_workers **workers, const struct image_layout *layout,
                       unsigned threads, const struct hash_receiver *receiver);

/* Hands over one example, SIZE bytes at DATA: its pixels, of axes SHAPE (the layout's rank of
   them), or a stored image file. OWNED: DATA was malloc'd and is freed once hashed (also on
   failure); else it stays untouched until hash_workers_finish returns. Hashes already made are
   received first; their failure or the receiver's is returned (EXIT_CORRUPT_INPUT: an image
   that does not decode). */
int hash_workers_add(struct hash_workers *workers, const uint8_t *data, size_t size, bool owned,
                     const uint64_t *shape, const struct example_place *place);

/* Waits for every example handed over and receives its hash. */
int hash_workers_finish(struct hash_workers *workers);

void hash_workers_free(struct hash_workers *workers);

#endif
