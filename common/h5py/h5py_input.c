/* Opens an H5PYDataset file for reading and refuses it with the first violation of its checks. */
#include "h5py_input.h"

#include "common/base/error.h"
#include "h5py_check.h"

int h5py_input_verdict(const struct h5py_file *file)
{
    struct h5py_violations violations = {0};
    int result = h5py_check_structure(file, &violations);
    if (result == EXIT_OK && violations.count == 1)
        result = error_set(EXIT_CORRUPT_INPUT, "check failed: %s: %s", file->path,
                           violations.lines[0]);
    else if (result == EXIT_OK && violations.count > 1)
        result = error_set(EXIT_CORRUPT_INPUT,
                           "check failed: %s: %s (and %zu more: fuel info --check "
                           "lists them)",
                           file->path, violations.lines[0], violations.count - 1);
    h5py_violations_free(&violations);
    return result;
}

/* Opens with OPEN(FILE, PATH, REMOTE), then the verdict. */
static int input_open(struct h5py_file **file, const char *path, const struct h5py_remote *remote)
{
    /* Before HDF5 starts: the commands that read an input may write HDF5 files next (see
       hdf5_failure.h), and a file whose close failed would crash HDF5's exit hook. */
    H5dont_atexit();
    int result = remote != NULL ? h5py_reader_open_remote(file, path, remote)
                                : h5py_reader_open(file, path);
    if (result == EXIT_OK)
        result = h5py_input_verdict(*file);
    if (result != EXIT_OK) {
        h5py_reader_close(*file);
        *file = NULL;
    }
    return result;
}

int h5py_input_open(struct h5py_file **file, const char *path)
{
    return input_open(file, path, NULL);
}

int h5py_input_open_remote(struct h5py_file **file, const char *shown,
                           const struct h5py_remote *remote)
{
    return input_open(file, shown, remote);
}
