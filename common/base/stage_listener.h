/* What a long command reports as it works through stages of counted items (a source's
   examples, the inputs looked for), for whoever draws it: a stage with its label, total (0
   unknown) and unit, then the items done; END, when given, when no stage follows for a while. */
#ifndef FUEL_STAGE_LISTENER_H
#define FUEL_STAGE_LISTENER_H

#include <stdint.h>

struct stage_listener {
    void (*stage)(void *context, const char *label, uint64_t total, const char *unit);
    void (*advance)(void *context, uint64_t done);
    void (*end)(void *context);
    void *context;
};

#endif
