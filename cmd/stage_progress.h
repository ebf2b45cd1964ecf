/* A live progress line on a terminal for commands whose work comes in stages of counted items:
   one stage at a time, "LABEL  DONE of TOTAL UNIT  PERCENT  RATE  ETA", cleared at its end. */
#ifndef FUEL_CMD_STAGE_PROGRESS_H
#define FUEL_CMD_STAGE_PROGRESS_H

#include "common/base/progress.h"
#include "common/base/stage_listener.h"

#include <stdbool.h>

struct stage_progress {
    struct progress *progress; /* NULL: nothing is drawn */
    struct stage_listener listener;
    char prefix[192]; /* put before every stage's label ("" unless set) */
    char label[512];
};

/* Starts drawing on standard error when it is a terminal and QUIET is false; *LISTENER is then
   the listener to hand over, else NULL. */
void stage_progress_begin(struct stage_progress *drawn, bool quiet,
                          const struct stage_listener **listener);

void stage_progress_end(struct stage_progress *drawn);

#endif
