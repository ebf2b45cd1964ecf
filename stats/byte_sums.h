/* Exact sums of bytes and of their squares, with their minimum and maximum: fuel stats' inner
   loop over uint8 images, vectorised by hand (AVX2 where the processor has it, else SSE2 on
   x86-64, else plain C), every path giving the same integers. */
#ifndef FUEL_STATS_BYTE_SUMS_H
#define FUEL_STATS_BYTE_SUMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct byte_sums {
    uint64_t sum, square_sum;
    uint8_t minimum, maximum; /* 255 and 0 while nothing is added */
};

/* Nothing added yet. */
void byte_sums_begin(struct byte_sums *sums);

/* Adds the COUNT bytes at BYTES; the square sum is exact while the bytes added in all are fewer
   than 2^48. */
void byte_sums_add(struct byte_sums *sums, const uint8_t *bytes, size_t count);

/* The loops byte_sums_add chooses from, the widest the processor has. */
enum byte_sums_path { BYTE_SUMS_PLAIN, BYTE_SUMS_SSE2, BYTE_SUMS_AVX2 };

/* Whether this build and processor can take PATH. */
bool byte_sums_path_available(enum byte_sums_path path);

/* As byte_sums_add on PATH (byte_sums_path_available), for the tests comparing them. */
void byte_sums_add_on(struct byte_sums *sums, const uint8_t *bytes, size_t count,
                      enum byte_sums_path path);

#endif
