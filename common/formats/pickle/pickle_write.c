/* Pickle opcodes as cPickle's protocol 2 emits them for plain data and numpy arrays (no memo:
   readers do not need one, and a value is never shared here). */
#include "pickle_write.h"

#include "common/base/error.h"

#include <string.h>

static void put_byte(struct pickle_writer *writer, unsigned value)
{
    fputc((int)value, writer->file);
}

static void put_little(struct pickle_writer *writer, uint64_t value, int bytes)
{
    for (int index = 0; index < bytes; index++)
        put_byte(writer, (unsigned)(value >> (8 * index)) & 0xff);
}

static void put_global(struct pickle_writer *writer, const char *module, const char *name)
{
    fprintf(writer->file, "c%s\n%s\n", module, name);
}

void pickle_write_dict_begin(struct pickle_writer *writer)
{
    fwrite("\x80\x02}(", 1, 4, writer->file); /* PROTO 2, EMPTY_DICT, MARK */
}

void pickle_write_dict_end(struct pickle_writer *writer)
{
    put_byte(writer, 'u'); /* SETITEMS */
}

/* SHORT_BINSTRING or BINSTRING with its length, without the bytes. */
static void put_string_header(struct pickle_writer *writer, uint64_t length)
{
    if (length < 256) {
        put_byte(writer, 'U');
        put_byte(writer, (unsigned)length);
    } else {
        put_byte(writer, 'T');
        put_little(writer, length, 4);
    }
}

/* A Python 2 str (bytes). */
static void pickle_write_bytes(struct pickle_writer *writer, const void *bytes, size_t length)
{
    put_string_header(writer, length);
    fwrite(bytes, 1, length, writer->file);
}

void pickle_write_text(struct pickle_writer *writer, const char *text)
{
    pickle_write_bytes(writer, text, strlen(text));
}

void pickle_write_integer(struct pickle_writer *writer, int64_t value)
{
    if (value >= 0 && value < 256) {
        put_byte(writer, 'K');
        put_byte(writer, (unsigned)value);
    } else if (value >= 0 && value < 65536) {
        put_byte(writer, 'M');
        put_little(writer, (uint64_t)value, 2);
    } else {
        put_byte(writer, 'J');
        put_little(writer, (uint64_t)value, 4);
    }
}

void pickle_write_list_begin(struct pickle_writer *writer)
{
    fwrite("](", 1, 2, writer->file); /* EMPTY_LIST, MARK */
}

void pickle_write_list_end(struct pickle_writer *writer)
{
    put_byte(writer, 'e'); /* APPENDS */
}

/* numpy.core.multiarray._reconstruct(ndarray, (0,), 'b'), then BUILD with the state tuple
   (1, shape, dtype('u1'), False, data), as numpy's __reduce__ gives it. */
void pickle_write_array_begin(struct pickle_writer *writer, uint64_t rows, uint64_t columns)
{
    put_global(writer, "numpy.core.multiarray", "_reconstruct");
    put_global(writer, "numpy", "ndarray");
    fwrite("K\x00\x85U\x01" "b\x87R(K\x01", 1, 11, writer->file);
    pickle_write_integer(writer, (int64_t)rows);
    pickle_write_integer(writer, (int64_t)columns);
    put_byte(writer, 0x86); /* TUPLE2 */
    put_global(writer, "numpy", "dtype");
    fwrite("U\x02u1K\x00K\x01\x87R", 1, 10, writer->file);
    /* dtype state: (3, '|', None, None, None, -1, -1, 0) */
    fwrite("(K\x03U\x01|NNNJ\xff\xff\xff\xffJ\xff\xff\xff\xffK\x00tb", 1, 23, writer->file);
    put_byte(writer, 0x89); /* NEWFALSE: not Fortran order */
    put_string_header(writer, rows * columns);
}

void pickle_write_array_end(struct pickle_writer *writer)
{
    fwrite("tb", 1, 2, writer->file); /* TUPLE, BUILD */
}

int pickle_write_finish(struct pickle_writer *writer, const char *path)
{
    put_byte(writer, '.');
    if (fflush(writer->file) != 0 || ferror(writer->file))
        return error_set(EXIT_WRITE, "cannot write: %s: %s", path,
                         error_system_reason());
    return EXIT_OK;
}
