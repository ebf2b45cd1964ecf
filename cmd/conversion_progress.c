/* The conversion's live progress line, for fuel-convert and fuel-fetch: a stage progress line
   whose labels name the dataset. */
#include "conversion_progress.h"

#include <stdio.h>

void conversion_listen(struct conversion_listener *listener, bool quiet,
                       struct conversion_request *request)
{
    const struct stage_listener *hooks;
    stage_progress_begin(&listener->drawn, quiet, &hooks);
    if (hooks == NULL)
        return;
    const struct dataset *dataset = request->dataset;
    snprintf(listener->drawn.prefix, sizeof listener->drawn.prefix, "%s%s%s: ", dataset->name,
             dataset->variant ? " " : "", dataset->variant ? dataset->variant : "");
    request->progress = hooks;
}

void conversion_listener_end(struct conversion_listener *listener,
                             struct conversion_request *request)
{
    if (listener->drawn.progress == NULL)
        return;
    stage_progress_end(&listener->drawn);
    request->progress = NULL;
}
