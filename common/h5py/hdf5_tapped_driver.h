/* HDF5 files read through input_file.h, so that their taps (read_tap.h) hash the bytes HDF5 reads
   instead of a second read of the file. */
#ifndef FUEL_HDF5_TAPPED_DRIVER_H
#define FUEL_HDF5_TAPPED_DRIVER_H

#include <hdf5.h>

/* A file access list (the caller closes it) opening files read-only with the tapped driver, their
   locks shared and ignored where the filesystem has none; -1 on failure. */
hid_t hdf5_tapped_access(void);

/* The tapped driver's identifier (registered at the first call); -1 when it cannot be. Its
   H5Fget_vfd_handle is the file's descriptor, as sec2's is. */
hid_t hdf5_tapped_driver(void);

#endif
