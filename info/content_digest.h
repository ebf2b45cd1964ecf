/* Content digests of an H5PYDataset file: a SHA-256 per source over its type, shape and values,
   and one over the whole content (sources, split rows, axis and shape labels), independent of the
   provenance, the file's name, the HDF5 layout (chunked or contiguous, compressed or not, byte
   order, fixed or variable-length strings in the split array and labels) and the creation time.

   The canonical encoding hashed, version 1. Primitives: U64 is 8 bytes little-endian; I64 the
   same in two's complement; U8 one byte; STR a U64 byte count then the bytes (no terminator),
   strings as the reader returns them (fixed-length ones without their padding).

   Source digest, of a fixed-shape source:
     STR "fuel-source-digest-1"  STR dtype  STR "fixed"  U64 rank  rank x U64 dimension
     then every element in C order (last axis fastest), each in canonical form: integers, floats,
     enums (numpy bool: one byte, 0 or 1) and bitfields little-endian at their stored size,
     fixed-length strings as stored (padding included).
   Of a variable-length source (a vlen dataset, SVHN format 1):
     STR "fuel-source-digest-1"  STR dtype (of the elements)  STR "variable"
     U64 examples  U64 example rank (the `shapes` scale's columns; 1 without one)
     then per example in order: example rank x U64 its shape (its length without a `shapes`
     scale), U64 its element count, its elements in canonical form.
   dtype is numpy's name for the stored type without byte order: uint8, int64, float32, bool, S12.

   Whole-content digest:
     STR "fuel-content-digest-1"  U64 number of sources
     per source named by the split array, in byte order of the names:
       STR name  STR its source digest in lowercase hex ("" when the file has no such dataset)
       U64 rank  rank x STR axis label ("" for an unlabelled axis)
       U64 shape label count  each STR shape label (the `shape_labels` scale; 0 without one)
     U64 number of split rows
     per row, in byte order of (split, source), rows of equal pairs in file order:
       STR split  STR source  I64 start  I64 stop  U8 available (0 or 1)  STR comment
       then STR "contiguous" for a null indices reference; STR "dangling" for one that resolves
       to no dataset; else STR "indices"  U64 count  count x I64 the indices' values in order.
   Attributes other than `split` (fuel_provenance, fuel_convert_command, versions) are not part
   of the content; neither are datasets the split array does not reach. */
#ifndef FUEL_CONTENT_DIGEST_H
#define FUEL_CONTENT_DIGEST_H

#include "common/base/hash.h"
#include "common/h5py/h5py_reader.h"

#include <stdbool.h>
#include <stddef.h>

struct content_source_digest {
    char *name;
    bool present;               /* false: the split array names it, the file has no dataset */
    char sha256[HASH_HEX_SIZE]; /* "" when absent */
};

struct content_digest {
    char sha256[HASH_HEX_SIZE];            /* the whole content */
    size_t source_count;
    struct content_source_digest *sources; /* in byte order of their names */
};

/* The source digest of SOURCE of FILE, reading its values in blocks of CONTENT_BLOCK_BYTES.
   EXIT_USAGE when its element type has no canonical form (variable-length strings, compounds,
   references); EXIT_CORRUPT_INPUT when it cannot be read. */
int content_source_digest(const struct h5py_file *file, const struct h5py_file_source *source,
                          char sha256[HASH_HEX_SIZE]);

/* Every source digest of FILE and the whole-content digest. */
int content_digest_compute(const struct h5py_file *file, struct content_digest *digest);

void content_digest_free(struct content_digest *digest);

#endif
