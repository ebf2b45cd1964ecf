/* fuel-info's text made safe to show: control characters escaped, lines cut. */
#include "shown_text.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

struct shown {
    FILE *target;
    size_t column;      /* bytes of the current line written */
    uint64_t dropped;   /* bytes of the current line cut */
    bool after_lead;    /* the last byte was 0xC2, the lead byte of U+0080 to U+00BF */
};

static void emit(struct shown *shown, const char *text, size_t length)
{
    if (shown->column >= SHOWN_LINE_MAX) {
        shown->dropped += length;
        return;
    }
    fwrite(text, 1, length, shown->target);
    shown->column += length;
}

static void emit_byte(struct shown *shown, unsigned char byte)
{
    char escaped[8];
    if (byte == '\n') {
        if (shown->dropped > 0)
            fprintf(shown->target, " ... (%" PRIu64 " more bytes)", shown->dropped);
        fputc('\n', shown->target);
        shown->column = 0;
        shown->dropped = 0;
    } else if (byte == '\t' || byte == '\r') {
        emit(shown, byte == '\t' ? "\\t" : "\\r", 2);
    } else if (byte < 0x20 || byte == 0x7f) {
        emit(shown, escaped, (size_t)snprintf(escaped, sizeof escaped, "\\x%02x", byte));
    } else {
        emit(shown, (const char *)&byte, 1);
    }
}

static void take(struct shown *shown, unsigned char byte)
{
    if (shown->after_lead) {
        shown->after_lead = false;
        if (byte >= 0x80 && byte <= 0x9f) {
            char escaped[8];
            emit(shown, escaped, (size_t)snprintf(escaped, sizeof escaped, "\\u%04x", byte));
            return;
        }
        emit(shown, "\xc2", 1);
    }
    if (byte == 0xc2)
        shown->after_lead = true;
    else
        emit_byte(shown, byte);
}

static ssize_t shown_write(void *cookie, const char *buffer, size_t size)
{
    struct shown *shown = cookie;
    for (size_t index = 0; index < size; index++)
        take(shown, (unsigned char)buffer[index]);
    /* Passed on at once, so that it keeps its place among the messages on standard error. */
    fflush(shown->target);
    return ferror(shown->target) ? -1 : (ssize_t)size;
}

static int shown_close(void *cookie)
{
    struct shown *shown = cookie;
    if (shown->after_lead)
        emit(shown, "\xc2", 1);
    int result = ferror(shown->target) ? EOF : 0;
    free(shown);
    return result;
}

FILE *shown_text_open(FILE *target)
{
    struct shown *shown = calloc(1, sizeof *shown);
    if (shown == NULL)
        return NULL;
    shown->target = target;
    cookie_io_functions_t functions = {.write = shown_write, .close = shown_close};
    FILE *stream = fopencookie(shown, "w", functions);
    if (stream == NULL)
        free(shown);
    return stream;
}
