/* A 256-bit perceptual hash of an image, for fuel duplicates --near: images that look alike (a
   re-encoded JPEG, a brightness shift, a one-pixel crop resized back) get hashes a few bits
   apart, distinct photos hashes about half their bits apart. */
#ifndef FUEL_PERCEPTUAL_HASH_H
#define FUEL_PERCEPTUAL_HASH_H

#include <stddef.h>
#include <stdint.h>

#define PERCEPTUAL_HASH_BITS 256
/* The side of the grayscale square the hash is computed from. */
#define PERCEPTUAL_HASH_SIDE 32

/* Bit k (k = 16 u + v for the DCT coefficient (u + 1, v + 1)) is bit k % 64 of words[k / 64]. */
struct perceptual_hash {
    uint64_t words[PERCEPTUAL_HASH_BITS / 64];
};

/* The hash of CHANNELS x HEIGHT x WIDTH bytes at PIXELS (channel-major; for INTERLEAVED, height x
   width x channels). 1 channel is taken as gray, 3 as RGB (luma 0.299 R + 0.587 G + 0.114 B),
   any other count by the channels' mean. EXIT_OTHER when out of memory. */
int perceptual_hash_pixels(const uint8_t *pixels, uint32_t channels, uint32_t height,
                           uint32_t width, int interleaved, struct perceptual_hash *hash);

/* Into DISTANCES[i], the number of bits in which HASH and the hash at OTHERS + i * STRIDE bytes
   differ, for i < COUNT: one call for many, the processor's popcnt chosen once. */
void perceptual_hash_distances(const struct perceptual_hash *hash, const void *others,
                               size_t stride, size_t count, unsigned *distances);

/* The number of bits in which A and B differ. */
unsigned perceptual_hash_distance(const struct perceptual_hash *a, const struct perceptual_hash *b);

#endif
