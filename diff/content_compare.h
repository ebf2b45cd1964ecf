/* Compares the examples of one source in two H5PYDataset files, range by range, in canonical form
   and in blocks of bounded size (two buffers of CONTENT_BLOCK_BYTES). */
#ifndef FUEL_CONTENT_COMPARE_H
#define FUEL_CONTENT_COMPARE_H

#include "common/h5py/content_blocks.h"
#include "common/h5py/h5py_reader.h"
#include "common/h5py/h5py_vlen_examples.h"

#include <stdbool.h>
#include <stdint.h>

struct content_pair {
    const char *name;
    bool variable;
    uint64_t counts[2];              /* examples in the left and right files */
    struct content_source fixed[2];  /* fixed-shape sources */
    struct h5py_vlen_examples vlen[2];
};

/* Whether the two files' SOURCE can be compared value by value: present in both with the same
   dtype, both fixed-shape with the same example shape or both variable-length. */
bool content_pair_comparable(const struct h5py_file_source *left,
                             const struct h5py_file_source *right);

/* Opens source NAME in both files (comparable ones); closed by content_pair_close. */
int content_pair_open(struct content_pair *pair, const struct h5py_file *left,
                      const struct h5py_file *right, const struct h5py_file_source *source);

void content_pair_close(struct content_pair *pair);

/* Called with each differing example's offset from the compared range's start, ascending; a
   result other than EXIT_OK stops. */
typedef int (*content_difference_found)(void *context, uint64_t offset);

/* Compares the left file's examples [FIRST[0], FIRST[0] + COUNT) with the right file's
   [FIRST[1], FIRST[1] + COUNT), which they hold, offset for offset. */
int content_pair_compare(struct content_pair *pair, const uint64_t first[2], uint64_t count,
                         content_difference_found found, void *context);

#endif
