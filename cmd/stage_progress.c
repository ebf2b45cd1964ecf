/* Draws a stage listener's reports as one live progress line on standard error. */
#include "stage_progress.h"

#include <stdio.h>
#include <unistd.h>

static void stage_begun(void *context, const char *label, uint64_t total, const char *unit)
{
    struct stage_progress *drawn = context;
    snprintf(drawn->label, sizeof drawn->label, "%s%s", drawn->prefix, label);
    progress_start_count(drawn->progress, 0, drawn->label, total, unit);
    progress_redraw(drawn->progress);
}

static void stage_advanced(void *context, uint64_t done)
{
    struct stage_progress *drawn = context;
    progress_update(drawn->progress, 0, done, 0);
    progress_refresh(drawn->progress);
}

static void stage_ended(void *context)
{
    struct stage_progress *drawn = context;
    progress_stop(drawn->progress, 0);
}

void stage_progress_begin(struct stage_progress *drawn, bool quiet,
                          const struct stage_listener **listener)
{
    *drawn = (struct stage_progress){0};
    drawn->listener = (struct stage_listener){stage_begun, stage_advanced, stage_ended, drawn};
    if (!quiet && isatty(STDERR_FILENO))
        drawn->progress = progress_begin(PROGRESS_LIVE, stderr, 1);
    *listener = drawn->progress != NULL ? &drawn->listener : NULL;
}

void stage_progress_end(struct stage_progress *drawn)
{
    if (drawn->progress != NULL)
        progress_end(drawn->progress);
    drawn->progress = NULL;
}
