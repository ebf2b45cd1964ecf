/* Streams numeric variables out of MATLAB level-5 MAT-files (see matlab_v5.h).
   Written by hand instead of with libmatio (1.5.23): matio either reads a variable whole (SVHN's
   extra X is 1.6 GB) or, for each slab of a compressed variable, inflates again from the start
   of the variable, so reading in blocks is quadratic. On a 20,000-image zlib X (61 MB): Mat_VarRead
   took 0.90 s and 68.8 MB peak RSS (memory grows with N); Mat_VarReadData in 1000-image slabs took
   11.8 s, 16x a plain inflate of the element (0.72 s), and the factor grows with N. This reader
   inflates each miCOMPRESSED element once, in order, straight into the caller's buffer. */
#include "matlab_v5_read.h"
#include "common/base/input_file.h"

#include "common/base/error.h"
#include "common/formats/gzip/inflate.h"
#include "matlab_v5_format.h"
#include "matlab_v5_read_state.h"
#include "matlab_v5_values.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int matlab_corrupt(struct matlab_file *file, const char *format, ...)
{
    char why[512];
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(why, sizeof why, format, arguments);
    va_end(arguments);
    return error_set(EXIT_CORRUPT_INPUT, "cannot read MATLAB file: %s: %s", file->path, why);
}

uint32_t matlab_load_word(const struct matlab_file *file, const unsigned char *bytes)
{
    uint32_t word;
    matlab_load(bytes, 4, file->swap, &word);
    return word;
}

static int read_raw(struct matlab_file *file, void *data, size_t size)
{
    if (fread(data, 1, size, file->stream) == size)
        return EXIT_OK;
    if (ferror(file->stream))
        return error_set(EXIT_OTHER, "cannot read MATLAB file: %s: %s", file->path, strerror(errno));
    return matlab_corrupt(file, "truncated");
}

static int fill_input(struct matlab_file *file)
{
    if (file->input_left == 0)
        return matlab_corrupt(file, "truncated zlib stream");
    size_t size = file->input_left < INPUT_SIZE ? (size_t)file->input_left : INPUT_SIZE;
    int status = read_raw(file, file->input, size);
    if (status != EXIT_OK)
        return status;
    file->input_left -= size;
    inflater_feed(file->inflater, file->input, size);
    return EXIT_OK;
}

static int corrupt_stream(struct matlab_file *file)
{
    return matlab_corrupt(file, "corrupt zlib stream (%s)", inflater_reason(file->inflater));
}

/* Inflates exactly SIZE bytes of the current compressed element. */
static int inflate_bytes(struct matlab_file *file, unsigned char *data, size_t size)
{
    size_t done = 0;
    while (done < size) {
        size_t count;
        enum inflate_status status = inflater_pull(file->inflater, data + done, size - done, &count);
        done += count;
        if (status == INFLATE_CORRUPT)
            return corrupt_stream(file);
        if (status == INFLATE_END && done < size)
            return matlab_corrupt(file, "zlib stream ends before the data its matrix declares");
        if (status == INFLATE_NEED_INPUT) {
            int result = fill_input(file);
            if (result != EXIT_OK)
                return result;
        }
    }
    return EXIT_OK;
}

/* Reads SIZE bytes of the current miMATRIX: first what a small data element left, then the stream,
   which must still hold them. */
int matlab_matrix_read(struct matlab_file *file, void *data, size_t size)
{
    unsigned char *bytes = data;
    size_t from_small = size < file->small_left ? size : file->small_left;
    memcpy(bytes, file->small + (sizeof file->small - file->small_left), from_small);
    file->small_left -= from_small;
    bytes += from_small;
    size -= from_small;
    if (size == 0)
        return EXIT_OK;
    if (size > file->matrix_left)
        return matlab_corrupt(file, "a subelement runs past the end of its matrix");
    file->matrix_left -= size;
    if (file->compressed)
        return inflate_bytes(file, bytes, size);
    return read_raw(file, bytes, size);
}

int matlab_matrix_skip(struct matlab_file *file, uint64_t size)
{
    while (size > 0) {
        size_t part = size < sizeof file->staging ? (size_t)size : sizeof file->staging;
        int status = matlab_matrix_read(file, file->staging, part);
        if (status != EXIT_OK)
            return status;
        size -= part;
    }
    return EXIT_OK;
}

