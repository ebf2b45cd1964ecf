/* The --threads option of fuel-convert, fuel-fetch and fuel-export: 1 to THREADS_MAX workers. */
#ifndef FUEL_THREADS_OPTION_H
#define FUEL_THREADS_OPTION_H

#include "common/base/threads.h"
#include "parse_options.h"

#include <stddef.h>

/* The --threads table entry, its value stored into the member THREADS (a long, 0 until given: the
   layer below then takes threads_default()) of the options struct TYPE; HELP says what the
   threads do, PLACE where the usage line shows it. fuel-reproduce ignores it: the threads change how a file is made, not what it
   holds. */
#define THREADS_OPTION(type, threads, help_text, place)                                           \
    {.long_name = "threads", .kind = OPTION_INTEGER, .offset = offsetof(type, threads),           \
     .argument = "N", .help = help_text " (default: the online CPUs)", .minimum = 1,              \
     .maximum = THREADS_MAX, .reproduce = REPRODUCE_IGNORED, .usage = place}

#endif
