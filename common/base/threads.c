/* The default number of worker threads (the online CPUs, capped), their lower priority, their
   start with the termination signals blocked. */
#include "threads.h"

#include <errno.h>
#include <sys/resource.h>
#include <unistd.h>

unsigned threads_default(void)
{
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    if (online < 1)
        return 1;
    return online > THREADS_MAX ? THREADS_MAX : (unsigned)online;
}

/* Workers yield to the thread that feeds them and takes their results in order: that thread is
   the pipeline's serial stage (it reads the inputs and writes the output), and with as many
   workers as cores it would otherwise wait for a core while they decode (Dogs vs Cats on 2 cores:
   14.8 s, 12.6 s with the workers at +10). The provenance's hashing threads do not: the reader
   or the export waits for them. On Linux the nice value is the calling thread's own. */
enum { WORKER_NICENESS = 10, NICEST = 19 };

void threads_yield_to_caller(void)
{
    errno = 0;
    int current = getpriority(PRIO_PROCESS, 0);
    if (errno == 0)
        setpriority(PRIO_PROCESS, 0,
                    current + WORKER_NICENESS > NICEST ? NICEST : current + WORKER_NICENESS);
}

void threads_termination_signals(sigset_t *signals)
{
    sigemptyset(signals);
    sigaddset(signals, SIGINT);
    sigaddset(signals, SIGTERM);
    sigaddset(signals, SIGHUP);
}

int threads_start(pthread_t *thread, void *(*run)(void *), void *argument)
{
    sigset_t blocked, previous;
    threads_termination_signals(&blocked);
    pthread_sigmask(SIG_BLOCK, &blocked, &previous);
    int number = pthread_create(thread, NULL, run, argument);
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    return number;
}
