/* The splits and sources of an H5PYDataset file listed for the messages that refuse a name. */
#include "h5py_names.h"

#include "common/base/suggest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void names_listed(const char *title, const char *const *names, size_t count, char *text,
                         size_t size)
{
    int used = snprintf(text, size, "%s: ", title);
    if (used >= 0 && (size_t)used < size)
        names_join(text + used, size - (size_t)used, names, count);
    if (count == 0)
        snprintf(text, size, "it has no %s", title + strlen("its "));
}

void h5py_split_list(const struct h5py_file *file, char *text, size_t size)
{
    names_listed("its splits", (const char *const *)file->splits, file->split_count, text, size);
}

void h5py_source_list(const struct h5py_file *file, char *text, size_t size)
{
    const char **names = calloc(file->source_count + 1, sizeof *names);
    size_t count = 0;
    for (size_t index = 0; names != NULL && index < file->source_count; index++)
        if (file->sources[index].present)
            names[count++] = file->sources[index].name;
    names_listed("its sources", names != NULL ? names : (const char *[]){NULL}, count, text, size);
    free(names);
}

bool h5py_file_has_split(const struct h5py_file *file, const char *name)
{
    for (size_t index = 0; index < file->split_count; index++)
        if (strcmp(file->splits[index], name) == 0)
            return true;
    return false;
}

bool h5py_split_holds(const struct h5py_file *file, const char *split, const char *source)
{
    for (size_t index = 0; index < file->row_count; index++) {
        const struct h5py_split_row *row = &file->rows[index];
        if (strcmp(row->split, split) == 0 && strcmp(row->source, source) == 0)
            return row->available;
    }
    return false;
}
