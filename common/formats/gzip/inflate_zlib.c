/* The inflate backend on zlib's inflate, built with make INFLATE=zlib or where there is no libisal. */
#ifdef FUEL_INFLATE_ZLIB
#include "inflate_engine.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

struct inflate_engine {
    z_stream stream;
    bool gzip;
};

struct inflate_engine *engine_create(bool gzip)
{
    struct inflate_engine *engine = calloc(1, sizeof *engine);
    if (engine == NULL)
        return NULL;
    engine->gzip = gzip;
    /* 15 + 16: a gzip wrapper only, never a zlib one. */
    if (inflateInit2(&engine->stream, gzip ? 15 + 16 : 15) != Z_OK) {
        free(engine);
        return NULL;
    }
    return engine;
}

void engine_restart(struct inflate_engine *engine)
{
    inflateReset(&engine->stream);
}

/* zlib's messages in gzip's words, so that both builds say the same. */
static const char *error_reason(const struct inflate_engine *engine, int status)
{
    const char *message = engine->stream.msg != NULL ? engine->stream.msg : "";
    if (status == Z_NEED_DICT)
        return "a zlib stream that needs a preset dictionary";
    if (status == Z_MEM_ERROR)
        return "out of memory";
    if (strcmp(message, "incorrect data check") == 0)
        return engine->gzip ? "invalid compressed data--crc error"
                            : "invalid compressed data--adler32 error";
    if (strcmp(message, "incorrect length check") == 0)
        return "invalid compressed data--length error";
    if (strcmp(message, "incorrect header check") == 0)
        return engine->gzip ? "not in gzip format" : "not a zlib stream";
    if (strcmp(message, "unknown compression method") == 0)
        return engine->gzip ? "unknown method" : "not a zlib stream";
    return "invalid compressed data--format violated";
}

enum engine_result engine_run(struct inflate_engine *engine, const unsigned char **input,
                              size_t *input_size, unsigned char **output, size_t *output_size,
                              const char **reason)
{
    z_stream *stream = &engine->stream;
    stream->next_in = (Bytef *)*input;
    stream->avail_in = (uInt)*input_size;
    stream->next_out = *output;
    stream->avail_out = (uInt)*output_size;
    int status = inflate(stream, Z_NO_FLUSH);
    *input_size -= (size_t)(stream->next_in - *input);
    *input = stream->next_in;
    *output_size -= (size_t)(stream->next_out - *output);
    *output = stream->next_out;
    if (status == Z_STREAM_END)
        return ENGINE_END;
    if (status == Z_OK || status == Z_BUF_ERROR)
        return ENGINE_MORE;
    *reason = error_reason(engine, status);
    return ENGINE_ERROR;
}

void engine_free(struct inflate_engine *engine)
{
    if (engine == NULL)
        return;
    inflateEnd(&engine->stream);
    free(engine);
}

const char *engine_library(void)
{
    return "zlib " ZLIB_VERSION;
}
#endif
