/* The splits an h5py writer is told of, written as the `split` attribute numpy packs. */
#include "h5py_writer_parts.h"

#include "common/base/error.h"

#include <stdlib.h>
#include <string.h>

static int split_number(struct h5py_writer *writer, const char *split, size_t *number)
{
    for (*number = 0; *number < writer->split_count; (*number)++)
        if (strcmp(writer->split_names[*number], split) == 0)
            return EXIT_OK;
    char **grown = realloc(writer->split_names, (writer->split_count + 1) * sizeof *grown);
    if (grown == NULL)
        return error_set(EXIT_OTHER, "cannot write: %s: out of memory", writer->path);
    writer->split_names = grown;
    grown[writer->split_count] = strdup(split);
    if (grown[writer->split_count] == NULL)
        return error_set(EXIT_OTHER, "cannot write: %s: out of memory", writer->path);
    writer->split_count++;
    return EXIT_OK;
}

static const struct split_declaration *find_declaration(const struct h5py_writer *writer,
                                                        size_t split, size_t source)
{
    for (size_t index = 0; index < writer->declaration_count; index++)
        if (writer->declarations[index].split == split &&
            writer->declarations[index].source == source)
            return &writer->declarations[index];
    return NULL;
}

static int declare_split(struct h5py_writer *writer, size_t split, size_t source, uint64_t start,
                         uint64_t stop)
{
    const struct writer_source *declared = &writer->sources[source];
    if (start > stop || stop > declared->shape[0])
        return error_set(EXIT_OTHER, "cannot write: %s: split %s of %s: %llu..%llu outside 0..%llu",
                         writer->path, writer->split_names[split], declared->name,
                         (unsigned long long)start, (unsigned long long)stop,
                         (unsigned long long)declared->shape[0]);
    if (find_declaration(writer, split, source) != NULL)
        return error_set(EXIT_OTHER, "cannot write: %s: split %s of %s declared twice",
                         writer->path, writer->split_names[split], declared->name);
    struct split_declaration *grown = realloc(
        writer->declarations, (writer->declaration_count + 1) * sizeof *writer->declarations);
    if (grown == NULL)
        return error_set(EXIT_OTHER, "cannot write: %s: out of memory", writer->path);
    writer->declarations = grown;
    grown[writer->declaration_count++] = (struct split_declaration){split, source, start, stop};
    return EXIT_OK;
}

int h5py_writer_add_split(struct h5py_writer *writer, const char *split, const char *source,
                          uint64_t start, uint64_t stop)
{
    if (split == NULL || split[0] == '\0')
        return error_set(EXIT_OTHER, "cannot write: %s: empty split name", writer->path);
    size_t named = writer->source_count;
    if (source != NULL) {
        for (named = 0; named < writer->source_count; named++)
            if (strcmp(writer->sources[named].name, source) == 0)
                break;
        if (named == writer->source_count)
            return error_set(EXIT_OTHER, "cannot write: %s: split %s names unknown source %s",
                             writer->path, split, source);
    }
    size_t number;
    int result = split_number(writer, split, &number);
    for (size_t index = 0; index < writer->source_count && result == EXIT_OK; index++)
        if (source == NULL || index == named)
            result = declare_split(writer, number, index, start, stop);
    return result;
}

/* The split compound packed as numpy packs it: split, source, start, stop, indices, available,
   comment. INTEGER and BOOLEAN_BASE choose the stored or the in-memory flavour. */
static hid_t split_type(size_t split_width, size_t source_width, hid_t integer, hid_t boolean_base)
{
    size_t offset_start = split_width + source_width;
    size_t offset_indices = offset_start + 16;
    size_t offset_available = offset_indices + sizeof(hobj_ref_t);
    size_t size = offset_available + 2;
    hid_t type = H5Tcreate(H5T_COMPOUND, size);
    hid_t split = h5py_fixed_string_type(split_width);
    hid_t source = h5py_fixed_string_type(source_width);
    hid_t comment = h5py_fixed_string_type(1);
    hid_t available = h5py_bool_type(boolean_base);
    H5Tinsert(type, "split", 0, split);
    H5Tinsert(type, "source", split_width, source);
    H5Tinsert(type, "start", offset_start, integer);
    H5Tinsert(type, "stop", offset_start + 8, integer);
    H5Tinsert(type, "indices", offset_indices, H5T_STD_REF_OBJ);
    H5Tinsert(type, "available", offset_available, available);
    H5Tinsert(type, "comment", offset_available + 1, comment);
    H5Tclose(split);
    H5Tclose(source);
    H5Tclose(comment);
    H5Tclose(available);
    return type;
}

