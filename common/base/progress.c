/* Draws per-file progress: live lines with percent, speed and ETA, or a line per finished file. */
#include "progress.h"

#include "monotonic_clock.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <time.h>

struct progress_slot {
    const char *name;
    uint64_t total;
    uint64_t done;
    uint64_t first;     /* bytes already on disk when the transfer started */
    double started;
    bool active;
    const char *unit; /* items counted (e.g. "examples"); NULL: bytes */
};

struct progress {
    enum progress_mode mode;
    FILE *stream;
    struct progress_slot *slots;
    size_t slot_count;
    size_t lines_drawn;
    double last_draw;
};

void progress_format_size(char *text, size_t size, double bytes)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    size_t unit = 0;
    while (bytes >= 1024 && unit + 1 < sizeof units / sizeof units[0]) {
        bytes /= 1024;
        unit++;
    }
    if (unit == 0)
        snprintf(text, size, "%.0f B", bytes);
    else
        snprintf(text, size, "%.1f %s", bytes, units[unit]);
}

struct progress *progress_begin(enum progress_mode mode, FILE *stream, size_t slots)
{
    struct progress *progress = calloc(1, sizeof *progress);
    if (progress == NULL)
        return NULL;
    progress->slots = calloc(slots > 0 ? slots : 1, sizeof *progress->slots);
    if (progress->slots == NULL) {
        free(progress);
        return NULL;
    }
    progress->mode = mode;
    progress->stream = stream;
    progress->slot_count = slots;
    return progress;
}

static void progress_clear(struct progress *progress)
{
    if (progress->lines_drawn > 0)
        fprintf(progress->stream, "\033[%zuA\r\033[J", progress->lines_drawn);
    progress->lines_drawn = 0;
}

/* DONE, TOTAL and RATE of SLOT as sizes, or as counts of its unit. */
static void progress_format_amounts(const struct progress_slot *slot, double rate, char *done,
                                    char *total, char *speed, size_t size)
{
    if (slot->unit == NULL) {
        progress_format_size(done, size, (double)slot->done);
        progress_format_size(total, size, (double)slot->total);
        progress_format_size(speed, size, rate);
        return;
    }
    snprintf(done, size, "%" PRIu64, slot->done);
    snprintf(total, size, "%" PRIu64 " %s", slot->total, slot->unit);
    snprintf(speed, size, "%.0f %s", rate, slot->unit);
}

static void progress_draw_slot(struct progress *progress, const struct progress_slot *slot,
                               double now)
{
    char done[48], total[48], speed[48], percent[16] = "", eta[32] = "";
    double elapsed = now - slot->started;
    double rate = elapsed > 0 ? (double)(slot->done - slot->first) / elapsed : 0;
    progress_format_amounts(slot, rate, done, total, speed, sizeof done);
    if (slot->total > 0) {
        snprintf(percent, sizeof percent, " %3.0f%%", 100.0 * (double)slot->done / (double)slot->total);
        if (rate > 0 && slot->total > slot->done)
            snprintf(eta, sizeof eta, " ETA %.0fs", (double)(slot->total - slot->done) / rate);
    }
    fprintf(progress->stream, "%s  %s of %s%s  %s/s%s\033[K\n", slot->name, done,
            slot->total > 0 ? total : "?", percent, speed, eta);
}

static void progress_draw(struct progress *progress)
{
    double now = monotonic_seconds();
    progress_clear(progress);
    for (size_t index = 0; index < progress->slot_count; index++) {
        if (!progress->slots[index].active)
            continue;
        progress_draw_slot(progress, &progress->slots[index], now);
        progress->lines_drawn++;
    }
    fflush(progress->stream);
    progress->last_draw = now;
}

void progress_start(struct progress *progress, size_t slot, const char *name, uint64_t total,
                    uint64_t done)
{
    struct progress_slot *entry = &progress->slots[slot];
    entry->name = name;
    entry->total = total;
    entry->done = done;
    entry->first = done;
    entry->started = monotonic_seconds();
    entry->active = true;
    entry->unit = NULL;
}

void progress_start_count(struct progress *progress, size_t slot, const char *name,
                          uint64_t total, const char *unit)
{
    progress_start(progress, slot, name, total, 0);
    progress->slots[slot].unit = unit;
}

void progress_update(struct progress *progress, size_t slot, uint64_t done, uint64_t total)
{
    /* fewer bytes than the .part held: a 200 answer restarted the file, so every byte is new */
    if (done < progress->slots[slot].first)
        progress->slots[slot].first = 0;
    progress->slots[slot].done = done;
    if (total > 0)
        progress->slots[slot].total = total;
}

void progress_stop(struct progress *progress, size_t slot)
{
    progress->slots[slot].active = false;
    if (progress->mode == PROGRESS_LIVE)
        progress_draw(progress);
}

void progress_finish(struct progress *progress, size_t slot, uint64_t size, double seconds)
{
    struct progress_slot *entry = &progress->slots[slot];
    entry->active = false;
    if (progress->mode == PROGRESS_QUIET)
        return;
    char amount[32], speed[32];
    progress_format_size(amount, sizeof amount, (double)size);
    progress_format_size(speed, sizeof speed,
                         seconds > 0 ? (double)(size - entry->first) / seconds : 0);
    progress_clear(progress);
    fprintf(progress->stream, "%s: %s in %.1f s (%s/s)\n", entry->name, amount, seconds, speed);
    if (progress->mode == PROGRESS_LIVE)
        progress_draw(progress);
}

void progress_note(struct progress *progress, const char *format, ...)
{
    if (progress->mode == PROGRESS_QUIET)
        return;
    progress_clear(progress);
    va_list arguments;
    va_start(arguments, format);
    vfprintf(progress->stream, format, arguments);
    va_end(arguments);
    fputc('\n', progress->stream);
    if (progress->mode == PROGRESS_LIVE)
        progress_draw(progress);
}

void progress_refresh(struct progress *progress)
{
    if (progress->mode != PROGRESS_LIVE || monotonic_seconds() - progress->last_draw < 0.2)
        return;
    progress_draw(progress);
}

void progress_redraw(struct progress *progress)
{
    if (progress->mode == PROGRESS_LIVE)
        progress_draw(progress);
}

void progress_end(struct progress *progress)
{
    if (progress == NULL)
        return;
    if (progress->mode == PROGRESS_LIVE) {
        progress_clear(progress);
        fflush(progress->stream);
    }
    free(progress->slots);
    free(progress);
}
