/* The splits an h5py writer is told of, written as the `split` attribute numpy packs. */
#include "h5py_writer_state.h"

#include "common/base/error.h"

#include <stdlib.h>
#include <string.h>

int h5py_writer_split_number(struct h5py_writer *writer, const char *split, size_t *number)
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

int h5py_writer_source_named(const struct h5py_writer *writer, const char *split,
                             const char *name, size_t *found)
{
    *found = writer->source_count;
    if (name == NULL)
        return EXIT_OK;
    for (size_t index = 0; index < writer->source_count; index++)
        if (!writer->sources[index].auxiliary && strcmp(writer->sources[index].name, name) == 0) {
            *found = index;
            return EXIT_OK;
        }
    return error_set(EXIT_OTHER, "cannot write: %s: split %s names unknown source %s",
                     writer->path, split, name);
}

struct split_declaration *h5py_writer_declaration(const struct h5py_writer *writer, size_t split,
                                                 size_t source)
{
    for (size_t index = 0; index < writer->declaration_count; index++)
        if (writer->declarations[index].split == split &&
            writer->declarations[index].source == source)
            return &writer->declarations[index];
    return NULL;
}

int h5py_writer_declare(struct h5py_writer *writer, const struct split_declaration *declaration)
{
    if (h5py_writer_declaration(writer, declaration->split, declaration->source) != NULL)
        return error_set(EXIT_OTHER, "cannot write: %s: split %s of %s declared twice",
                         writer->path, writer->split_names[declaration->split],
                         writer->sources[declaration->source].name);
    struct split_declaration *grown = realloc(
        writer->declarations, (writer->declaration_count + 1) * sizeof *writer->declarations);
    if (grown == NULL)
        return error_set(EXIT_OTHER, "cannot write: %s: out of memory", writer->path);
    writer->declarations = grown;
    grown[writer->declaration_count++] = *declaration;
    return EXIT_OK;
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
    struct split_declaration declaration = {split, source, (int64_t)start, (int64_t)stop, -1, NULL};
    return h5py_writer_declare(writer, &declaration);
}

int h5py_writer_add_split(struct h5py_writer *writer, const char *split, const char *source,
                          uint64_t start, uint64_t stop)
{
    if (split == NULL || split[0] == '\0')
        return error_set(EXIT_OTHER, "cannot write: %s: empty split name", writer->path);
    size_t named;
    int result = h5py_writer_source_named(writer, split, source, &named);
    size_t number;
    if (result == EXIT_OK)
        result = h5py_writer_split_number(writer, split, &number);
    for (size_t index = 0; index < writer->source_count && result == EXIT_OK; index++)
        if (!writer->sources[index].auxiliary && (source == NULL || index == named))
            result = declare_split(writer, number, index, start, stop);
    return result;
}

/* The split compound packed as numpy packs it: split, source, start, stop, indices, available,
   comment. INTEGER and BOOLEAN_BASE choose the stored or the in-memory flavour. */
