/* The conversion's live progress line, for fuel-convert and fuel-fetch. */
#include "conversion_progress.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void listener_stage(void *context, const char *label, uint64_t total, const char *unit)
{
    struct conversion_listener *listener = context;
    const struct dataset *dataset = listener->dataset;
    snprintf(listener->label, sizeof listener->label, "%s%s%s: %s", dataset->name,
             dataset->variant ? " " : "", dataset->variant ? dataset->variant : "", label);
    progress_start_count(listener->progress, 0, listener->label, total, unit);
    progress_redraw(listener->progress);
}

static void listener_advance(void *context, uint64_t done)
{
    struct conversion_listener *listener = context;
    progress_update(listener->progress, 0, done, 0);
    progress_refresh(listener->progress);
}

void conversion_listen(struct conversion_listener *listener, bool quiet,
                       struct conversion_request *request)
{
    memset(listener, 0, sizeof *listener);
    if (quiet || !isatty(STDERR_FILENO))
        return;
    listener->progress = progress_begin(PROGRESS_LIVE, stderr, 1);
    if (listener->progress == NULL)
        return; /* out of memory: the conversion runs without its line */
    listener->dataset = request->dataset;
    listener->hooks = (struct stage_listener){listener_stage, listener_advance, NULL, listener};
    request->progress = &listener->hooks;
}

void conversion_listener_end(struct conversion_listener *listener,
                             struct conversion_request *request)
{
    if (listener->progress == NULL)
        return;
    progress_end(listener->progress);
    listener->progress = NULL;
    request->progress = NULL;
}
