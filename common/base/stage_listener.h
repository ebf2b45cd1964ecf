/* What a long command reports as it works through stages of counted items (a source's
   examples), for whoever draws it: a stage with its label and total, then the items done. */
#ifndef FUEL_STAGE_LISTENER_H
#define FUEL_STAGE_LISTENER_H

#include <stdint.h>

struct stage_listener {
    void (*stage)(void *context, const char *label, uint64_t total);
    void (*advance)(void *context, uint64_t done);
    void *context;
};

#endif
