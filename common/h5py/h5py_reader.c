/* Opens an HDF5 file as Fuel's H5PYDataset sees it, whichever program wrote it (fuel, h5py). */
#include "h5py_reader.h"

#include "common/base/error.h"
#include "common/base/input_file.h"
#include "h5py_reading.h"
#include "hdf5_tapped_driver.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The innermost HDF5 error description, e.g. "file signature not found". */
static herr_t remember_reason(unsigned position, const H5E_error2_t *entry, void *data)
{
    if (position == 0 && entry->desc != NULL)
        snprintf(data, 256, "%s", entry->desc);
    return 0;
}

const char *hdf5_reason(char reason[256])
{
    snprintf(reason, 256, "unreadable");
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, remember_reason, reason);
    return reason;
}

/* Adds NAME to LIST unless it is there already, keeping the order of first appearance. */
int distinct_add(char ***list, size_t *count, const char *name)
{
    for (size_t index = 0; index < *count; index++)
        if (strcmp((*list)[index], name) == 0)
            return 0;
    char **grown = realloc(*list, (*count + 1) * sizeof *grown);
    if (grown == NULL)
        return out_of_memory();
    *list = grown;
    if ((grown[*count] = strdup(name)) == NULL)
        return out_of_memory();
    (*count)++;
    return 0;
}

static int splits_list(struct h5py_file *file)
{
    for (size_t index = 0; index < file->row_count; index++) {
        int result = distinct_add(&file->splits, &file->split_count, file->rows[index].split);
        if (result != 0)
            return result;
    }
    return 0;
}

static int file_check(const char *path, uint64_t *size)
{
    struct stat status;
    if (stat(path, &status) != 0)
        return error_set(errno == ENOENT || errno == ENOTDIR ? EXIT_MISSING_INPUT : EXIT_OTHER,
                         "cannot read: %s: %s", path, strerror(errno));
    if (!S_ISREG(status.st_mode))
        return input_not_regular(path, &status);
    *size = (uint64_t)status.st_size;
    return 0;
}

/* HDF5's why in fuel's words: "file signature not found" and "truncated file: eof = N, ...,
   stored_eof = M" are the two a user meets (a wrong or empty file, a partial copy). */
static int open_failure(const struct reading *reading, const char *reason)
{
    const char *path = reading->file->path;
    unsigned long long eof = 0, stored = 0;
    const char *stored_at = strstr(reason, "stored_eof = ");
    if (strstr(reason, "signature") != NULL)
        return error_set(EXIT_CORRUPT_INPUT, "not an HDF5 file: %s: %s", path,
                         reading->file_size == 0 ? "it is empty"
                                                 : "it does not start with the HDF5 signature");
    if (strncmp(reason, "truncated file", 14) == 0 && stored_at != NULL &&
        sscanf(reason, "truncated file: eof = %llu", &eof) == 1 &&
        sscanf(stored_at, "stored_eof = %llu", &stored) == 1)
        return error_set(EXIT_CORRUPT_INPUT, "damaged HDF5 file: %s: truncated: %llu of %llu bytes",
                         path, eof, stored);
    return error_set(EXIT_CORRUPT_INPUT, "damaged HDF5 file: %s: %s", path, reason);
}

/* Read through the tapped driver (an input's digests from the bytes HDF5 reads); locking is
   ignored where the filesystem has none (some NFS mounts) rather than failing. REASON gets
   HDF5's why on failure, taken before closing the list clears the error stack. */
static hid_t file_open(const char *path, char reason[256])
{
    hid_t access = hdf5_tapped_access(), file = -1;
    if (access >= 0)
        file = H5Fopen(path, H5F_ACC_RDONLY, access);
    if (file < 0)
        hdf5_reason(reason);
    if (access >= 0)
        H5Pclose(access);
    return file;
}

/* The ros3 driver's configuration holds the region and keys in fixed arrays. */
static bool remote_fits(const H5FD_ros3_fapl_t *configuration, const struct h5py_remote *remote)
{
    return strlen(remote->region) < sizeof configuration->aws_region &&
           (remote->key_id == NULL ||
            (strlen(remote->key_id) < sizeof configuration->secret_id &&
             strlen(remote->secret) < sizeof configuration->secret_key));
}

static hid_t remote_open(const struct h5py_remote *remote, char reason[256])
{
    H5FD_ros3_fapl_t configuration = {.version = H5FD_CURR_ROS3_FAPL_T_VERSION,
                                      .authenticate = remote->key_id != NULL};
    snprintf(reason, 256, "its region or keys are too long for HDF5's S3 driver");
    if (!remote_fits(&configuration, remote))
        return -1;
    snprintf(configuration.aws_region, sizeof configuration.aws_region, "%s", remote->region);
    if (remote->key_id != NULL) {
        snprintf(configuration.secret_id, sizeof configuration.secret_id, "%s", remote->key_id);
        snprintf(configuration.secret_key, sizeof configuration.secret_key, "%s", remote->secret);
    }
    hid_t access = H5Pcreate(H5P_FILE_ACCESS), file = -1;
    if (access >= 0 && H5Pset_fapl_ros3(access, &configuration) >= 0)
        file = H5Fopen(remote->location, H5F_ACC_RDONLY, access);
    if (file < 0)
        hdf5_reason(reason);
    if (access >= 0)
        H5Pclose(access);
    memset(&configuration, 0, sizeof configuration);
    return file;
}