/* Reads a subelement tag; a small data element's bytes are kept in file->small. */
int matlab_read_tag(struct matlab_file *file, struct matlab_tag *tag)
{
    unsigned char bytes[8];
    int status = matlab_matrix_read(file, bytes, sizeof bytes);
    if (status != EXIT_OK)
        return status;
    uint32_t word = matlab_load_word(file, bytes);
    if (word >> 16) {
        tag->type = word & 0xFFFF;
        tag->size = word >> 16;
        tag->padding = 0;
        if (tag->size > 4)
            return matlab_corrupt(file, "a small data element declares %u bytes", (unsigned)tag->size);
        /* Kept at the end of file->small, which matrix_read serves from; the rest is padding. */
        memcpy(file->small + 4 - tag->size, bytes + 4, (size_t)tag->size);
        file->small_left = (size_t)tag->size;
        return EXIT_OK;
    }
    tag->type = word;
    tag->size = matlab_load_word(file, bytes + 4);
    tag->padding = (size_t)((8 - tag->size % 8) % 8);
    if (tag->size + tag->padding > file->matrix_left)
        return matlab_corrupt(file, "a subelement of %llu bytes runs past the end of its matrix",
                       (unsigned long long)tag->size);
    return EXIT_OK;
}

/* Reads a whole subelement of TYPE into DATA (at most CAPACITY bytes); *size gets its length. */
int matlab_read_subelement(struct matlab_file *file, uint32_t type, const char *what, void *data,
                           size_t capacity, size_t *size)
{
    struct matlab_tag tag;
    int status = matlab_read_tag(file, &tag);
    if (status != EXIT_OK)
        return status;
    if (tag.type != type)
        return matlab_corrupt(file, "%s has data type %u, expected %u", what, tag.type, type);
    if (tag.size > capacity)
        return matlab_corrupt(file, "%s declares %llu bytes, at most %zu allowed", what,
                       (unsigned long long)tag.size, capacity);
    *size = (size_t)tag.size;
    status = matlab_matrix_read(file, data, *size);
    return status == EXIT_OK ? matlab_matrix_skip(file, tag.padding) : status;
}

static int read_flags(struct matlab_file *file, struct matlab_variable *variable)
{
    unsigned char flags[8];
    size_t size;
    int status = matlab_read_subelement(file, MI_UINT32, "the array flags", flags, sizeof flags, &size);
    if (status != EXIT_OK)
        return status;
    if (size != sizeof flags)
        return matlab_corrupt(file, "the array flags hold %zu bytes, expected 8", size);
    uint32_t word = matlab_load_word(file, flags);
    variable->class_id = (enum matlab_class)(word & 0xFF);
    variable->complex = word & 0x800;
    if (variable->class_id < MATLAB_CELL || variable->class_id > 17)
        return matlab_corrupt(file, "unknown array class %u", word & 0xFF);
    return EXIT_OK;
}

static int read_dimensions(struct matlab_file *file, struct matlab_variable *variable)
{
    unsigned char bytes[MATLAB_MAX_RANK * 4];
    size_t size;
    int status = matlab_read_subelement(file, MI_INT32, "the dimensions", bytes, sizeof bytes, &size);
    if (status != EXIT_OK)
        return status;
    if (size % 4 != 0 || size < 4)
        return matlab_corrupt(file, "the dimensions hold %zu bytes", size);
    variable->rank = (int)(size / 4);
    variable->count = 1;
    for (int axis = 0; axis < variable->rank; axis++) {
        int32_t dimension;
        matlab_load(bytes + 4 * axis, 4, file->swap, &dimension);
        if (dimension < 0)
            return matlab_corrupt(file, "dimension %d is negative (%d)", axis + 1, (int)dimension);
        variable->dimensions[axis] = (uint64_t)dimension;
        if (__builtin_mul_overflow(variable->count, (uint64_t)dimension, &variable->count))
            return matlab_corrupt(file, "the dimensions overflow");
    }
    return EXIT_OK;
}

