/* What the input readers share: the table of readers by kind, the facts' file lists, names
   relative to the spec, .npy dtypes as element types, the one error form. */
#include "input.h"

#include "common/base/error.h"
#include "input_kinds.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct input_kind_reader *input_kind_reader(enum input_kind kind)
{
    switch (kind) {
    case INPUT_NPY:
        return &npy_input_reader;
    case INPUT_ARRAYS:
        return &arrays_input_reader;
    case INPUT_NPZ:
        return &npz_input_reader;
    case INPUT_CSV:
    case INPUT_TSV:
        return &csv_input_reader;
    case INPUT_HDF5:
        return &hdf5_input_reader;
    case INPUT_IMAGES:
    case INPUT_CLASSES:
        return &images_input_reader;
    }
    return NULL;
}

int input_facts_add_file(struct input_facts *facts, const char *path, const char *name)
{
    if ((facts->file_count & (facts->file_count - 1)) == 0) {
        size_t capacity = facts->file_count == 0 ? 1 : facts->file_count * 2;
        char **files = realloc(facts->files, capacity * sizeof *files);
        if (files != NULL)
            facts->files = files;
        char **names = realloc(facts->file_names, capacity * sizeof *names);
        if (names != NULL)
            facts->file_names = names;
        if (files == NULL || names == NULL)
            return error_set(EXIT_OTHER, "out of memory");
    }
    char *path_copy = strdup(path), *name_copy = strdup(name);
    if (path_copy == NULL || name_copy == NULL) {
        free(path_copy);
        free(name_copy);
        return error_set(EXIT_OTHER, "out of memory");
    }
    facts->files[facts->file_count] = path_copy;
    facts->file_names[facts->file_count++] = name_copy;
    return EXIT_OK;
}

char *input_relative_name(const struct pack_spec *spec, const char *path)
{
    size_t length = strlen(spec->directory);
    if (strcmp(spec->directory, ".") == 0 && strncmp(path, "./", 2) == 0)
        return strdup(path + 2);
    if (strncmp(path, spec->directory, length) == 0 && path[length] == '/')
        return strdup(path + length + 1);
    return strdup(path);
}

void input_facts_files_free(struct input_facts *facts)
{
    for (size_t index = 0; index < facts->file_count; index++) {
        free(facts->files[index]);
        free(facts->file_names[index]);
    }
    free(facts->files);
    free(facts->file_names);
    free(facts->provenance_indices);
    facts->files = facts->file_names = NULL;
    facts->provenance_indices = NULL;
    facts->file_count = 0;
}

void input_facts_free(struct input_facts *facts)
{
    input_facts_files_free(facts);
    for (size_t index = 0; index < facts->class_count; index++)
        free(facts->class_names[index]);
    free(facts->class_names);
    *facts = (struct input_facts){0};
}

bool input_npy_type(char kind, unsigned item_size, enum element_type *type)
{
    static const struct {
        char kind;
        unsigned size;
        enum element_type type;
    } types[] = {
        {'b', 1, ELEMENT_BOOL},   {'i', 1, ELEMENT_INT8},    {'i', 2, ELEMENT_INT16},
        {'i', 4, ELEMENT_INT32},  {'i', 8, ELEMENT_INT64},   {'u', 1, ELEMENT_UINT8},
        {'u', 2, ELEMENT_UINT16}, {'u', 4, ELEMENT_UINT32},  {'u', 8, ELEMENT_UINT64},
        {'f', 4, ELEMENT_FLOAT32}, {'f', 8, ELEMENT_FLOAT64},
    };
    for (size_t index = 0; index < sizeof types / sizeof types[0]; index++)
        if (types[index].kind == kind && types[index].size == item_size) {
            *type = types[index].type;
            return true;
        }
    return false;
}

int input_error(int code, const struct pack_input *input, const char *format, ...)
{
    char why[1024];
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(why, sizeof why, format, arguments);
    va_end(arguments);
    if (input->member != NULL)
        return error_set(code, "cannot read input: %s:%s: %s", input->path, input->member, why);
    return error_set(code, "cannot read input: %s: %s", input->path, why);
}
