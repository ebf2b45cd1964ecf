/* The inflate backend on ISA-L's isal_inflate (built unless make INFLATE=zlib). */
#ifndef FUEL_INFLATE_ZLIB
#include "inflate_engine.h"

#include <isa-l/igzip_lib.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct inflate_engine {
    struct inflate_state state;
    bool gzip;
    /* The last 8 bytes used: after a member, its trailer (CRC-32, ISIZE). ISA-L reports one
       "incorrect checksum" for both; gzip tells a crc error from a length error. */
    unsigned char last[8];
};

struct inflate_engine *engine_create(bool gzip)
{
    struct inflate_engine *engine = malloc(sizeof *engine);
    if (engine == NULL)
        return NULL;
    engine->gzip = gzip;
    engine_restart(engine);
    return engine;
}

void engine_restart(struct inflate_engine *engine)
{
    isal_inflate_init(&engine->state);
    engine->state.crc_flag = engine->gzip ? ISAL_GZIP : ISAL_ZLIB;
    memset(engine->last, 0, sizeof engine->last);
}

static void remember_used(struct inflate_engine *engine, const unsigned char *used, size_t size)
{
    if (size == 0)
        return;
    if (size >= sizeof engine->last) {
        memcpy(engine->last, used + size - sizeof engine->last, sizeof engine->last);
        return;
    }
    memmove(engine->last, engine->last + size, sizeof engine->last - size);
    memcpy(engine->last + sizeof engine->last - size, used, size);
}

static uint32_t little_endian(const unsigned char *bytes)
{
    return (uint32_t)bytes[0] | (uint32_t)bytes[1] << 8 | (uint32_t)bytes[2] << 16 |
           (uint32_t)bytes[3] << 24;
}

static const char *checksum_reason(const struct inflate_engine *engine)
{
    if (!engine->gzip)
        return "invalid compressed data--adler32 error";
    if (little_endian(engine->last) != engine->state.crc)
        return "invalid compressed data--crc error";
    return "invalid compressed data--length error";
}

static const char *error_reason(const struct inflate_engine *engine, int status)
{
    switch (status) {
    case ISAL_INCORRECT_CHECKSUM:
        return checksum_reason(engine);
    case ISAL_INVALID_WRAPPER:
        return engine->gzip ? "not in gzip format" : "not a zlib stream";
    case ISAL_UNSUPPORTED_METHOD:
        return engine->gzip ? "unknown method" : "not a zlib stream";
    case ISAL_NEED_DICT:
        return "a zlib stream that needs a preset dictionary";
    default:
        return "invalid compressed data--format violated";
    }
}

enum engine_result engine_run(struct inflate_engine *engine, const unsigned char **input,
                              size_t *input_size, unsigned char **output, size_t *output_size,
                              const char **reason)
{
    struct inflate_state *state = &engine->state;
    state->next_in = (uint8_t *)*input;
    state->avail_in = (uint32_t)*input_size;
    state->next_out = *output;
    state->avail_out = (uint32_t)*output_size;
    int status = isal_inflate(state);
    *output_size -= (size_t)(state->next_out - *output);
    *output = state->next_out;
    if (status != ISAL_DECOMP_OK) {
        /* The input count may be wrong then (ISA-L 2.30 can leave avail_in at -1); when it
           holds, the bytes used end with the trailer a checksum error is told by. */
        if (state->avail_in < *input_size)
            remember_used(engine, *input, *input_size - state->avail_in);
        *reason = error_reason(engine, status);
        return ENGINE_ERROR;
    }
    if (state->avail_in > *input_size) {
        *reason = "invalid compressed data--format violated (input handed back)";
        return ENGINE_ERROR;
    }
    size_t used = *input_size - state->avail_in;
    if (used > 0) {
        remember_used(engine, *input, used);
        *input += used;
        *input_size -= used;
    }
    return state->block_state == ISAL_BLOCK_FINISH ? ENGINE_END : ENGINE_MORE;
}

void engine_free(struct inflate_engine *engine)
{
    free(engine);
}

const char *engine_library(void)
{
    return "ISA-L " FUEL_ISAL_VERSION;
}
#endif
