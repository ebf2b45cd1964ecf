/* The digest of every example of one source over the splits of H5PYDataset files: the table
   fuel duplicates sorts to find examples of equal values. */
#ifndef FUEL_EXAMPLE_DIGESTS_H
#define FUEL_EXAMPLE_DIGESTS_H

#include "common/base/stage_listener.h"
#include "common/h5py/h5py_reader.h"
#include "perceptual_hash.h"

#include <stdbool.h>

#include <stddef.h>
#include <stdint.h>

/* The bytes of an example's SHA-256 kept: two examples are taken as equal when these are. */
#define EXAMPLE_DIGEST_BYTES 16

/* More examples than this in all files together are refused before any is read: with their
   perceptual hashes, a parent of 4 bytes each is held in memory (256 MiB at the bound); by
   digest, nothing is held for each. */
#define EXAMPLE_DIGESTS_MAX ((uint64_t)1 << 26)
#define EXAMPLE_DIGESTS_SPILLED_MAX ((uint64_t)1 << 32)
/* Digests held in memory (24 bytes each, 12 MiB; glibc's qsort takes as much again) before a
   sorted run is spilled, unless a caller says. */
#define EXAMPLE_DIGESTS_IN_MEMORY ((size_t)1 << 19)
/* Records with perceptual hashes held in memory (56 bytes each, and 20 more a thread during
   the in-memory search: 19 MiB) before they are spilled to be searched through sorted runs. */
#define EXAMPLE_DIGESTS_NEAR_IN_MEMORY ((size_t)1 << 18)

/* One example: its digest and where it is, 24 bytes. */
struct example_record {
    unsigned char digest[EXAMPLE_DIGEST_BYTES];
    uint32_t number; /* its position in its split */
    uint16_t split;  /* in the digested file's list of splits */
    uint16_t file;
};

struct sorted_runs;
struct near_spill;

struct example_digests {
    struct example_record *records;
    /* With perceptual digests, each record's image hash (its digest left zero), 32 bytes more
       per example; else NULL. */
    struct perceptual_hash *hashes;
    size_t count;
    size_t capacity;
    uint64_t total;             /* examples digested, spilled ones included */
    size_t memory_limit;        /* records held before a run is spilled; 0: the default */
    struct sorted_runs *runs;   /* NULL until a run is spilled (digest_runs.h) */
    struct near_spill *spill;   /* perceptual: NULL until records are spilled (near_spill.h) */
};

struct digest_request {
    const struct h5py_file *file;
    uint16_t file_index;
    const char *source;
    char *const *splits; /* the splits digested, SPLITS[i] recorded as split i */
    size_t split_count;
    const struct stage_listener *listener; /* told of the examples done; NULL: nobody */
    bool perceptual; /* each example's perceptual hash (image_hashes.h) rather than its SHA-256 */
    unsigned threads; /* perceptual: the threads hashing (0: the online CPUs) */
};

/* The examples REQUEST's splits select of its source, ignoring the splits where the source is
   unavailable. EXIT_USAGE when the file has no such source (or, perceptual, one not of images);
   EXIT_CORRUPT_INPUT when its examples cannot be read; EXIT_OTHER past EXAMPLE_DIGESTS_MAX
   (perceptual) or EXAMPLE_DIGESTS_SPILLED_MAX, or out of memory; EXIT_WRITE when a run cannot
   be spilled. */
uint64_t example_digests_count(const struct digest_request *request);
/* EXIT_OTHER, naming the first file past it, when the COUNT REQUESTS together select more
   examples than EXAMPLE_DIGESTS_MAX (perceptual) or EXAMPLE_DIGESTS_SPILLED_MAX: checked
   before any example is read. */
int example_digests_bound(const struct digest_request *requests, size_t count);
int example_digests_add(struct example_digests *digests, const struct digest_request *request);

void example_digests_free(struct example_digests *digests);

#endif