static int read_name(struct matlab_file *file, struct matlab_variable *variable)
{
    size_t size;
    int status = matlab_read_subelement(file, MI_INT8, "the array name", variable->name,
                                 MATLAB_MAX_NAME, &size);
    if (status != EXIT_OK)
        return status;
    variable->name[size] = '\0';
    if (strlen(variable->name) != size)
        return matlab_corrupt(file, "the array name holds a NUL byte");
    return EXIT_OK;
}

/* Reads the real part's tag of a numeric array and checks it against the dimensions. */
static int read_real_tag(struct matlab_file *file, struct matlab_variable *variable)
{
    struct matlab_tag tag;
    int status = matlab_read_tag(file, &tag);
    if (status != EXIT_OK)
        return status;
    size_t size = matlab_stored_size(tag.type);
    if (size == 0)
        return matlab_corrupt(file, "variable %s stores its data as type %u, not a number",
                       variable->name, tag.type);
    uint64_t expected;
    if (__builtin_mul_overflow(variable->count, (uint64_t)size, &expected) || expected != tag.size)
        return matlab_corrupt(file, "variable %s declares %llu elements but holds %llu bytes of type %u",
                       variable->name, (unsigned long long)variable->count,
                       (unsigned long long)tag.size, tag.type);
    bool class_is_integer = variable->class_id != MATLAB_DOUBLE &&
                            variable->class_id != MATLAB_SINGLE;
    if (class_is_integer && (tag.type == MI_SINGLE || tag.type == MI_DOUBLE))
        return matlab_corrupt(file, "integer variable %s is stored as floating point",
                              variable->name);
    variable->stored_class = matlab_stored_class(tag.type);
    file->stored_type = tag.type;
    file->padding = tag.padding;
    file->elements_left = variable->count;
    file->class_id = variable->class_id;
    file->readable = true;
    return EXIT_OK;
}

int matlab_read_matrix(struct matlab_file *file, struct matlab_variable *variable)
{
    memset(variable, 0, sizeof *variable);
    int status = read_flags(file, variable);
    if (status == EXIT_OK)
        status = read_dimensions(file, variable);
    if (status == EXIT_OK)
        status = read_name(file, variable);
    if (status == EXIT_OK && matlab_class_size(variable->class_id) > 0)
        status = read_real_tag(file, variable);
    if (status == EXIT_OK)
        status = matlab_container_enter(file, variable);
    return status;
}

static int read_converted(struct matlab_file *file, unsigned char *data, uint64_t count)
{
    size_t size = matlab_class_size(file->class_id);
    size_t stored = matlab_stored_size(file->stored_type);
    while (count > 0) {
        size_t part = count < STAGING_ELEMENTS ? (size_t)count : STAGING_ELEMENTS;
        int status = matlab_matrix_read(file, file->staging, part * stored);
        if (status == EXIT_OK && !matlab_widen(file->class_id, file->stored_type, file->swap,
                                               file->staging, data, part))
            status = matlab_corrupt(file, "a stored value does not fit its integer class");
        if (status != EXIT_OK)
            return status;
        data += part * size;
        count -= part;
    }
    return EXIT_OK;
}

/* After the last element: skips the padding and, in a compressed element, inflates the rest so
   that zlib checks the stream's end and its checksum. */
static int finish_variable(struct matlab_file *file)
{
    int status = matlab_matrix_skip(file, file->padding);
    if (status != EXIT_OK || !file->compressed || file->depth > 1)
        return status;
    status = matlab_matrix_skip(file, file->matrix_left);
    if (status != EXIT_OK)
        return status;
    for (;;) {
        unsigned char extra;
        size_t count;
        enum inflate_status result = inflater_pull(file->inflater, &extra, 1, &count);
        if (count > 0)
            return matlab_corrupt(file, "a compressed element holds more than its matrix declares");
        if (result == INFLATE_END)
            return EXIT_OK;
        if (result == INFLATE_CORRUPT)
            return corrupt_stream(file);
        if ((status = fill_input(file)) != EXIT_OK)
            return status;
    }
}