static int compare_source_names(const void *left, const void *right)
{
    const struct writer_source *const *first = left;
    const struct writer_source *const *second = right;
    return strcmp((*first)->name, (*second)->name);
}

/* One packed row per (split, source): splits in declaration order, sources by name. */
static void fill_split_rows(const struct h5py_writer *writer, unsigned char *rows, size_t row_size,
                            size_t split_width, size_t source_width,
                            const struct writer_source **sorted)
{
    size_t offset_start = split_width + source_width;
    size_t offset_available = offset_start + 16 + sizeof(hobj_ref_t);
    unsigned char *row = rows;
    for (size_t split = 0; split < writer->split_count; split++) {
        for (size_t position = 0; position < writer->source_count; position++, row += row_size) {
            size_t source = (size_t)(sorted[position] - writer->sources);
            const struct split_declaration *declaration = find_declaration(writer, split, source);
            int64_t start = declaration != NULL ? (int64_t)declaration->start : 0;
            int64_t stop = declaration != NULL ? (int64_t)declaration->stop : 0;
            memcpy(row, writer->split_names[split], strlen(writer->split_names[split]));
            memcpy(row + split_width, sorted[position]->name, strlen(sorted[position]->name));
            memcpy(row + offset_start, &start, sizeof start);
            memcpy(row + offset_start + 8, &stop, sizeof stop);
            row[offset_available] = declaration != NULL;
            row[offset_available + 1] = '.';
        }
    }
}

/* The sources ordered by name, and the length of the longest name (at least 1). */
static const struct writer_source **sources_by_name(const struct h5py_writer *writer,
                                                     size_t *longest_name)
{
    const struct writer_source **sorted = malloc((writer->source_count + 1) * sizeof *sorted);
    *longest_name = 1;
    for (size_t index = 0; sorted != NULL && index < writer->source_count; index++) {
        sorted[index] = &writer->sources[index];
        if (strlen(sorted[index]->name) > *longest_name)
            *longest_name = strlen(sorted[index]->name);
    }
    if (sorted != NULL)
        qsort(sorted, writer->source_count, sizeof *sorted, compare_source_names);
    return sorted;
}

static int write_attribute_rows(struct h5py_writer *writer, const char *name, hid_t file_type,
                                hid_t memory_type, hsize_t row_count, const void *rows)
{
    hid_t space = H5Screate_simple(1, &row_count, NULL);
    hid_t attribute = space >= 0 ? H5Acreate2(writer->file, name, file_type, space, H5P_DEFAULT,
                                              H5P_DEFAULT)
                                 : -1;
    int result = EXIT_OK;
    if (attribute < 0 || H5Awrite(attribute, memory_type, rows) < 0)
        result = hdf5_failure_report(writer->path, name);
    if (attribute >= 0)
        H5Aclose(attribute);
    if (space >= 0)
        H5Sclose(space);
    return result;
}

int h5py_writer_write_splits(struct h5py_writer *writer)
{
    size_t split_width =
        h5py_longest_text((const char *const *)writer->split_names, writer->split_count);
    size_t source_width;
    const struct writer_source **sorted = sources_by_name(writer, &source_width);
    hid_t memory_type = split_type(split_width, source_width, H5T_NATIVE_INT64, H5T_NATIVE_SCHAR);
    hid_t file_type = split_type(split_width, source_width, H5T_STD_I64LE, H5T_STD_I8LE);
    size_t row_size = H5Tget_size(memory_type);
    hsize_t row_count = writer->split_count * writer->source_count;
    unsigned char *rows = calloc(row_count + 1, row_size);
    int result;
    if (sorted == NULL || rows == NULL) {
        result = error_set(EXIT_OTHER, "cannot write: %s: out of memory", writer->path);
    } else {
        fill_split_rows(writer, rows, row_size, split_width, source_width, sorted);
        result = write_attribute_rows(writer, "split", file_type, memory_type, row_count, rows);
    }
    free(rows);
    free(sorted);
    H5Tclose(memory_type);
    H5Tclose(file_type);
    return result;
}
