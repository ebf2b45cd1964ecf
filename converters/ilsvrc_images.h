/* One ILSVRC image on its way to the file: its bytes as the archive (or the patch archive) holds
   them, checked on a worker as Fuel's PIL check would (a gzip-wrapped JPEG inflated first), and
   where it goes. */
#ifndef FUEL_CONVERTERS_ILSVRC_IMAGES_H
#define FUEL_CONVERTERS_ILSVRC_IMAGES_H

#include "common/base/memory_budget.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* An image member (or a gzip member's content) of more bytes than this is refused. */
#define ILSVRC_MAXIMUM_IMAGE_BYTES (64u << 20)
/* Fuel's filenames are numpy S32: longer names are cut, as numpy cuts them. */
#define ILSVRC_FILENAME_BYTES 32

struct ilsvrc_job {
    unsigned char *bytes; /* as read */
    size_t size;
    size_t capacity;
    unsigned char *inflated; /* a gzip member's content */
    size_t inflated_size;
    size_t inflated_capacity;
    const unsigned char *stored; /* what the file holds: BYTES, or INFLATED */
    size_t stored_size;
    char label[4400]; /* "ARCHIVE: MEMBER" or "ARCHIVE: INNER TAR: MEMBER", for messages */
    char filename[ILSVRC_FILENAME_BYTES];
    int16_t target;
    uint64_t place;   /* the example's row */
    bool skip_bad;    /* a bad image is marked, its reason kept, instead of failing */
    struct memory_budget *budget; /* what its decoding takes is taken from it, NULL: none */
    uint64_t charged; /* the bytes of the member its queue counts while it is on its way */
    bool bad;
    char reason[1024];
};

/* In a worker (ordered_pool_work): sets STORED to the image's bytes once they decode: a JPEG
   (jpeg_check with PIL's warning policy, CMYK included) or a PNG, as they are, or either wrapped
   in gzip, inflated. EXIT_CORRUPT_INPUT naming the label otherwise. What the decoding holds
   (a progressive JPEG's coefficients: 1 GB for one of PIL's largest) is taken from the job's
   budget first, and waits until it fits beside the other decodings. */
int ilsvrc_job_check(void *job);

/* Fills FILENAME with the last component of the member NAME, cut to 32 bytes, NUL-padded. */
void ilsvrc_job_name(struct ilsvrc_job *job, const char *name);

/* Makes room for SIZE bytes at BYTES. */
int ilsvrc_job_reserve(struct ilsvrc_job *job, uint64_t size);

void ilsvrc_job_free(struct ilsvrc_job *job);

#endif
