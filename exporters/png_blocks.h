/* Streams a split's image examples through PNG encoding on several threads, block by block, and
   hands the encoded images to a consumer in the split's order; encoded examples (JPEG or PNG
   files' bytes) are handed on as they are stored. */
#ifndef FUEL_PNG_BLOCKS_H
#define FUEL_PNG_BLOCKS_H

#include "export_form.h"

#include <stddef.h>
#include <stdint.h>

struct encoded_example {
    uint64_t number; /* in the split */
    double label;    /* 0 without a label source */
    const uint8_t *png; /* the image file's bytes: PNG, or a stored JPEG */
    size_t size;
    const char *extension; /* "png", or "jpg" for a stored JPEG */
};

typedef int (*encoded_consumer)(void *context, const struct encoded_example *example);

/* Encodes every example of the job's split (threads: the request's, or one per processor) and
   calls CONSUME for each, in order, from the calling thread. */
int png_blocks_run(struct export_job *job, encoded_consumer consume, void *context);

#endif