static hid_t split_type(const size_t widths[3], hid_t integer, hid_t boolean_base)
{
    size_t split_width = widths[0], source_width = widths[1];
    size_t offset_start = split_width + source_width;
    size_t offset_indices = offset_start + 16;
    size_t offset_available = offset_indices + sizeof(hobj_ref_t);
    size_t size = offset_available + 1 + widths[2];
    hid_t type = H5Tcreate(H5T_COMPOUND, size);
    hid_t split = h5py_fixed_string_type(split_width);
    hid_t source = h5py_fixed_string_type(source_width);
    hid_t comment = h5py_fixed_string_type(widths[2]);
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

/* The field widths of the split compound: the longest split name, source name and comment. */
struct split_widths {
    size_t split, source, comment;
};

/* A reference to the auxiliary dataset INDICES, into REFERENCE; -1 when HDF5 cannot make it. */
static int indices_reference(const struct h5py_writer *writer, int indices, hobj_ref_t *reference)
{
    return H5Rcreate(reference, writer->file, writer->sources[indices].name, H5R_OBJECT, -1) < 0
               ? -1
               : 0;
}

/* One packed row: the pair's names, its span or indices, available, its comment. */
static int fill_split_row(const struct h5py_writer *writer, unsigned char *row,
                          const struct split_widths *widths, size_t split,
                          const struct writer_source *source)
{
    size_t offset_start = widths->split + widths->source;
    size_t offset_available = offset_start + 16 + sizeof(hobj_ref_t);
    const struct split_declaration *declaration =
        h5py_writer_declaration(writer, split, (size_t)(source - writer->sources));
    int64_t start = declaration != NULL ? declaration->start : 0;
    int64_t stop = declaration != NULL ? declaration->stop : 0;
    const char *comment = declaration != NULL && declaration->comment != NULL ? declaration->comment
                                                                              : ".";
    memcpy(row, writer->split_names[split], strlen(writer->split_names[split]));
    memcpy(row + widths->split, source->name, strlen(source->name));
    memcpy(row + offset_start, &start, sizeof start);
    memcpy(row + offset_start + 8, &stop, sizeof stop);
    if (declaration != NULL && declaration->indices >= 0) {
        hobj_ref_t reference;
        if (indices_reference(writer, declaration->indices, &reference) < 0)
            return -1;
        memcpy(row + offset_start + 16, &reference, sizeof reference);
    }
    row[offset_available] = declaration != NULL;
    memcpy(row + offset_available + 1, comment, strlen(comment));
    return 0;
}

/* One packed row per (split, source): splits in declaration order, sources by name. */
static int fill_split_rows(const struct h5py_writer *writer, unsigned char *rows, size_t row_size,
                           const struct split_widths *widths, const struct writer_source **sorted,
                           size_t sorted_count)
{
    unsigned char *row = rows;
    for (size_t split = 0; split < writer->split_count; split++)
        for (size_t position = 0; position < sorted_count; position++, row += row_size)
            if (fill_split_row(writer, row, widths, split, sorted[position]) < 0)
                return -1;
    return 0;
}

/* The sources (auxiliary datasets left out) ordered by name, *COUNT of them, and the widths of
   the names and comments (at least 1). */
static const struct writer_source **sources_by_name(const struct h5py_writer *writer,
                                                     struct split_widths *widths, size_t *count)
{
    const struct writer_source **sorted = malloc((writer->source_count + 1) * sizeof *sorted);
    widths->split = h5py_longest_text((const char *const *)writer->split_names,
                                      writer->split_count);
    widths->source = 1;
    widths->comment = 1;
    *count = 0;
    for (size_t index = 0; sorted != NULL && index < writer->source_count; index++) {
        if (writer->sources[index].auxiliary)
            continue;
        sorted[*count] = &writer->sources[index];
        if (strlen(sorted[*count]->name) > widths->source)
            widths->source = strlen(sorted[*count]->name);
        (*count)++;
    }
    for (size_t index = 0; index < writer->declaration_count; index++) {
        const char *comment = writer->declarations[index].comment;
        if (comment != NULL && strlen(comment) > widths->comment)
            widths->comment = strlen(comment);
    }
    if (sorted != NULL)
        qsort(sorted, *count, sizeof *sorted, compare_source_names);
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
    struct split_widths widths;
    size_t source_count;
    const struct writer_source **sorted = sources_by_name(writer, &widths, &source_count);
    const size_t field_widths[3] = {widths.split, widths.source, widths.comment};
    hid_t memory_type = split_type(field_widths, H5T_NATIVE_INT64, H5T_NATIVE_SCHAR);
    hid_t file_type = split_type(field_widths, H5T_STD_I64LE, H5T_STD_I8LE);
    size_t row_size = H5Tget_size(memory_type);
    hsize_t row_count = writer->split_count * source_count;
    unsigned char *rows = calloc(row_count + 1, row_size);
    int result;
    if (sorted == NULL || rows == NULL)
        result = error_set(EXIT_OTHER, "cannot write: %s: out of memory", writer->path);
    else if (fill_split_rows(writer, rows, row_size, &widths, sorted, source_count) < 0)
        result = hdf5_failure_report(writer->path, "split indices");
    else
        result = write_attribute_rows(writer, "split", file_type, memory_type, row_count, rows);
    free(rows);
    free(sorted);
    H5Tclose(memory_type);
    H5Tclose(file_type);
    return result;
}
