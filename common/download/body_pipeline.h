/* A transfer's body on its way into the .part file: the receiving thread only copies each block
   into a ring buffer; one thread writes the ring to the file, another hashes it. */
#ifndef FUEL_BODY_PIPELINE_H
#define FUEL_BODY_PIPELINE_H

#include "common/base/hash.h"

#include <stddef.h>
#include <stdint.h>

struct body_pipeline;

/* Starts the writer and the hasher for DESCRIPTOR (PATH, for messages). The file's first KEPT
   bytes are a resumed prefix: they are hashed from the file, and the body is written after
   them. */
int body_pipeline_start(struct body_pipeline **pipeline, int descriptor, const char *path,
                        uint64_t kept, enum hash_algorithm algorithm);

/* Hands LENGTH bytes to both threads, waiting while the ring is full. Returns 0, or the errno of
   the write or read that failed (the pipeline is then stopped and takes no more). */
int body_pipeline_feed(struct body_pipeline *pipeline, const void *data, size_t length);

/* Waits until every byte fed is written and hashed, writes the hex digest and frees PIPELINE.
   EXIT_WRITE when the file could not be written, EXIT_OTHER when the prefix could not be read. */
int body_pipeline_finish(struct body_pipeline *pipeline, char hex[HASH_HEX_SIZE]);

/* Stops hashing at once, waits until every byte fed is written (a cut transfer keeps what
   arrived, to resume from) and frees PIPELINE; NULL is allowed. */
void body_pipeline_cancel(struct body_pipeline *pipeline);

#endif
