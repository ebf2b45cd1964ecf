/* A fault of the HDF5 library reading a damaged file, reported as one line and exit 4. */
#ifndef FUEL_FAULT_GUARD_H
#define FUEL_FAULT_GUARD_H

/* HDF5 1.10 reads some damaged metadata (global heap objects, dimension lists) out of bounds.
   Until fault_guard_clear, SIGSEGV, SIGBUS, SIGABRT, SIGFPE and SIGILL print
   "PROGRAM: damaged HDF5 file: PATH: the HDF5 library failed reading it" and exit 4. */
void fault_guard_set(const char *program, const char *path);

/* Restores the default action of those signals. */
void fault_guard_clear(void);

#endif
