/* Batch arrays kept for reuse: a bounded stack of buffers of one size, taken by the reader thread
   and given back by ZeroMQ's I/O thread once a frame is sent. */
#ifndef FUEL_BUFFER_POOL_H
#define FUEL_BUFFER_POOL_H

#include <stddef.h>

struct buffer_pool;

/* A pool of buffers of SIZE bytes keeping up to CAPACITY of them; NULL when out of memory. */
struct buffer_pool *buffer_pool_create(size_t size, size_t capacity);

/* The owner is done with POOL: it is freed once every buffer taken is given back (ZeroMQ may
   still hold some after its socket is closed); NULL is allowed. */
void buffer_pool_release(struct buffer_pool *pool);

/* The size of POOL's buffers. */
size_t buffer_pool_size(const struct buffer_pool *pool);

/* A buffer of the pool's size, kept or new; NULL when out of memory. */
void *buffer_pool_take(struct buffer_pool *pool);

/* Gives back BUFFER, taken from POOL: kept for reuse, or freed when the pool is full or
   released. A NULL POOL frees BUFFER (an array that came from malloc); a NULL BUFFER is
   nothing. */
void buffer_pool_give(struct buffer_pool *pool, void *buffer);

#endif