static int check_read(struct matlab_file *file, uint64_t count)
{
    if (!file->readable)
        return error_set(EXIT_OTHER, "cannot read MATLAB file: %s: no numeric variable to read",
                         file->path);
    if (count > file->elements_left)
        return error_set(EXIT_OTHER, "cannot read MATLAB file: %s: reading past a variable's end",
                         file->path);
    return EXIT_OK;
}

/* Reads COUNT elements of SIZE bytes as they are stored, in our byte order. */
static int read_as_stored(struct matlab_file *file, void *data, uint64_t count, size_t size)
{
    int status = matlab_matrix_read(file, data, (size_t)(count * size));
    if (status == EXIT_OK && file->swap && size > 1)
        matlab_swap_in_place(data, size, count);
    return status;
}

/* Counts COUNT elements read; after the last, finishes the variable. */
static int advance(struct matlab_file *file, uint64_t count)
{
    file->elements_left -= count;
    if (file->elements_left > 0)
        return EXIT_OK;
    file->readable = false;
    return finish_variable(file);
}

int matlab_read(struct matlab_file *file, void *data, uint64_t count)
{
    int status = check_read(file, count);
    if (status != EXIT_OK)
        return status;
    if (file->stored_type == matlab_natural_type(file->class_id))
        status = read_as_stored(file, data, count, matlab_class_size(file->class_id));
    else
        status = read_converted(file, data, count);
    return status == EXIT_OK ? advance(file, count) : status;
}

int matlab_read_stored(struct matlab_file *file, void *data, uint64_t count)
{
    int status = check_read(file, count);
    if (status == EXIT_OK)
        status = read_as_stored(file, data, count, matlab_stored_size(file->stored_type));
    return status == EXIT_OK ? advance(file, count) : status;
}

static void end_element(struct matlab_file *file)
{
    file->readable = false;
    file->text_pending = false;
    file->small_left = 0;
    matlab_frames_clear(file);
}

static int enter_compressed(struct matlab_file *file, uint64_t size)
{
    if (file->inflater == NULL && inflater_create(&file->inflater, INFLATE_ZLIB) != EXIT_OK)
        return error_set(EXIT_OTHER, "cannot read MATLAB file: %s: out of memory", file->path);
    inflater_reset(file->inflater);
    file->compressed = true;
    file->input_left = size;
    file->matrix_left = 8;
    unsigned char bytes[8];
    int status = matlab_matrix_read(file, bytes, sizeof bytes);
    if (status != EXIT_OK)
        return status;
    uint32_t type = matlab_load_word(file, bytes);
    uint64_t matrix_size = matlab_load_word(file, bytes + 4);
    if (type != MI_MATRIX)
        return matlab_corrupt(file, "a compressed element holds data type %u, not a matrix", type);
    if (matrix_size > size * MAX_DEFLATE_RATIO)
        return matlab_corrupt(file, "a compressed element of %llu bytes declares a %llu-byte matrix",
                       (unsigned long long)size, (unsigned long long)matrix_size);
    file->matrix_left = matrix_size;
    return EXIT_OK;
}

/* Reads the tag of the top-level element at file->next_element and enters it. */
static int enter_element(struct matlab_file *file)
{
    uint64_t offset = file->next_element;
    unsigned char bytes[8];
    if (file->size - offset < sizeof bytes)
        return matlab_corrupt(file, "truncated element tag at byte %llu", (unsigned long long)offset);
    if (fseeko(file->stream, (off_t)offset, SEEK_SET) != 0)
        return error_set(EXIT_OTHER, "cannot read MATLAB file: %s: %s", file->path, strerror(errno));
    int status = read_raw(file, bytes, sizeof bytes);
    if (status != EXIT_OK)
        return status;
    uint32_t type = matlab_load_word(file, bytes);
    uint64_t size = matlab_load_word(file, bytes + 4);
    uint64_t follow = file->size - offset - sizeof bytes;
    if (size > follow)
        return matlab_corrupt(file, "truncated: the element at byte %llu declares %llu bytes, %llu follow",
                       (unsigned long long)offset, (unsigned long long)size,
                       (unsigned long long)follow);
    file->next_element = offset + sizeof bytes + size;
    if (type == MI_COMPRESSED)
        return enter_compressed(file, size);
    if (type != MI_MATRIX)
        return matlab_corrupt(file, "unexpected data type %u at byte %llu", type, (unsigned long long)offset);
    file->compressed = false;
    file->input_left = size;
    file->matrix_left = size;
    return EXIT_OK;
}

