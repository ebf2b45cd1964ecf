/* A mutex-guarded stack of same-size buffers (the last given back is the next taken), freed with
   its last outstanding buffer. */
#include "buffer_pool.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

struct buffer_pool {
    pthread_mutex_t lock;
    size_t size;        /* of every buffer */
    size_t capacity;    /* buffers kept at most */
    size_t count;       /* buffers kept now */
    size_t outstanding; /* buffers taken and not given back */
    bool released;
    void *buffers[];
};

struct buffer_pool *buffer_pool_create(size_t size, size_t capacity)
{
    struct buffer_pool *pool = calloc(1, sizeof *pool + capacity * sizeof pool->buffers[0]);
    if (pool == NULL)
        return NULL;
    pool->size = size > 0 ? size : 1;
    pool->capacity = capacity;
    pthread_mutex_init(&pool->lock, NULL);
    return pool;
}

static void pool_free(struct buffer_pool *pool)
{
    for (size_t index = 0; index < pool->count; index++)
        free(pool->buffers[index]);
    pthread_mutex_destroy(&pool->lock);
    free(pool);
}

void buffer_pool_release(struct buffer_pool *pool)
{
    if (pool == NULL)
        return;
    pthread_mutex_lock(&pool->lock);
    pool->released = true;
    bool unused = pool->outstanding == 0;
    pthread_mutex_unlock(&pool->lock);
    if (unused)
        pool_free(pool);
}

size_t buffer_pool_size(const struct buffer_pool *pool)
{
    return pool->size;
}

void *buffer_pool_take(struct buffer_pool *pool)
{
    void *buffer = NULL;
    pthread_mutex_lock(&pool->lock);
    if (pool->count > 0)
        buffer = pool->buffers[--pool->count];
    pool->outstanding++;
    pthread_mutex_unlock(&pool->lock);
    if (buffer == NULL && (buffer = malloc(pool->size)) == NULL) {
        pthread_mutex_lock(&pool->lock);
        pool->outstanding--;
        pthread_mutex_unlock(&pool->lock);
    }
    return buffer;
}

void buffer_pool_give(struct buffer_pool *pool, void *buffer)
{
    if (pool == NULL || buffer == NULL) {
        free(buffer);
        return;
    }
    pthread_mutex_lock(&pool->lock);
    pool->outstanding--;
    if (!pool->released && pool->count < pool->capacity) {
        pool->buffers[pool->count++] = buffer;
        buffer = NULL;
    }
    bool unused = pool->released && pool->outstanding == 0;
    pthread_mutex_unlock(&pool->lock);
    free(buffer);
    if (unused)
        pool_free(pool);
}
