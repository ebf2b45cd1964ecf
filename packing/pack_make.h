/* fuel pack's making, for fuel-pack and fuel-reproduce: a spec into a published file. */
#ifndef FUEL_PACK_MAKE_H
#define FUEL_PACK_MAKE_H

#include "common/base/stage_listener.h"
#include "common/base/typed_command.h"

#include <stdbool.h>
#include <stddef.h>

struct pack_target {
    const char *output_directory;
    const char *output_filename; /* NULL: the spec's name */
    long threads;                /* 0: the default */
    const struct stage_listener *listener; /* told the stages; NULL: nobody */
    const struct typed_command *typed; /* the command line the file records */
};

/* Packs the spec at SPEC into TARGET; the published file's path into PATH. */
int pack_make(const char *spec, const struct pack_target *target, char *path, size_t size);

#endif
