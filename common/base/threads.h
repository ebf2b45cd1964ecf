/* The one default number of worker threads, for conversions and exports alike. */
#ifndef FUEL_THREADS_H
#define FUEL_THREADS_H

/* The most worker threads any command runs (--threads accepts 1 to THREADS_MAX). */
#define THREADS_MAX 256

/* The online CPUs, at least 1 and at most THREADS_MAX. */
unsigned threads_default(void);

#endif
