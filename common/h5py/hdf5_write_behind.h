/* Write-behind (common/base/write_behind) on a file HDF5 writes, through its POSIX descriptor. */
#ifndef FUEL_HDF5_WRITE_BEHIND_H
#define FUEL_HDF5_WRITE_BEHIND_H

#include "common/base/write_behind.h"

#include <hdf5.h>

/* Starts BEHIND on FILE when it is open with the default (sec2) driver, keeping the file's head
   cached; with any other driver, BEHIND does nothing. */
void hdf5_write_behind_start(struct write_behind *behind, hid_t file);

#endif
