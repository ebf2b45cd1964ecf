/* The one default number of worker threads, for conversions and exports alike, and the lower
   priority of threads that work beside a pipeline's serial stage. */
#ifndef FUEL_THREADS_H
#define FUEL_THREADS_H

/* The most worker threads any command runs (--threads accepts 1 to THREADS_MAX). */
#define THREADS_MAX 256

/* The online CPUs, at least 1 and at most THREADS_MAX. */
unsigned threads_default(void);

/* Makes the calling thread 10 nicer than it was (at most 19). Workers and background hashing call
   it so that the thread that feeds them and writes in order never waits for a core. */
void threads_yield_to_caller(void);

#endif
