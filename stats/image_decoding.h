/* --decode: the pixels of a variable-length source of stored JPEG (or PNG) files, decoded on
   worker threads as PIL decodes them and made RGB as torchvision's loader makes them
   (Image.open(file).convert("RGB")), summarised per channel. */
#ifndef FUEL_STATS_IMAGE_DECODING_H
#define FUEL_STATS_IMAGE_DECODING_H

#include "source_statistics.h"

#include <stddef.h>
#include <stdint.h>

/* Pixel bytes of the images decoding at once, beyond the first (which may be larger). */
#define IMAGE_DECODING_BUDGET ((uint64_t)48 << 20)

struct image_decoding;

/* Decoding for SOURCE on THREADS threads (the caller among them; 0: the online CPUs) into
   STATISTICS, whose three channels it begins. */
int image_decoding_begin(struct image_decoding **decoding, const char *source, unsigned threads,
                         struct source_statistics *statistics);

/* Hands example INDEX, COUNT bytes at DATA (malloc'd: the decoding frees it), to a worker;
   results already decoded are added to the statistics. EXIT_CORRUPT_INPUT when an image does
   not decode ("cannot decode JPEG: SOURCE[INDEX]: why"). */
int image_decoding_add(struct image_decoding *decoding, void *data, size_t count, uint64_t index);

/* Waits for every image handed over and adds its pixels. */
int image_decoding_finish(struct image_decoding *decoding);

void image_decoding_free(struct image_decoding *decoding);

#endif
