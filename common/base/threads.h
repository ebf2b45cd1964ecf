/* The one default number of worker threads, for conversions and exports alike, the lower
   priority of threads that work beside a pipeline's serial stage, and their start with the
   termination signals blocked. */
#ifndef FUEL_THREADS_H
#define FUEL_THREADS_H

#include <pthread.h>
#include <signal.h>

/* The most worker threads any command runs (--threads accepts 1 to THREADS_MAX). */
#define THREADS_MAX 256

/* The online CPUs, at least 1 and at most THREADS_MAX. */
unsigned threads_default(void);

/* Makes the calling thread 10 nicer than it was (at most 19). Workers and background hashing call
   it so that the thread that feeds them and writes in order never waits for a core. */
void threads_yield_to_caller(void);

/* The signals whose handler removes what is being published: SIGINT, SIGTERM, SIGHUP. */
void threads_termination_signals(sigset_t *signals);

/* pthread_create with the termination signals blocked in the new thread, so that they reach the
   main thread alone (a signal sent to the process goes to a thread not blocking it): a second
   one during its handler's cleanup then waits instead of killing the process on a worker. */
int threads_start(pthread_t *thread, void *(*run)(void *), void *argument);

#endif
