/* An ILSVRC devkit (tar.gz): data/meta.mat's synsets struct array, streamed element by element
   (ILSVRC20XX_ID, WNID, num_train_images; the other fields are passed over), and the validation
   ground truth, each synset id mapped to its position as Fuel's ilsvrc_id_to_zero_based does. */
#include "ilsvrc.h"

#include "common/base/error.h"
#include "common/formats/archive/archive_read.h"
#include "common/formats/matlab/matlab_v5_read.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* meta.mat is 400 KB, the ground truth 350 KB: far more is refused. */
#define MAXIMUM_MEMBER_BYTES (64u << 20)

enum synset_field { FIELD_ID, FIELD_WNID, FIELD_TRAIN_IMAGES, FIELD_OTHER };

struct meta_reading {
    struct matlab_file *file;
    const char *label; /* "DEVKIT: MEMBER" */
    const struct ilsvrc_layout *layout;
    enum synset_field fields[MATLAB_MAX_FIELDS];
    size_t field_count;
};

static int malformed(const struct meta_reading *reading, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

static int malformed(const struct meta_reading *reading, const char *format, ...)
{
    char why[512];
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(why, sizeof why, format, arguments);
    va_end(arguments);
    return error_set(EXIT_CORRUPT_INPUT, "malformed synsets: %s: %s", reading->label, why);
}

/* A numeric scalar of any numeric class, as a double. */
static int read_number(struct meta_reading *reading, const struct matlab_variable *value,
                       const char *field, size_t synset, double *number)
{
    size_t size = matlab_class_size(value->class_id);
    if (size == 0 || value->count != 1)
        return malformed(reading, "%s of synset %zu is not a number", field, synset + 1);
    union {
        double float64;
        float float32;
        int8_t int8;
        uint8_t uint8;
        int16_t int16;
        uint16_t uint16;
        int32_t int32;
        uint32_t uint32;
        int64_t int64;
        uint64_t uint64;
    } stored;
    int result = matlab_read(reading->file, &stored, 1);
    if (result != EXIT_OK)
        return result;
    switch (value->class_id) {
    case MATLAB_DOUBLE: *number = stored.float64; break;
    case MATLAB_SINGLE: *number = stored.float32; break;
    case MATLAB_INT8: *number = stored.int8; break;
    case MATLAB_UINT8: *number = stored.uint8; break;
    case MATLAB_INT16: *number = stored.int16; break;
    case MATLAB_UINT16: *number = stored.uint16; break;
    case MATLAB_INT32: *number = stored.int32; break;
    case MATLAB_UINT32: *number = stored.uint32; break;
    case MATLAB_INT64: *number = (double)stored.int64; break;
    default: *number = (double)stored.uint64; break;
    }
    return EXIT_OK;
}

/* A whole number from MINIMUM to MAXIMUM (numpy's int16 and uint16 casts of Fuel's table). */
static int read_whole(struct meta_reading *reading, const struct matlab_variable *value,
                      const char *field, size_t synset, double minimum, double maximum,
                      int64_t *whole)
{
    double number = 0;
    int result = read_number(reading, value, field, synset, &number);
    if (result != EXIT_OK)
        return result;
    if (!(number >= minimum && number <= maximum) || number != floor(number))
        return malformed(reading, "%s of synset %zu is %g, not a whole number from %g to %g",
                         field, synset + 1, number, minimum, maximum);
    *whole = (int64_t)number;
    return EXIT_OK;
}

static int read_wnid(struct meta_reading *reading, const struct matlab_variable *value,
                     size_t synset, char *wnid)
{
    if (value->class_id != MATLAB_CHAR)
        return malformed(reading, ILSVRC_WNID " of synset %zu is not text", synset + 1);
    size_t length;
    int result = matlab_read_text(reading->file, wnid, ILSVRC_MAX_WNID + 1, &length);
    if (result == EXIT_OK && length == 0)
        return malformed(reading, "WNID of synset %zu is empty", synset + 1);
    return result;
}

static int read_field(struct meta_reading *reading, struct ilsvrc_devkit *devkit, size_t synset,
                      enum synset_field field, const struct matlab_variable *value)
{
    int64_t whole;
    int result = EXIT_OK;
    if (field == FIELD_ID) {
        result = read_whole(reading, value, reading->layout->id_field, synset, INT16_MIN,
                            INT16_MAX, &whole);
        devkit->ids[synset] = (int16_t)whole;
    } else if (field == FIELD_TRAIN_IMAGES) {
        result = read_whole(reading, value, ILSVRC_TRAIN_IMAGES, synset, 0, UINT16_MAX, &whole);
        devkit->train_images += (uint64_t)whole;
    } else if (field == FIELD_WNID && synset < ILSVRC_CLASSES) {
        result = read_wnid(reading, value, synset, devkit->wnids[synset]);
    } else if (field == FIELD_WNID) {
        result = value->class_id == MATLAB_CHAR
                     ? EXIT_OK
                     : malformed(reading, ILSVRC_WNID " of synset %zu is not text", synset + 1);
    }
    return result;
}

/* Which of the fields the converter reads each field of the struct is; each must be there. */
static int map_fields(struct meta_reading *reading)
{
    const char *wanted[3] = {reading->layout->id_field, ILSVRC_WNID, ILSVRC_TRAIN_IMAGES};
    bool found[3] = {false, false, false};
    reading->field_count = matlab_field_count(reading->file);
    for (size_t field = 0; field < reading->field_count; field++) {
        reading->fields[field] = FIELD_OTHER;
        for (int kind = 0; kind < 3; kind++)
            if (strcmp(matlab_field_name(reading->file, field), wanted[kind]) == 0 && !found[kind]) {
                reading->fields[field] = (enum synset_field)kind;
                found[kind] = true;
            }
    }
    for (int kind = 0; kind < 3; kind++)
        if (!found[kind])
            return malformed(reading, "synsets has no field %s", wanted[kind]);
    return EXIT_OK;
}

static int allocate_synsets(struct meta_reading *reading, const struct matlab_variable *synsets,
                            struct ilsvrc_devkit *devkit)
{
    if (synsets->class_id != MATLAB_STRUCT)
        return malformed(reading, "synsets is not a struct array");
    if (synsets->count > ILSVRC_MAX_SYNSETS)
        return malformed(reading, "synsets declares %" PRIu64 " entries, more than %d",
                         synsets->count, ILSVRC_MAX_SYNSETS);
    devkit->synset_count = (size_t)synsets->count;
    devkit->class_count = devkit->synset_count < ILSVRC_CLASSES ? devkit->synset_count
                                                                : ILSVRC_CLASSES;
    devkit->ids = calloc(devkit->synset_count + 1, sizeof *devkit->ids);
    devkit->wnids = calloc(devkit->class_count + 1, sizeof *devkit->wnids);
    if (devkit->ids == NULL || devkit->wnids == NULL)
        return error_set(EXIT_OTHER, "cannot convert: out of memory");
    return EXIT_OK;
}

static int read_synsets(struct meta_reading *reading, struct ilsvrc_devkit *devkit)
{
    struct matlab_variable synsets;
    bool found;
    int result = matlab_find(reading->file, ILSVRC_SYNSETS, &synsets, &found);
    if (result == EXIT_OK && !found)
        return malformed(reading, "no variable synsets");
    if (result == EXIT_OK)
        result = allocate_synsets(reading, &synsets, devkit);
    if (result == EXIT_OK)
        result = map_fields(reading);
    for (size_t synset = 0; result == EXIT_OK && synset < devkit->synset_count; synset++)
        for (size_t field = 0; result == EXIT_OK && field < reading->field_count; field++) {
            struct matlab_variable value;
            result = matlab_child(reading->file, &value, &found);
            if (result == EXIT_OK && !found)
                result = malformed(reading, "synsets ends at synset %zu", synset + 1);
            if (result == EXIT_OK)
                result = read_field(reading, devkit, synset, reading->fields[field], &value);
            /* A field holding a struct or cell array (passed over) is a container to leave. */
            if (result == EXIT_OK &&
                (value.class_id == MATLAB_STRUCT || value.class_id == MATLAB_CELL))
                result = matlab_leave(reading->file);
        }
    return result;
}

/* The first 1000 WNIDs must name one synset each: a per-class tar names its class by WNID. */
static int check_wnids(struct meta_reading *reading, const struct ilsvrc_devkit *devkit)
{
    for (size_t first = 0; first < devkit->class_count; first++)
        for (size_t second = first + 1; second < devkit->class_count; second++)
            if (strcmp(devkit->wnids[first], devkit->wnids[second]) == 0)
                return malformed(reading, "WNID %s names synsets %zu and %zu",
                                 devkit->wnids[first], first + 1, second + 1);
    return EXIT_OK;
}

static int read_meta(const unsigned char *bytes, size_t size, const char *label,
                     const struct ilsvrc_layout *layout, struct ilsvrc_devkit *devkit)
{
    struct meta_reading *reading = calloc(1, sizeof *reading);
    if (reading == NULL)
        return error_set(EXIT_OTHER, "cannot convert: out of memory");
    reading->label = label;
    reading->layout = layout;
    int result = matlab_open_memory(&reading->file, bytes, size, label);
    if (result == EXIT_OK)
        result = read_synsets(reading, devkit);
    if (result == EXIT_OK)
        result = check_wnids(reading, devkit);
    matlab_close(reading->file);
    free(reading);
    return result;
}

int ilsvrc_truth_parse(const struct ilsvrc_devkit *devkit, const char *text, size_t size,
                       const char *label, int16_t **targets, size_t *count)
{
    size_t lines = 1;
    for (size_t index = 0; index < size; index++) {
        /* strtol would stop at a NUL and take it for the field's end ("3\0" read as 3). */
        if (text[index] == '\0')
            return error_set(EXIT_CORRUPT_INPUT, "malformed ground truth: %s: line %zu: NUL "
                             "byte in the line", label, lines);
        lines += text[index] == '\n';
    }
    *count = 0;
    *targets = malloc(lines * sizeof **targets);
    if (*targets == NULL)
        return error_set(EXIT_OTHER, "cannot convert: out of memory");
    size_t line = 0;
    for (const char *cursor = text, *end = text + size; cursor < end; line++) {
        const char *stop = memchr(cursor, '\n', (size_t)(end - cursor));
        if (stop == NULL)
            stop = end;
        char field[32];
        size_t length = (size_t)(stop - cursor);
        while (length > 0 && strchr(" \t\r", cursor[length - 1]) != NULL)
            length--;
        while (length > 0 && strchr(" \t", *cursor) != NULL)
            cursor++, length--;
        if (length >= sizeof field)
            length = sizeof field - 1;
        memcpy(field, cursor, length);
        field[length] = '\0';
        cursor = stop + 1;
        if (length == 0)
            continue;
        char *rest;
        errno = 0;
        long id = strtol(field, &rest, 10);
        size_t synset = 0;
        while (synset < devkit->synset_count && devkit->ids[synset] != id)
            synset++;
        if (*rest != '\0' || errno != 0 || synset == devkit->synset_count)
            return error_set(EXIT_CORRUPT_INPUT, "malformed ground truth: %s: line %zu: \"%s\" "
                             "is no synset's id", label, line + 1, field);
        (*targets)[(*count)++] = (int16_t)synset;
    }
    return EXIT_OK;
}

int ilsvrc_class_of(const struct ilsvrc_devkit *devkit, const char *wnid)
{
    for (size_t synset = 0; synset < devkit->class_count; synset++)
        if (strcmp(devkit->wnids[synset], wnid) == 0)
            return (int)synset;
    return -1;
}

/* Reads the devkit's members MEMBERS[0..2) into BYTES, wherever they come in the archive. */
static int read_members(const char *path, const char *const *members, unsigned threads,
                        unsigned char **bytes, size_t *sizes)
{
    struct archive_stream *stream;
    int result = archive_stream_open(&stream, path, ARCHIVE_STREAM_TAR, threads);
    size_t capacities[2] = {0, 0};
    while (result == EXIT_OK) {
        const char *name;
        uint64_t size;
        if ((result = archive_stream_next(stream, &name, &size)) != EXIT_OK || name == NULL)
            break;
        while (name[0] == '.' && name[1] == '/')
            name += 2;
        for (int member = 0; member < 2; member++)
            if (strcmp(name, members[member]) == 0 && bytes[member] == NULL)
                result = archive_stream_read_member(stream, &bytes[member], &capacities[member],
                                                    &sizes[member], MAXIMUM_MEMBER_BYTES);
    }
    if (stream != NULL)
        archive_stream_close(stream);
    for (int member = 0; result == EXIT_OK && member < 2; member++)
        if (bytes[member] == NULL)
            result = error_set(EXIT_CORRUPT_INPUT, "missing devkit member: %s: no %s", path,
                               members[member]);
    return result;
}

int ilsvrc_devkit_read(const char *path, const struct ilsvrc_layout *layout, unsigned threads,
                       struct ilsvrc_devkit *devkit)
{
    *devkit = (struct ilsvrc_devkit){0};
    char meta[512], truth[512];
    snprintf(meta, sizeof meta, ILSVRC_DEVKIT_MEMBER, layout->devkit_directory, ILSVRC_META_NAME);
    snprintf(truth, sizeof truth, ILSVRC_DEVKIT_MEMBER, layout->devkit_directory,
             layout->valid_truth_name);
    const char *members[2] = {meta, truth};
    unsigned char *bytes[2] = {NULL, NULL};
    size_t sizes[2] = {0, 0};
    char label[4200];
    int result = read_members(path, members, threads, bytes, sizes);
    snprintf(label, sizeof label, "%s: %s", path, members[0]);
    if (result == EXIT_OK)
        result = read_meta(bytes[0], sizes[0], label, layout, devkit);
    snprintf(label, sizeof label, "%s: %s", path, members[1]);
    if (result == EXIT_OK)
        result = ilsvrc_truth_parse(devkit, (const char *)bytes[1], sizes[1], label,
                                    &devkit->valid_targets, &devkit->valid_count);
    free(bytes[0]);
    free(bytes[1]);
    return result;
}

void ilsvrc_devkit_free(struct ilsvrc_devkit *devkit)
{
    free(devkit->ids);
    free(devkit->wnids);
    free(devkit->valid_targets);
    *devkit = (struct ilsvrc_devkit){0};
}
