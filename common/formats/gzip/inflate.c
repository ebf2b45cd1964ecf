/* The inflater the readers share (see inflate.h): gzip's rules between members, over a backend. */
#include "inflate.h"

#include "common/base/error.h"
#include "inflate_engine.h"
#include "inflate_gzip_header.h"

#include <stdlib.h>

enum phase {
    PHASE_HEADER,  /* inside a gzip member's header, read by inflate_gzip_header.c */
    PHASE_MEMBER,  /* inside a gzip member's data or the zlib stream */
    PHASE_BETWEEN, /* after a gzip member: another one, zeros, garbage or the end */
    PHASE_ZEROS,   /* zero bytes after the last member */
    PHASE_END,
    PHASE_CORRUPT,
};

/* A pull's steps return an inflate_status, or STEP_ON to go on with the next phase. */
enum { STEP_ON = -1 };

struct inflater {
    struct inflate_engine *engine;
    enum inflate_format format;
    enum phase phase;
    const unsigned char *input;
    size_t input_size;
    bool input_ended;
    struct gzip_header header;
    bool later_member;  /* the header read is not the first member's */
    /* Bytes of gzip_header_plain still to hand the backend before INPUT. */
    size_t plain_left;
    const char *reason;
};

static enum phase first_phase(enum inflate_format format)
{
    return format == INFLATE_GZIP ? PHASE_HEADER : PHASE_MEMBER;
}

int inflater_create(struct inflater **inflater, enum inflate_format format)
{
    *inflater = calloc(1, sizeof **inflater);
    if (*inflater != NULL)
        (*inflater)->engine = engine_create(format == INFLATE_GZIP);
    if (*inflater == NULL || (*inflater)->engine == NULL) {
        free(*inflater);
        *inflater = NULL;
        return error_set(EXIT_OTHER, "cannot inflate: out of memory");
    }
    (*inflater)->format = format;
    inflater_reset(*inflater);
    return EXIT_OK;
}

void inflater_reset(struct inflater *inflater)
{
    engine_restart(inflater->engine);
    inflater->phase = first_phase(inflater->format);
    inflater->input = NULL;
    inflater->input_size = 0;
    inflater->input_ended = false;
    gzip_header_start(&inflater->header);
    inflater->later_member = false;
    inflater->plain_left = 0;
    inflater->reason = NULL;
}

void inflater_feed(struct inflater *inflater, const void *input, size_t size)
{
    inflater->input = input;
    inflater->input_size = size;
}

void inflater_end_input(struct inflater *inflater)
{
    inflater->input_ended = true;
}

static int corrupt(struct inflater *inflater, const char *reason)
{
    inflater->phase = PHASE_CORRUPT;
    inflater->reason = reason;
    return INFLATE_CORRUPT;
}

static int input_ran_out(struct inflater *inflater)
{
    return inflater->input_ended ? corrupt(inflater, "unexpected end of file") : INFLATE_NEED_INPUT;
}

static size_t capped(size_t size)
{
    return size < ENGINE_MAXIMUM_CALL ? size : ENGINE_MAXIMUM_CALL;
}

/* Runs the backend until the output is full, the input used up, or the member ends. */
static int run_member(struct inflater *inflater, unsigned char **output, size_t *room)
{
    for (;;) {
        bool from_plain = inflater->plain_left > 0;
        const unsigned char *source =
            from_plain ? gzip_header_plain + GZIP_HEADER_PLAIN_SIZE - inflater->plain_left
                       : inflater->input;
        size_t source_size = capped(from_plain ? inflater->plain_left : inflater->input_size);
        size_t output_size = capped(*room), input_before = source_size;
        size_t output_before = output_size;
        const char *reason = NULL;
        enum engine_result result =
            engine_run(inflater->engine, &source, &source_size, output, &output_size, &reason);
        size_t used = input_before - source_size;
        *room -= output_before - output_size;
        if (from_plain) {
            inflater->plain_left -= used;
        } else {
            inflater->input = source;
            inflater->input_size -= used;
        }
        if (result == ENGINE_ERROR)
            return corrupt(inflater, reason);
        if (result == ENGINE_END) {
            inflater->phase = inflater->format == INFLATE_GZIP ? PHASE_BETWEEN : PHASE_END;
            return STEP_ON;
        }
        if (*room == 0)
            return INFLATE_OUTPUT_FULL;
        bool progressed = used > 0 || output_size != output_before;
        if (!progressed && inflater->plain_left == 0 && inflater->input_size == 0)
            return input_ran_out(inflater);
    }
}

static int trailing_garbage(struct inflater *inflater)
{
    return corrupt(inflater, "trailing garbage after the gzip data");
}

/* Reads a member's header from the input; once it is whole, the backend gets the plain one. */
static int read_header(struct inflater *inflater)
{
    switch (gzip_header_read(&inflater->header, &inflater->input, &inflater->input_size)) {
    case GZIP_HEADER_DONE:
        engine_restart(inflater->engine);
        inflater->plain_left = GZIP_HEADER_PLAIN_SIZE;
        inflater->phase = PHASE_MEMBER;
        return STEP_ON;
    case GZIP_HEADER_NOT_GZIP:
        return inflater->later_member ? trailing_garbage(inflater)
                                      : corrupt(inflater, "not in gzip format");
    case GZIP_HEADER_REFUSED:
        return corrupt(inflater, inflater->header.reason);
    default:
        return input_ran_out(inflater);
    }
}

/* After a gzip member: 1f 8b starts another, zeros may pad the file, anything else is garbage. */
static int look_after_member(struct inflater *inflater)
{
    if (inflater->input_size == 0)
        return inflater->input_ended ? (inflater->phase = PHASE_END, STEP_ON) : INFLATE_NEED_INPUT;
    if (inflater->input[0] == 0) {
        inflater->phase = PHASE_ZEROS;
        return STEP_ON;
    }
    gzip_header_start(&inflater->header);
    inflater->later_member = true;
    inflater->phase = PHASE_HEADER;
    return STEP_ON;
}

static int skip_zeros(struct inflater *inflater)
{
    while (inflater->input_size > 0) {
        if (inflater->input[0] != 0)
            return trailing_garbage(inflater);
        inflater->input++;
        inflater->input_size--;
    }
    if (!inflater->input_ended)
        return INFLATE_NEED_INPUT;
    inflater->phase = PHASE_END;
    return STEP_ON;
}

enum inflate_status inflater_pull(struct inflater *inflater, void *output, size_t size,
                                  size_t *produced)
{
    unsigned char *cursor = output;
    size_t room = size;
    int status = STEP_ON;
    while (status == STEP_ON) {
        switch (inflater->phase) {
        case PHASE_HEADER: status = read_header(inflater); break;
        case PHASE_MEMBER: status = run_member(inflater, &cursor, &room); break;
        case PHASE_BETWEEN: status = look_after_member(inflater); break;
        case PHASE_ZEROS: status = skip_zeros(inflater); break;
        case PHASE_END: status = INFLATE_END; break;
        default: status = INFLATE_CORRUPT; break;
        }
    }
    *produced = size - room;
    return (enum inflate_status)status;
}

const char *inflater_reason(const struct inflater *inflater)
{
    return inflater->reason != NULL ? inflater->reason : "";
}

size_t inflater_unused(const struct inflater *inflater)
{
    return inflater->input_size;
}

void inflater_free(struct inflater *inflater)
{
    if (inflater == NULL)
        return;
    engine_free(inflater->engine);
    free(inflater);
}

const char *inflate_library(void)
{
    return engine_library();
}
