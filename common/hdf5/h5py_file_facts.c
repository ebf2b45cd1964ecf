/* Opens an H5PYDataset file to answer one question about it, leaving no error behind. */
#include "h5py_file_facts.h"

#include "common/base/error.h"
#include "h5py_check.h"
#include "h5py_reader.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool h5py_file_passes_check(const char *path)
{
    struct h5py_file *file = NULL;
    struct h5py_violations violations = {0};
    bool sound = access(path, F_OK) == 0 && h5py_reader_open(&file, path) == EXIT_OK &&
                 h5py_check(file, &violations) == EXIT_OK && violations.count == 0;
    h5py_violations_free(&violations);
    h5py_reader_close(file);
    error_clear();
    return sound;
}

char *h5py_file_created(const char *path)
{
    struct h5py_file *file = NULL;
    char *created = NULL;
    if (h5py_reader_open(&file, path) == EXIT_OK) {
        const char *text = h5py_file_attribute(file, "fuel_provenance");
        json_t *provenance = text != NULL ? json_loads(text, 0, NULL) : NULL;
        const char *value = json_string_value(json_object_get(provenance, "created"));
        created = value != NULL ? strdup(value) : NULL;
        json_decref(provenance);
    }
    h5py_reader_close(file);
    error_clear();
    return created;
}
