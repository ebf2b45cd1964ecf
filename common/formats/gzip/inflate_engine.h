/* What an inflate backend (inflate_isal.c or inflate_zlib.c, the Makefile builds one) gives
   inflate.c: one gzip member or one zlib stream at a time, checksums checked. */
#ifndef FUEL_INFLATE_ENGINE_H
#define FUEL_INFLATE_ENGINE_H

#include <stdbool.h>
#include <stddef.h>

enum engine_result {
    ENGINE_MORE,  /* the input or the output ran out first */
    ENGINE_END,   /* the member or stream ended, its trailer checked */
    ENGINE_ERROR, /* corrupt data or a wrong checksum: *reason says why, as gzip words it */
};

/* Calls take at most this many bytes of input or output (the libraries count in 32 bits). */
#define ENGINE_MAXIMUM_CALL ((size_t)1 << 30)

struct inflate_engine;

/* NULL when out of memory. GZIP: one gzip member (header, deflate data, CRC-32 and ISIZE);
   otherwise one zlib stream (header, deflate data, Adler-32). */
struct inflate_engine *engine_create(bool gzip);

/* Starts the next member or stream. */
void engine_restart(struct inflate_engine *engine);

/* Inflates from *INPUT (*INPUT_SIZE bytes) into *OUTPUT (*OUTPUT_SIZE bytes), each at most
   ENGINE_MAXIMUM_CALL, advancing the pointers and lowering the sizes by what was used. */
enum engine_result engine_run(struct inflate_engine *engine, const unsigned char **input,
                              size_t *input_size, unsigned char **output, size_t *output_size,
                              const char **reason);

void engine_free(struct inflate_engine *engine);

const char *engine_library(void);

#endif