int matlab_next(struct matlab_file *file, struct matlab_variable *variable, bool *found)
{
    end_element(file);
    *found = file->next_element < file->size;
    if (!*found)
        return EXIT_OK;
    int status = enter_element(file);
    if (status != EXIT_OK)
        return status;
    file->frames[0] = (struct matlab_frame){0};
    file->depth = 1;
    return matlab_read_matrix(file, variable);
}

int matlab_find(struct matlab_file *file, const char *name, struct matlab_variable *variable,
                bool *found)
{
    file->next_element = HEADER_SIZE;
    for (;;) {
        int status = matlab_next(file, variable, found);
        if (status != EXIT_OK || !*found || strcmp(variable->name, name) == 0)
            return status;
    }
}

static int check_header(struct matlab_file *file, const unsigned char *header)
{
    /* The writer stores 'M' << 8 | 'I' in its byte order: "IM" on disk means little-endian. */
    bool little_endian_file;
    if (memcmp(header + 126, "IM", 2) == 0)
        little_endian_file = true;
    else if (memcmp(header + 126, "MI", 2) == 0)
        little_endian_file = false;
    else
        return matlab_corrupt(file, "not a MATLAB level-5 MAT-file (no endian indicator)");
    const uint16_t probe = 1;
    file->swap = little_endian_file != (*(const unsigned char *)&probe == 1);
    uint16_t version;
    matlab_load(header + 124, 2, file->swap, &version);
    if (version != 0x0100)
        return matlab_corrupt(file, "MAT-file version 0x%04x, not level 5 (0x0100)", version);
    if (memcmp(header, "\0\0\0\0", 4) == 0)
        return matlab_corrupt(file, "not a MATLAB level-5 MAT-file (header text missing)");
    return EXIT_OK;
}

static int open_stream(struct matlab_file *file, const void *bytes, size_t size)
{
    if (bytes != NULL) {
        file->size = size;
        if (size > 0 && (file->stream = fmemopen((void *)bytes, size, "rb")) == NULL)
            return error_set(EXIT_OTHER, "cannot read MATLAB file: %s: %s", file->path,
                             strerror(errno));
    } else {
        struct stat status;
        file->stream = input_file_stream_status(file->path, &status);
        if (file->stream == NULL && error_code() == EXIT_CORRUPT_INPUT)
            return error_code();
        if (file->stream == NULL)
            return error_set(errno == ENOENT ? EXIT_MISSING_INPUT : EXIT_OTHER,
                             "cannot open MATLAB file: %s: %s", file->path, strerror(errno));
        file->size = (uint64_t)status.st_size;
    }
    if (file->size < HEADER_SIZE)
        return matlab_corrupt(file, "shorter than the 128-byte MAT-file header");
    unsigned char header[HEADER_SIZE];
    int result = read_raw(file, header, sizeof header);
    return result == EXIT_OK ? check_header(file, header) : result;
}

static int open_file(struct matlab_file **file, const char *path, const void *bytes, size_t size)
{
    *file = calloc(1, sizeof **file);
    if (*file == NULL || ((*file)->path = strdup(path)) == NULL) {
        free(*file);
        *file = NULL;
        return error_set(EXIT_OTHER, "cannot read MATLAB file: %s: out of memory", path);
    }
    (*file)->next_element = HEADER_SIZE;
    int status = open_stream(*file, bytes, size);
    if (status != EXIT_OK) {
        matlab_close(*file);
        *file = NULL;
    }
    return status;
}

int matlab_open(struct matlab_file **file, const char *path)
{
    return open_file(file, path, NULL, 0);
}

int matlab_open_memory(struct matlab_file **file, const void *bytes, size_t size,
                       const char *name)
{
    static const unsigned char nothing[1];
    return open_file(file, name, size > 0 ? bytes : nothing, size);
}

void matlab_close(struct matlab_file *file)
{
    if (file == NULL)
        return;
    end_element(file);
    inflater_free(file->inflater);
    if (file->stream != NULL)
        fclose(file->stream);
    free(file->path);
    free(file);
}
