/* Transfer progress on stderr: live lines redrawn in place on a terminal, otherwise one line per
   finished file, or nothing but errors when quiet. */
#ifndef FUEL_PROGRESS_H
#define FUEL_PROGRESS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum progress_mode { PROGRESS_QUIET, PROGRESS_LINES, PROGRESS_LIVE };

struct progress;

/* SLOTS is the number of files that may be followed at once (one per file index). */
struct progress *progress_begin(enum progress_mode mode, FILE *stream, size_t slots);

/* File SLOT becomes active: NAME, TOTAL bytes expected (0 unknown), DONE already on disk. */
void progress_start(struct progress *progress, size_t slot, const char *name, uint64_t total,
                    uint64_t done);
/* SLOT becomes active counting items rather than bytes: NAME, TOTAL items expected (0 unknown),
   drawn as "NAME  DONE of TOTAL UNIT  PERCENT  RATE UNIT/s  ETA". */
void progress_start_count(struct progress *progress, size_t slot, const char *name,
                          uint64_t total, const char *unit);

/* DONE bytes of file SLOT are on disk; TOTAL, when not 0, is the size learnt meanwhile. */
void progress_update(struct progress *progress, size_t slot, uint64_t done, uint64_t total);

/* File SLOT is complete: in lines mode prints "NAME: SIZE in SECONDS (SPEED)". */
void progress_finish(struct progress *progress, size_t slot, uint64_t size, double seconds);

/* File SLOT stopped without completing; its live line disappears. */
void progress_stop(struct progress *progress, size_t slot);

/* A message line (a warning, a skipped file) printed unless quiet, above any live lines. */
void progress_note(struct progress *progress, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

/* Redraws the live lines when at least a fifth of a second passed since the last redraw. */
void progress_refresh(struct progress *progress);

/* Redraws the live lines now (in live mode), however recent the last redraw. */
void progress_redraw(struct progress *progress);

/* Clears the live lines and frees PROGRESS. */
void progress_end(struct progress *progress);

/* "9.5 MiB" style rendering of BYTES into TEXT. */
void progress_format_size(char *text, size_t size, double bytes);

#endif
