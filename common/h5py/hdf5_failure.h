/* Why an HDF5 call writing a file failed, in words: the system's (strerror, e.g. "No space left on
   device") when HDF5 got one, else HDF5's own. */
#ifndef FUEL_HDF5_FAILURE_H
#define FUEL_HDF5_FAILURE_H

/* Installs the handler that keeps the reason of the first failure of each call, and stops HDF5
   from closing files at exit (call it before the first HDF5 call where possible): after a failed
   close (disk full) HDF5 cannot release a file and its exit hook would loop or crash on it. */
void hdf5_failure_watch(void);

/* Forgets the reason kept: the next failure's is kept. */
void hdf5_failure_forget(void);

/* EXIT_WRITE, "cannot write: PATH: WHY" for a system error, else "cannot write: PATH: ACTION:
   WHY"; forgets the reason. */
int hdf5_failure_report(const char *path, const char *action);

#endif
