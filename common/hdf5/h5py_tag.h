/* Adds fuel-convert's root attributes to an HDF5 file another program wrote (extra converters). */
#ifndef FUEL_H5PY_TAG_H
#define FUEL_H5PY_TAG_H

/* Opens PATH read-write and sets h5py_interface_version (0.3), fuel_convert_version,
   fuel_convert_command and fuel_provenance (when given) as variable-length ASCII strings, as
   h5py writes Python strings, replacing any the file holds. EXIT_WRITE on failure. */
int h5py_tag(const char *path, const char *command, const char *version,
             const char *provenance_json);

#endif
