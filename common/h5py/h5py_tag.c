/* Sets fuel-convert's string root attributes on an existing HDF5 file. */
#include "h5py_tag.h"

#include "common/base/error.h"

#include <hdf5.h>

static int tag_failure(const char *path, const char *name)
{
    return error_set(EXIT_WRITE, "cannot write: %s: attribute %s: HDF5 refused it", path, name);
}

int h5py_string_attribute_set(hid_t file, const char *path, const char *name, const char *value)
{
    if (H5Aexists(file, name) > 0 && H5Adelete(file, name) < 0)
        return tag_failure(path, name);
    hid_t type = H5Tcopy(H5T_C_S1);
    hid_t space = H5Screate(H5S_SCALAR);
    hid_t attribute = -1;
    if (type >= 0 && space >= 0 && H5Tset_size(type, H5T_VARIABLE) >= 0 &&
        H5Tset_cset(type, H5T_CSET_ASCII) >= 0)
        attribute = H5Acreate2(file, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
    int result = EXIT_OK;
    if (attribute < 0 || H5Awrite(attribute, type, &value) < 0)
        result = tag_failure(path, name);
    if (attribute >= 0)
        H5Aclose(attribute);
    if (space >= 0)
        H5Sclose(space);
    if (type >= 0)
        H5Tclose(type);
    return result;
}

/* Locking ignored where the filesystem has none, as the writer does. */
static hid_t open_file(const char *path)
{
    hid_t access = H5Pcreate(H5P_FILE_ACCESS);
    hid_t file = -1;
    if (access >= 0 && H5Pset_fclose_degree(access, H5F_CLOSE_STRONG) >= 0 &&
        H5Pset_file_locking(access, true, true) >= 0)
        file = H5Fopen(path, H5F_ACC_RDWR, access);
    if (access >= 0)
        H5Pclose(access);
    return file;
}

int h5py_tag(const char *path, const char *command, const char *version,
             const char *provenance_json)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    hid_t file = open_file(path);
    if (file < 0)
        return error_set(EXIT_WRITE, "cannot write: %s: HDF5 cannot open it read-write", path);
    int result = h5py_string_attribute_set(file, path, "h5py_interface_version", "0.3");
    if (result == EXIT_OK)
        result = h5py_string_attribute_set(file, path, "fuel_convert_version", version);
    if (result == EXIT_OK)
        result = h5py_string_attribute_set(file, path, "fuel_convert_command", command);
    if (result == EXIT_OK && provenance_json != NULL)
        result = h5py_string_attribute_set(file, path, "fuel_provenance", provenance_json);
    if (H5Fclose(file) < 0 && result == EXIT_OK)
        result = error_set(EXIT_WRITE, "cannot write: %s: HDF5 cannot close it", path);
    return result;
}
