/* Adds fuel-convert's root attributes to an HDF5 file another program wrote (extra converters). */
#ifndef FUEL_H5PY_TAG_H
#define FUEL_H5PY_TAG_H

#include <hdf5.h>

/* Opens PATH read-write and sets h5py_interface_version (0.3), fuel_convert_version,
   fuel_convert_command and fuel_provenance (when given) as variable-length ASCII strings, as
   h5py writes Python strings, replacing any the file holds. EXIT_WRITE on failure. */
int h5py_tag(const char *path, const char *command, const char *version,
             const char *provenance_json);

/* Sets the scalar variable-length ASCII string attribute NAME of the open object OBJECT (of the
   file PATH, for messages) to VALUE, replacing one of that name. EXIT_WRITE on failure. */
int h5py_string_attribute_set(hid_t object, const char *path, const char *name, const char *value);

#endif
