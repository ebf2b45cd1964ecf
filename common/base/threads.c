/* The default number of worker threads: the online CPUs, capped. */
#include "threads.h"

#include <unistd.h>

unsigned threads_default(void)
{
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    if (online < 1)
        return 1;
    return online > THREADS_MAX ? THREADS_MAX : (unsigned)online;
}
