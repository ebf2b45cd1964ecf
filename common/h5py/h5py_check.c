/* Checks an H5PYDataset file against the interface's invariants; every data read is chunked so
   memory stays bounded whatever the file declares. */
#include "h5py_check.h"

#include "common/base/error.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
    INDEX_CHUNK = 65536,  /* index values read at once */
    SHAPE_CHUNK = 4096,   /* rows of a shapes scale read at once */
    ELEMENT_CHUNK = 64,   /* variable-length examples read at once */
    UNREADABLE = -1,      /* a read failed: reported as a violation, not an error */
};

static int violation_add(struct h5py_violations *violations, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

static int violation_add(struct h5py_violations *violations, const char *format, ...)
{
    char **grown = realloc(violations->lines, (violations->count + 1) * sizeof *grown);
    if (grown == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    violations->lines = grown;
    va_list arguments;
    va_start(arguments, format);
    int length = vasprintf(&grown[violations->count], format, arguments);
    va_end(arguments);
    if (length < 0)
        return error_set(EXIT_OTHER, "out of memory");
    violations->count++;
    return EXIT_OK;
}

void h5py_violations_free(struct h5py_violations *violations)
{
    for (size_t index = 0; index < violations->count; index++)
        free(violations->lines[index]);
    free(violations->lines);
    violations->lines = NULL;
    violations->count = 0;
}

/* --- The split array ---------------------------------------------------------------------- */

static size_t rows_of_pair(const struct h5py_file *file, const char *split, const char *source)
{
    size_t count = 0;
    for (size_t index = 0; index < file->row_count; index++)
        count += strcmp(file->rows[index].split, split) == 0 &&
                 strcmp(file->rows[index].source, source) == 0;
    return count;
}

static int pairs_check(const struct h5py_file *file, struct h5py_violations *violations)
{
    int result = EXIT_OK;
    for (size_t split = 0; split < file->split_count && result == EXIT_OK; split++)
        for (size_t source = 0; source < file->source_count && result == EXIT_OK; source++) {
            const char *split_name = file->splits[split];
            const char *source_name = file->sources[source].name;
            size_t count = rows_of_pair(file, split_name, source_name);
            if (count == 0)
                result = violation_add(violations, "split row missing: split %s, source %s",
                                       split_name, source_name);
            else if (count > 1)
                result = violation_add(violations,
                                       "split row repeated: split %s, source %s: %zu rows",
                                       split_name, source_name, count);
        }
    return result;
}

static int sources_present_check(const struct h5py_file *file, struct h5py_violations *violations)
{
    int result = EXIT_OK;
    for (size_t index = 0; index < file->source_count && result == EXIT_OK; index++)
        if (!file->sources[index].present)
            result = violation_add(violations,
                                   "source missing: %s: named in the split attribute, no such "
                                   "dataset in the file",
                                   file->sources[index].name);
    return result;
}

/* The examples of SOURCE: the first dimension of its dataset, 0 when it has none. */
static uint64_t source_length(const struct h5py_file_source *source)
{
    return source != NULL && source->present && source->rank > 0 ? source->shape[0] : 0;
}

static int span_check(const struct h5py_file *file, const struct h5py_split_row *row,
                      struct h5py_violations *violations)
{
    const struct h5py_file_source *source = h5py_file_source(file, row->source);
    if (!row->available || row->indices != INDICES_NONE || source == NULL || !source->present)
        return EXIT_OK;
    uint64_t length = source_length(source);
    if (row->start >= 0 && row->start <= row->stop && (uint64_t)row->stop <= length)
        return EXIT_OK;
    return violation_add(violations,
                         "span outside the source: split %s, source %s: [%" PRId64 ", %" PRId64
                         ") but %s has %" PRIu64 " examples",
                         row->split, row->source, row->start, row->stop, row->source, length);
}

static int spans_check(const struct h5py_file *file, struct h5py_violations *violations)
{
    int result = EXIT_OK;
    for (size_t index = 0; index < file->row_count && result == EXIT_OK; index++)
        result = span_check(file, &file->rows[index], violations);
    return result;
}

/* "features 12, targets 11": the lengths of the available rows of SPLIT (a dangling row has
   no length to compare: it is reported on its own). */
static char *split_lengths_text(const struct h5py_file *file, const char *split)
{
    char *text = strdup("");
    for (size_t index = 0; index < file->row_count && text != NULL; index++) {
        const struct h5py_split_row *row = &file->rows[index];
        if (!row->available || row->indices == INDICES_DANGLING || strcmp(row->split, split) != 0)
            continue;
        char *longer = NULL;
        if (asprintf(&longer, "%s%s%s %" PRIu64, text, text[0] ? ", " : "", row->source,
                     h5py_split_row_count(row)) < 0)
            longer = NULL;
        free(text);
        text = longer;
    }
    return text;
}

static int split_lengths_check(const struct h5py_file *file, const char *split,
                               struct h5py_violations *violations)
{
    bool first = true, equal = true;
    uint64_t length = 0;
    for (size_t index = 0; index < file->row_count; index++) {
        const struct h5py_split_row *row = &file->rows[index];
        if (!row->available || row->indices == INDICES_DANGLING || strcmp(row->split, split) != 0)
            continue;
        equal = equal && (first || h5py_split_row_count(row) == length);
        length = h5py_split_row_count(row);
        first = false;
    }
    if (equal)
        return EXIT_OK;
    char *lengths = split_lengths_text(file, split);
    if (lengths == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    int result = violation_add(violations, "sources of unequal length in split %s: %s", split,
                               lengths);
    free(lengths);
    return result;
}

static int lengths_check(const struct h5py_file *file, struct h5py_violations *violations)
{
    int result = EXIT_OK;
    for (size_t index = 0; index < file->split_count && result == EXIT_OK; index++)
        result = split_lengths_check(file, file->splits[index], violations);
    return result;
}

/* --- Indices ------------------------------------------------------------------------------ */

/* Reads the values of a 1-D dataset in chunks; *BAD gets the position of the first value
   outside [0, LIMIT), or stays at LENGTH. UNREADABLE when the values cannot be read. */
static int index_values_scan(hid_t dataset, uint64_t length, uint64_t limit, uint64_t *bad,
                             int64_t *value)
{
    int64_t *buffer = malloc(INDEX_CHUNK * sizeof *buffer);
    hid_t file_space = H5Dget_space(dataset);
    int result = buffer == NULL ? error_set(EXIT_OTHER, "out of memory")
                 : file_space < 0 ? UNREADABLE : 0;
    *bad = length;
    for (uint64_t first = 0; result == 0 && first < length && *bad == length;
         first += INDEX_CHUNK) {
        hsize_t start = first, count = length - first < INDEX_CHUNK ? length - first : INDEX_CHUNK;
        hid_t memory_space = H5Screate_simple(1, &count, NULL);
        if (memory_space < 0 ||
            H5Sselect_hyperslab(file_space, H5S_SELECT_SET, &start, NULL, &count, NULL) < 0 ||
            H5Dread(dataset, H5T_NATIVE_INT64, memory_space, file_space, H5P_DEFAULT, buffer) < 0)
            result = UNREADABLE;
        for (hsize_t index = 0; result == 0 && index < count && *bad == length; index++)
            if (buffer[index] < 0 || (uint64_t)buffer[index] >= limit) {
                *bad = first + index;
                *value = buffer[index];
            }
        if (memory_space >= 0)
            H5Sclose(memory_space);
    }
    if (file_space >= 0)
        H5Sclose(file_space);
    free(buffer);
    return result;
}

static int index_values_check(const struct h5py_file *file, const struct h5py_split_row *row,
                              struct h5py_violations *violations)
{
    uint64_t limit = source_length(h5py_file_source(file, row->source)), bad;
    int64_t value = 0;
    hid_t dataset = H5Dopen2(file->handle, row->indices_name, H5P_DEFAULT);
    int result = dataset < 0 ? UNREADABLE : index_values_scan(dataset, row->indices_length, limit, &bad,
                                                     &value);
    if (dataset >= 0)
        H5Dclose(dataset);
    if (result == UNREADABLE)
        return violation_add(violations, "indices unreadable: split %s, source %s: %s",
                             row->split, row->source, row->indices_name);
    if (result != 0 || bad == row->indices_length)
        return result;
    return violation_add(violations,
                         "index out of range: split %s, source %s: %s[%" PRIu64 "] = %" PRId64
                         " but %s has %" PRIu64 " examples",
                         row->split, row->source, row->indices_name, bad, value, row->source,
                         limit);
}

static int indices_row_check(const struct h5py_file *file, const struct h5py_split_row *row,
                             struct h5py_violations *violations)
{
    if (row->indices == INDICES_DANGLING)
        return violation_add(violations,
                             "dangling indices reference: split %s, source %s: it resolves to "
                             "no dataset",
                             row->split, row->source);
    if (row->indices != INDICES_DATASET)
        return EXIT_OK;
    if (row->indices_rank != 1 || !row->indices_integer)
        return violation_add(violations,
                             "indices not a 1-D integer dataset: split %s, source %s: %s",
                             row->split, row->source, row->indices_name);
    return index_values_check(file, row, violations);
}

static int indices_check(const struct h5py_file *file, struct h5py_violations *violations)
{
    int result = EXIT_OK;
    for (size_t index = 0; index < file->row_count && result == EXIT_OK; index++)
        result = indices_row_check(file, &file->rows[index], violations);
    return result;
}

/* --- Sources ------------------------------------------------------------------------------ */

static int axis_labels_check(const struct h5py_file_source *source,
                             struct h5py_violations *violations)
{
    if (!source->present || source->axis_label_count == (size_t)source->rank)
        return EXIT_OK;
    return violation_add(violations, "axis labels of %s: %zu labels for %d dimensions",
                         source->name, source->axis_label_count, source->rank);
}

/* What the file stores for a fixed-size source: its element size, and whether its data lies
   contiguous in the file (not chunked, compact or external) with how many bytes allocated. */
struct stored_data {
    size_t element_bytes;
    bool contiguous;
    uint64_t stored_bytes;
};

static bool stored_data_read(hid_t handle, const char *name, struct stored_data *stored)
{
    *stored = (struct stored_data){0};
    hid_t dataset = H5Dopen2(handle, name, H5P_DEFAULT);
    hid_t type = dataset < 0 ? -1 : H5Dget_type(dataset);
    hid_t creation = dataset < 0 ? -1 : H5Dget_create_plist(dataset);
    bool fixed = type >= 0 && H5Tget_class(type) != H5T_VLEN && H5Tis_variable_str(type) == 0;
    if (fixed && creation >= 0) {
        stored->element_bytes = H5Tget_size(type);
        stored->contiguous = H5Pget_layout(creation) == H5D_CONTIGUOUS &&
                             H5Pget_external_count(creation) == 0;
        stored->stored_bytes = H5Dget_storage_size(dataset);
    }
    if (creation >= 0)
        H5Pclose(creation);
    if (type >= 0)
        H5Tclose(type);
    if (dataset >= 0)
        H5Dclose(dataset);
    return fixed && stored->element_bytes > 0;
}

/* FACTOR times the product of SHAPE[FIRST, RANK), UINT64_MAX when it passes 2^64 - 1. */
static uint64_t shape_bytes(const uint64_t *shape, int first, int rank, uint64_t factor)
{
    uint64_t product = factor;
    for (int axis = first; axis < rank; axis++)
        if (__builtin_mul_overflow(product, shape[axis], &product))
            return UINT64_MAX;
    return product;
}

static void bytes_text(uint64_t bytes, char text[32])
{
    if (bytes == UINT64_MAX)
        snprintf(text, 32, "over %" PRIu64, bytes);
    else
        snprintf(text, 32, "%" PRIu64, bytes);
}

/* An example larger than fuel reads, and contiguous data with fewer bytes allocated than its
   shape declares (never written: HDF5 would read its fill value). Chunked, compressed and
   external data may hold fewer bytes honestly; a writer checks the space it needs. */
static int stored_data_check(const struct h5py_file *file, const struct h5py_file_source *source,
                             struct h5py_violations *violations)
{
    struct stored_data stored;
    if (!source->present || source->variable_length || source->rank < 1 ||
        !stored_data_read(file->handle, source->name, &stored))
        return EXIT_OK;
    char text[32];
    uint64_t example = shape_bytes(source->shape, 1, source->rank, stored.element_bytes);
    if (example > H5PY_EXAMPLE_MAX_BYTES) {
        bytes_text(example, text);
        return violation_add(violations, "example too large: %s: %s bytes each, more than the "
                             "%zu fuel reads", source->name, text, H5PY_EXAMPLE_MAX_BYTES);
    }
    uint64_t declared = shape_bytes(source->shape, 0, source->rank, stored.element_bytes);
    if (!stored.contiguous || stored.stored_bytes >= declared)
        return EXIT_OK;
    bytes_text(declared, text);
    return violation_add(violations, "data not stored: %s: %" PRIu64 " examples declared (%s "
                         "bytes), %" PRIu64 " bytes stored", source->name, source->shape[0],
                         text, stored.stored_bytes);
}

/* The element counts of examples [FIRST, FIRST + COUNT) of a variable-length dataset. */
static int element_counts_read(hid_t dataset, hid_t memory_type, hsize_t first, hsize_t count,
                               uint64_t *counts)
{
    hvl_t elements[ELEMENT_CHUNK];
    memset(elements, 0, sizeof elements);
    hid_t file_space = H5Dget_space(dataset), memory_space = H5Screate_simple(1, &count, NULL);
    int result = file_space < 0 || memory_space < 0 ||
                 H5Sselect_hyperslab(file_space, H5S_SELECT_SET, &first, NULL, &count, NULL) < 0 ||
                 H5Dread(dataset, memory_type, memory_space, file_space, H5P_DEFAULT,
                         elements) < 0;
    for (hsize_t index = 0; index < count; index++)
        counts[index] = elements[index].len;
    /* The elements were zeroed, so reclaiming after a failed read frees only what HDF5 made. */
    if (memory_space >= 0)
        H5Dvlen_reclaim(memory_type, memory_space, H5P_DEFAULT, elements);
    if (memory_space >= 0)
        H5Sclose(memory_space);
    if (file_space >= 0)
        H5Sclose(file_space);
    return result;
}

/* Rows [FIRST, FIRST + COUNT) of the shapes scale, COLUMNS values each. */
static int shape_rows_read(hid_t scale, uint64_t columns, hsize_t first, hsize_t count,
                           uint64_t *values)
{
    hsize_t start[2] = {first, 0}, size[2] = {count, columns};
    hid_t file_space = H5Dget_space(scale), memory_space = H5Screate_simple(2, size, NULL);
    int result = file_space < 0 || memory_space < 0 ||
                 H5Sselect_hyperslab(file_space, H5S_SELECT_SET, start, NULL, size, NULL) < 0 ||
                 H5Dread(scale, H5T_NATIVE_UINT64, memory_space, file_space, H5P_DEFAULT,
                         values) < 0;
    if (memory_space >= 0)
        H5Sclose(memory_space);
    if (file_space >= 0)
        H5Sclose(file_space);
    return result;
}

struct shapes_scan {
    hid_t dataset, memory_type, scale;
    uint64_t columns, length;
    uint64_t bad;           /* the first example whose element count differs, or length */
    uint64_t bad_product, bad_count;
};

static void shapes_chunk_compare(struct shapes_scan *scan, uint64_t first, uint64_t count,
                                 const uint64_t *shapes, const uint64_t *counts)
{
    for (uint64_t index = 0; index < count && scan->bad == scan->length; index++) {
        uint64_t product = 1;
        for (uint64_t column = 0; column < scan->columns; column++)
            product *= shapes[index * scan->columns + column];
        if (product != counts[index]) {
            scan->bad = first + index;
            scan->bad_product = product;
            scan->bad_count = counts[index];
        }
    }
}

static int shapes_scan_run(struct shapes_scan *scan)
{
    uint64_t *shapes = malloc(ELEMENT_CHUNK * scan->columns * sizeof *shapes);
    uint64_t counts[ELEMENT_CHUNK];
    int result = shapes == NULL ? error_set(EXIT_OTHER, "out of memory") : 0;
    scan->bad = scan->length;
    for (uint64_t first = 0; result == 0 && first < scan->length && scan->bad == scan->length;
         first += ELEMENT_CHUNK) {
        uint64_t count = scan->length - first < ELEMENT_CHUNK ? scan->length - first
                                                              : ELEMENT_CHUNK;
        if (shape_rows_read(scan->scale, scan->columns, first, count, shapes) != 0 ||
            element_counts_read(scan->dataset, scan->memory_type, first, count, counts) != 0)
            result = UNREADABLE;
        if (result == 0)
            shapes_chunk_compare(scan, first, count, shapes, counts);
    }
    free(shapes);
    return result;
}

/* Compares each example's element count with the product of its row in the shapes scale. */
static int element_sizes_check(const struct h5py_file *file,
                               const struct h5py_file_source *source,
                               struct h5py_violations *violations)
{
    struct shapes_scan scan = {.columns = source->shapes_columns, .length = source->shape[0]};
    scan.dataset = H5Dopen2(file->handle, source->name, H5P_DEFAULT);
    scan.scale = H5Dopen2(file->handle, source->shapes_name, H5P_DEFAULT);
    hid_t file_type = scan.dataset < 0 ? -1 : H5Dget_type(scan.dataset);
    scan.memory_type = file_type < 0 ? -1 : H5Tget_native_type(file_type, H5T_DIR_DEFAULT);
    bool variable = file_type >= 0 && H5Tget_class(file_type) == H5T_VLEN;
    int result = scan.dataset < 0 || scan.scale < 0 || scan.memory_type < 0 || !variable
                     ? UNREADABLE
                     : shapes_scan_run(&scan);
    hid_t handles[] = {scan.memory_type, file_type};
    for (size_t index = 0; index < 2; index++)
        if (handles[index] >= 0)
            H5Tclose(handles[index]);
    if (scan.scale >= 0)
        H5Dclose(scan.scale);
    if (scan.dataset >= 0)
        H5Dclose(scan.dataset);
    if (result == UNREADABLE && !variable && file_type >= 0)
        return violation_add(violations, "shapes of %s: a shapes scale on a dataset that is not "
                             "variable-length", source->name);
    if (result == UNREADABLE)
        return violation_add(violations, "variable-length data unreadable: %s", source->name);
    if (result != 0 || scan.bad == scan.length)
        return result;
    return violation_add(violations,
                         "shapes of %s: example %" PRIu64 " has %" PRIu64
                         " elements but its shape holds %" PRIu64,
                         source->name, scan.bad, scan.bad_count, scan.bad_product);
}

/* With ELEMENTS, every example is read to compare its element count with its shape. */
static int variable_length_check(const struct h5py_file *file,
                                 const struct h5py_file_source *source, bool elements,
                                 struct h5py_violations *violations)
{
    if (!source->present || !source->variable_length)
        return EXIT_OK;
    if (source->rank != 1)
        return violation_add(violations, "variable-length source %s: %d dimensions, not 1",
                             source->name, source->rank);
    /* Without a shapes scale H5PYDataset reads each example as it is stored, 1-D (Fuel's
       ILSVRC encoded_images). */
    if (source->shapes_name == NULL)
        return EXIT_OK;
    if (source->shapes_rows != source->shape[0])
        return violation_add(violations,
                             "shapes of %s: %" PRIu64 " rows for %" PRIu64 " examples",
                             source->name, source->shapes_rows, source_length(source));
    if (source->shape_label_count > 0 && source->shape_label_count != source->shapes_columns)
        return violation_add(violations, "shape labels of %s: %zu labels for %" PRIu64
                                         " shape columns",
                             source->name, source->shape_label_count, source->shapes_columns);
    if (source->shapes_columns == 0 || source->shapes_columns > H5S_MAX_RANK)
        return violation_add(violations, "shapes of %s: %" PRIu64 " columns", source->name,
                             source->shapes_columns);
    return elements ? element_sizes_check(file, source, violations) : EXIT_OK;
}

static int sources_check(const struct h5py_file *file, bool elements,
                         struct h5py_violations *violations)
{
    int result = EXIT_OK;
    for (size_t index = 0; index < file->source_count && result == EXIT_OK; index++) {
        const struct h5py_file_source *source = &file->sources[index];
        result = axis_labels_check(source, violations);
        if (result == EXIT_OK)
            result = stored_data_check(file, source, violations);
        if (result == EXIT_OK)
            result = variable_length_check(file, source, elements, violations);
    }
    return result;
}

static int sources_structure_check(const struct h5py_file *file,
                                   struct h5py_violations *violations)
{
    return sources_check(file, false, violations);
}

static int sources_content_check(const struct h5py_file *file, struct h5py_violations *violations)
{
    return sources_check(file, true, violations);
}

typedef int (*check_function)(const struct h5py_file *, struct h5py_violations *);

static int checks_run(const struct h5py_file *file, const check_function *checks, size_t count,
                      struct h5py_violations *violations)
{
    int result = EXIT_OK;
    for (size_t index = 0; index < count && result == EXIT_OK; index++)
        result = checks[index](file, violations);
    return result;
}

int h5py_check_structure(const struct h5py_file *file, struct h5py_violations *violations)
{
    const check_function checks[] = {pairs_check,   sources_present_check, spans_check,
                                     lengths_check, indices_check,         sources_structure_check};
    return checks_run(file, checks, sizeof checks / sizeof checks[0], violations);
}

int h5py_check(const struct h5py_file *file, struct h5py_violations *violations)
{
    const check_function checks[] = {pairs_check,   sources_present_check, spans_check,
                                     lengths_check, indices_check,         sources_content_check};
    return checks_run(file, checks, sizeof checks / sizeof checks[0], violations);
}

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