static int file_read(struct reading *reading, const struct h5py_remote *remote)
{
    struct h5py_file *file = reading->file;
    char reason[256];
    file->handle = remote != NULL ? remote_open(remote, reason) : file_open(file->path, reason);
    if (file->handle < 0 && remote != NULL)
        return error_set(EXIT_TRANSFER, "cannot read in place: %s: %s", file->path, reason);
    if (file->handle < 0)
        return open_failure(reading, reason);
    int result = split_attribute_read(reading);
    if (result == 0)
        result = splits_list(file);
    if (result == 0)
        result = sources_read(reading);
    if (result == 0)
        result = root_attributes_read(reading);
    return result;
}

static int reader_open(struct h5py_file **result, const char *path,
                       const struct h5py_remote *remote)
{
    *result = NULL;
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    struct reading reading = {0};
    int code = remote != NULL ? EXIT_OK : file_check(path, &reading.file_size);
    if (code != 0)
        return code;
    if (remote != NULL)
        reading.file_size = remote->size;
    struct h5py_file *file = calloc(1, sizeof *file);
    if (file == NULL || (file->path = strdup(path)) == NULL) {
        free(file);
        return out_of_memory();
    }
    file->handle = -1;
    reading.file = file;
    code = file_read(&reading, remote);
    if (code != 0) {
        h5py_reader_close(file);
        return code;
    }
    *result = file;
    return 0;
}

int h5py_reader_open(struct h5py_file **result, const char *path)
{
    return reader_open(result, path, NULL);
}

int h5py_reader_open_remote(struct h5py_file **result, const char *shown,
                            const struct h5py_remote *remote)
{
    return reader_open(result, shown, remote);
}

static void source_free(struct h5py_file_source *source)
{
    free(source->name);
    free(source->dtype);
    for (int axis = 0; source->axis_labels != NULL && axis < source->rank; axis++)
        free(source->axis_labels[axis]);
    free(source->axis_labels);
    free(source->shape);
    free(source->shapes_name);
    free(source->shape_labels_name);
    for (size_t index = 0; index < source->shape_label_count; index++)
        free(source->shape_labels[index]);
    free(source->shape_labels);
}

void h5py_reader_close(struct h5py_file *file)
{
    if (file == NULL)
        return;
    if (file->handle >= 0)
        H5Fclose(file->handle);
    for (size_t index = 0; index < file->row_count; index++) {
        free(file->rows[index].split);
        free(file->rows[index].source);
        free(file->rows[index].comment);
        free(file->rows[index].indices_name);
    }
    free(file->rows);
    for (size_t index = 0; index < file->split_count; index++)
        free(file->splits[index]);
    free(file->splits);
    for (size_t index = 0; index < file->source_count; index++)
        source_free(&file->sources[index]);
    free(file->sources);
    for (size_t index = 0; index < file->attribute_count; index++) {
        free(file->attributes[index].name);
        free(file->attributes[index].value);
    }
    free(file->attributes);
    free(file->path);
    free(file);
}

const char *h5py_file_attribute(const struct h5py_file *file, const char *name)
{
    for (size_t index = 0; index < file->attribute_count; index++)
        if (strcmp(file->attributes[index].name, name) == 0)
            return file->attributes[index].value;
    return NULL;
}

char *h5py_file_attribute_take(struct h5py_file *file, const char *name)
{
    for (size_t index = 0; index < file->attribute_count; index++)
        if (strcmp(file->attributes[index].name, name) == 0) {
            char *value = file->attributes[index].value;
            file->attributes[index].value = NULL;
            return value;
        }
    return NULL;
}

const struct h5py_file_source *h5py_file_source(const struct h5py_file *file, const char *name)
{
    for (size_t index = 0; index < file->source_count; index++)
        if (strcmp(file->sources[index].name, name) == 0)
            return &file->sources[index];
    return NULL;
}

uint64_t h5py_split_row_count(const struct h5py_split_row *row)
{
    if (!row->available || row->indices == INDICES_DANGLING)
        return 0;
    if (row->indices == INDICES_DATASET)
        return row->indices_length;
    /* In unsigned arithmetic: a hostile file's int64 bounds may differ by more than INT64_MAX. */
    return row->stop > row->start ? (uint64_t)row->stop - (uint64_t)row->start : 0;
}
