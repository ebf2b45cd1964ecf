/* Pillow's resize of 8-bit images with the LANCZOS (ANTIALIAS) filter, to the same bytes. */
#ifndef FUEL_PILLOW_RESAMPLE_H
#define FUEL_PILLOW_RESAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One axis of a resize (Pillow's precompute_coeffs, then normalize_coeffs_8bpc): for each
   output position the first input position it reads, how many it reads, and their weights in
   fixed point (22 fraction bits). */
struct pillow_axis {
    uint32_t input_size;
    uint32_t output_size;
    uint32_t taps;          /* weights stored per output position (Pillow's ksize) */
    int32_t *first;         /* output_size entries */
    int32_t *count;         /* output_size entries */
    int32_t *weights;       /* output_size * taps entries */
};

/* A resize planned once for one pair of sizes, then run on any number of images (by any number
   of threads: running only reads the plan). */
struct pillow_resample {
    uint32_t channels;
    struct pillow_axis horizontal;
    struct pillow_axis vertical;
    bool resize_horizontally; /* Pillow skips a pass whose size does not change */
    bool resize_vertically;
    uint32_t first_row;       /* the input rows the vertical pass reads, resized horizontally */
    uint32_t rows;            /* first into the scratch image */
};

/* Plans Image.resize((OUTPUT_WIDTH, OUTPUT_HEIGHT), Image.LANCZOS) of an image of CHANNELS
   (1 to 4: "L", "RGB", "CMYK"; not "RGBA", which Pillow premultiplies) bytes per pixel.
   EXIT_OTHER with "cannot resize: ..." when a size is zero or the plan does not fit in memory. */
int pillow_resample_prepare(struct pillow_resample *plan, uint32_t input_width,
                            uint32_t input_height, uint32_t output_width, uint32_t output_height,
                            uint32_t channels);

/* Bytes of scratch memory pillow_resample_run needs (the horizontally resized rows). */
size_t pillow_resample_scratch_size(const struct pillow_resample *plan);

/* Resizes INPUT (input height x width x channels, interleaved as PIL holds it) into OUTPUT
   (output height x width x channels); SCRATCH holds pillow_resample_scratch_size bytes. */
void pillow_resample_run(const struct pillow_resample *plan, const uint8_t *input,
                         uint8_t *scratch, uint8_t *output);

/* The output rows [FIRST, FIRST + COUNT) alone (FIRST + COUNT at most the output height) into
   OUTPUT (COUNT x output width x channels): the same bytes as those rows of pillow_resample_run,
   reading and resizing only the input rows they need (Fuel's crop after its resize). */
void pillow_resample_run_rows(const struct pillow_resample *plan, const uint8_t *input,
                              uint8_t *scratch, uint32_t first, uint32_t count, uint8_t *output);

/* Whether the passes use AVX2 where the CPU has it (the default); false runs the plain loops
   (the tests compare both: the bytes are the same). */
void pillow_resample_use_avx2(bool use);

void pillow_resample_free(struct pillow_resample *plan);

#endif
