/* Unit tests of the MATLAB level-5 reader: both byte orders, compression, widening, every error. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "common/formats/matlab/matlab_v5_read.h"
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

enum { MI_INT8 = 1, MI_UINT8 = 2, MI_INT16 = 3, MI_UINT16 = 4, MI_INT32 = 5, MI_UINT32 = 6,
       MI_DOUBLE = 9, MI_MATRIX = 14, MI_COMPRESSED = 15 };

static char path[4200];

struct bytes {
    unsigned char data[65536];
    size_t size;
    bool big_endian;
};

static void put(struct bytes *bytes, uint64_t value, size_t size)
{
    for (size_t index = 0; index < size; index++) {
        size_t shift = bytes->big_endian ? size - 1 - index : index;
        bytes->data[bytes->size++] = (unsigned char)(value >> (8 * shift));
    }
}

static void put_padding(struct bytes *bytes)
{
    while (bytes->size % 8 != 0)
        bytes->data[bytes->size++] = 0;
}

static void put_header(struct bytes *bytes, uint16_t version)
{
    memset(bytes->data, ' ', 116);
    memcpy(bytes->data, "MATLAB 5.0 MAT-file, test", 25);
    memset(bytes->data + 116, 0, 8);
    bytes->size = 124;
    put(bytes, version, 2);
    put(bytes, 'M' << 8 | 'I', 2);
}

/* Appends VALUES as stored TYPE in the file's byte order. */
static void put_values(struct bytes *bytes, int type, const double *values, size_t count)
{
    for (size_t index = 0; index < count; index++) {
        double value = values[index];
        if (type == MI_DOUBLE) {
            uint64_t bits;
            memcpy(&bits, &value, 8);
            put(bytes, bits, 8);
        } else if (type == MI_INT8 || type == MI_UINT8) {
            put(bytes, (uint64_t)(int64_t)value, 1);
        } else if (type == MI_INT16 || type == MI_UINT16) {
            put(bytes, (uint64_t)(int64_t)value, 2);
        } else {
            put(bytes, (uint64_t)(int64_t)value, 4);
        }
    }
}

static size_t type_size(int type)
{
    return type == MI_DOUBLE ? 8 : type <= MI_UINT8 ? 1 : type <= MI_UINT16 ? 2 : 4;
}

struct array {
    int class_id;
    const int32_t *dimensions;
    int rank;
    const char *name;
    int stored_type;
    const double *values;
    size_t count;
};

/* Appends the miMATRIX element of ARRAY, small data elements wherever they fit, as MATLAB does. */
static void put_matrix(struct bytes *bytes, const struct array *array)
{
    size_t start = bytes->size;
    put(bytes, MI_MATRIX, 4);
    put(bytes, 0, 4);
    put(bytes, MI_UINT32, 4);
    put(bytes, 8, 4);
    put(bytes, (uint64_t)array->class_id, 4);
    put(bytes, 0, 4);
    put(bytes, MI_INT32, 4);
    put(bytes, (uint64_t)array->rank * 4, 4);
    for (int axis = 0; axis < array->rank; axis++)
        put(bytes, (uint32_t)array->dimensions[axis], 4);
    put_padding(bytes);
    size_t name_size = strlen(array->name);
    if (name_size <= 4) {
        put(bytes, name_size << 16 | MI_INT8, 4);
    } else {
        put(bytes, MI_INT8, 4);
        put(bytes, name_size, 4);
    }
    memcpy(bytes->data + bytes->size, array->name, name_size);
    bytes->size += name_size;
    put_padding(bytes);
    size_t data_size = array->count * type_size(array->stored_type);
    if (data_size <= 4) {
        put(bytes, data_size << 16 | (uint64_t)array->stored_type, 4);
    } else {
        put(bytes, (uint64_t)array->stored_type, 4);
        put(bytes, data_size, 4);
    }
    put_values(bytes, array->stored_type, array->values, array->count);
    put_padding(bytes);
    size_t end = bytes->size;
    bytes->size = start + 4;
    put(bytes, end - start - 8, 4);
    bytes->size = end;
}

/* Appends ARRAY inside an miCOMPRESSED element; KEEP < 1 keeps only that share of zlib's bytes. */
static void put_compressed(struct bytes *bytes, const struct array *array, double keep)
{
    struct bytes matrix = {.big_endian = bytes->big_endian};
    put_matrix(&matrix, array);
    uLongf size = compressBound(matrix.size);
    unsigned char *packed = malloc(size);
    assert_int_equal(compress(packed, &size, matrix.data, matrix.size), Z_OK);
    size = (uLongf)(size * keep);
    put(bytes, MI_COMPRESSED, 4);
    put(bytes, size, 4);
    memcpy(bytes->data + bytes->size, packed, size);
    bytes->size += size;
    free(packed);
}

static void write_file(const struct bytes *bytes)
{
    snprintf(path, sizeof path, "%s/file.mat", test_directory);
    FILE *file = fopen(path, "wb");
    assert_non_null(file);
    assert_int_equal(fwrite(bytes->data, 1, bytes->size, file), bytes->size);
    fclose(file);
}

static const int32_t two_by_three[] = {2, 3};
static const double small_values[] = {1, 2, 3, 4, 5, 10};

static void check_error(int status, int code, const char *why)
{
    assert_int_equal(status, code);
    assert_non_null(strstr(error_message(), path));
    assert_non_null(strstr(error_message(), why));
}

static void test_uncompressed_widened(void **state)
{
    (void)state;
    struct bytes bytes = {0};
    put_header(&bytes, 0x0100);
    struct array labels = {MATLAB_DOUBLE, two_by_three, 2, "y", MI_UINT8, small_values, 6};
    put_matrix(&bytes, &labels);
    write_file(&bytes);
    struct matlab_file *file;
    struct matlab_variable variable;
    bool found;
    assert_int_equal(matlab_open(&file, path), EXIT_OK);
    assert_int_equal(matlab_next(file, &variable, &found), EXIT_OK);
    assert_true(found);
    assert_string_equal(variable.name, "y");
    assert_int_equal(variable.class_id, MATLAB_DOUBLE);
    assert_int_equal(variable.rank, 2);
    assert_int_equal(variable.dimensions[0], 2);
    assert_int_equal(variable.dimensions[1], 3);
    assert_int_equal(variable.count, 6);
    assert_false(variable.complex);
    double values[6];
    assert_int_equal(matlab_read(file, values, 2), EXIT_OK);
    assert_int_equal(matlab_read(file, values + 2, 4), EXIT_OK);
    assert_memory_equal(values, small_values, sizeof values);
    assert_int_equal(matlab_next(file, &variable, &found), EXIT_OK);
    assert_false(found);
    matlab_close(file);
}

static void test_big_endian(void **state)
{
    (void)state;
    struct bytes bytes = {.big_endian = true};
    put_header(&bytes, 0x0100);
    static const double signed_values[] = {-300, 7, 10, 32767, -32768, 0};
    struct array labels = {MATLAB_DOUBLE, two_by_three, 2, "labels", MI_INT16, signed_values, 6};
    put_matrix(&bytes, &labels);
    static const double wide_values[] = {513, 65535, 1, 2, 3, 4};
    struct array wide = {MATLAB_UINT16, two_by_three, 2, "wide", MI_UINT16, wide_values, 6};
    put_compressed(&bytes, &wide, 1);
    write_file(&bytes);
    struct matlab_file *file;
    struct matlab_variable variable;
    bool found;
    assert_int_equal(matlab_open(&file, path), EXIT_OK);
    assert_int_equal(matlab_next(file, &variable, &found), EXIT_OK);
    assert_string_equal(variable.name, "labels");
    assert_int_equal(variable.dimensions[1], 3);
    double values[6];
    assert_int_equal(matlab_read(file, values, 6), EXIT_OK);
    assert_memory_equal(values, signed_values, sizeof values);
    assert_int_equal(matlab_next(file, &variable, &found), EXIT_OK);
    assert_string_equal(variable.name, "wide");
    assert_int_equal(variable.class_id, MATLAB_UINT16);
    uint16_t integers[6];
    assert_int_equal(matlab_read(file, integers, 6), EXIT_OK);
    assert_int_equal(integers[0], 513);
    assert_int_equal(integers[1], 65535);
    assert_int_equal(integers[5], 4);
    matlab_close(file);
}

static double pattern[32 * 32 * 3 * 5];
static const int32_t image_dimensions[] = {32, 32, 3, 5};

static void put_images(struct bytes *bytes, double keep)
{
    for (size_t index = 0; index < sizeof pattern / sizeof *pattern; index++)
        pattern[index] = (double)((index * 131 + index / 7) % 256);
    struct array images = {MATLAB_UINT8, image_dimensions, 4, "X", MI_UINT8, pattern,
                           sizeof pattern / sizeof *pattern};
    put_compressed(bytes, &images, keep);
}

static void test_compressed_in_blocks(void **state)
{
    (void)state;
    struct bytes bytes = {0};
    put_header(&bytes, 0x0100);
    put_images(&bytes, 1);
    static const int32_t one_by_one[] = {1, 1};
    static const double ten[] = {10};
    struct array label = {MATLAB_DOUBLE, one_by_one, 2, "y", MI_UINT8, ten, 1};
    put_compressed(&bytes, &label, 1);
    write_file(&bytes);
    struct matlab_file *file;
    struct matlab_variable variable;
    bool found;
    assert_int_equal(matlab_open(&file, path), EXIT_OK);
    assert_int_equal(matlab_next(file, &variable, &found), EXIT_OK);
    assert_int_equal(variable.rank, 4);
    assert_int_equal(variable.dimensions[3], 5);
    assert_int_equal(variable.count, 15360);
    unsigned char block[1000];
    for (size_t first = 0; first < variable.count; first += sizeof block) {
        size_t count = variable.count - first < sizeof block ? variable.count - first : sizeof block;
        assert_int_equal(matlab_read(file, block, count), EXIT_OK);
        for (size_t index = 0; index < count; index++)
            assert_int_equal(block[index], (unsigned char)pattern[first + index]);
    }
    assert_int_equal(matlab_next(file, &variable, &found), EXIT_OK);
    assert_string_equal(variable.name, "y");
    double value;
    assert_int_equal(matlab_read(file, &value, 1), EXIT_OK);
    assert_true(value == 10.0);
    assert_int_equal(matlab_next(file, &variable, &found), EXIT_OK);
    assert_false(found);
    matlab_close(file);
}

static void test_find_skips_without_reading(void **state)
{
    (void)state;
    struct bytes bytes = {0};
    put_header(&bytes, 0x0100);
    put_images(&bytes, 1);
    struct array labels = {MATLAB_DOUBLE, two_by_three, 2, "y", MI_DOUBLE, small_values, 6};
    put_compressed(&bytes, &labels, 1);
    write_file(&bytes);
    struct matlab_file *file;
    struct matlab_variable variable;
    bool found;
    assert_int_equal(matlab_open(&file, path), EXIT_OK);
    assert_int_equal(matlab_find(file, "y", &variable, &found), EXIT_OK);
    assert_true(found);
    double values[6];
    assert_int_equal(matlab_read(file, values, 6), EXIT_OK);
    assert_memory_equal(values, small_values, sizeof values);
    assert_int_equal(matlab_find(file, "X", &variable, &found), EXIT_OK);
    assert_true(found);
    unsigned char first[4];
    assert_int_equal(matlab_read(file, first, 4), EXIT_OK);
    assert_int_equal(first[1], (unsigned char)pattern[1]);
    assert_int_equal(matlab_find(file, "Z", &variable, &found), EXIT_OK);
    assert_false(found);
    matlab_close(file);
}

static void test_header_errors(void **state)
{
    (void)state;
    struct matlab_file *file;
    struct bytes bytes = {0};
    put_header(&bytes, 0x0100);
    bytes.size = 100;
    write_file(&bytes);
    check_error(matlab_open(&file, path), EXIT_CORRUPT_INPUT, "shorter than the 128-byte");
    put_header(&bytes, 0x0200);
    write_file(&bytes);
    check_error(matlab_open(&file, path), EXIT_CORRUPT_INPUT, "version 0x0200");
    put_header(&bytes, 0x0100);
    bytes.data[126] = 'X';
    write_file(&bytes);
    check_error(matlab_open(&file, path), EXIT_CORRUPT_INPUT, "no endian indicator");
    snprintf(path, sizeof path, "%s/absent.mat", test_directory);
    check_error(matlab_open(&file, path), EXIT_MISSING_INPUT, "No such file");
}

static void test_truncated_element(void **state)
{
    (void)state;
    struct bytes bytes = {0};
    put_header(&bytes, 0x0100);
    put_images(&bytes, 1);
    bytes.size -= 10;
    write_file(&bytes);
    struct matlab_file *file;
    struct matlab_variable variable;
    bool found;
    assert_int_equal(matlab_open(&file, path), EXIT_OK);
    check_error(matlab_next(file, &variable, &found), EXIT_CORRUPT_INPUT, "truncated");
    assert_non_null(strstr(error_message(), "byte 128"));
    matlab_close(file);
}

static void read_all_images(int code, const char *why)
{
    struct matlab_file *file;
    struct matlab_variable variable;
    bool found;
    assert_int_equal(matlab_open(&file, path), EXIT_OK);
    int status = matlab_next(file, &variable, &found);
    static unsigned char images[32 * 32 * 3 * 5];
    if (status == EXIT_OK)
        status = matlab_read(file, images, variable.count);
    check_error(status, code, why);
    matlab_close(file);
}

static void test_truncated_zlib_stream(void **state)
{
    (void)state;
    struct bytes bytes = {0};
    put_header(&bytes, 0x0100);
    put_images(&bytes, 0.5);
    write_file(&bytes);
    read_all_images(EXIT_CORRUPT_INPUT, "truncated zlib stream");
}

static void test_corrupt_zlib_stream(void **state)
{
    (void)state;
    struct bytes bytes = {0};
    put_header(&bytes, 0x0100);
    put_images(&bytes, 1);
    for (size_t index = 200; index < 260; index++)
        bytes.data[index] ^= 0x5A;
    write_file(&bytes);
    read_all_images(EXIT_CORRUPT_INPUT, "corrupt zlib stream");
}

static void test_checksum_verified(void **state)
{
    (void)state;
    struct bytes bytes = {0};
    put_header(&bytes, 0x0100);
    put_images(&bytes, 1);
    bytes.data[bytes.size - 1] ^= 1;
    write_file(&bytes);
    read_all_images(EXIT_CORRUPT_INPUT, "corrupt zlib stream (invalid compressed data--adler32 error)");
}

static void test_size_mismatch(void **state)
{
    (void)state;
    struct bytes bytes = {0};
    put_header(&bytes, 0x0100);
    struct array labels = {MATLAB_DOUBLE, two_by_three, 2, "y", MI_UINT8, small_values, 5};
    put_matrix(&bytes, &labels);
    write_file(&bytes);
    struct matlab_file *file;
    struct matlab_variable variable;
    bool found;
    assert_int_equal(matlab_open(&file, path), EXIT_OK);
    check_error(matlab_next(file, &variable, &found), EXIT_CORRUPT_INPUT,
                "declares 6 elements but holds 5 bytes");
    matlab_close(file);
}

static void test_value_out_of_range(void **state)
{
    (void)state;
    struct bytes bytes = {0};
    put_header(&bytes, 0x0100);
    static const double values[] = {1, 300, 2, 3, 4, 5};
    struct array labels = {MATLAB_UINT8, two_by_three, 2, "y", MI_INT16, values, 6};
    put_matrix(&bytes, &labels);
    write_file(&bytes);
    struct matlab_file *file;
    struct matlab_variable variable;
    bool found;
    assert_int_equal(matlab_open(&file, path), EXIT_OK);
    assert_int_equal(matlab_next(file, &variable, &found), EXIT_OK);
    unsigned char read[6];
    check_error(matlab_read(file, read, 6), EXIT_CORRUPT_INPUT, "does not fit");
    matlab_close(file);
}

static void test_impossible_declarations(void **state)
{
    (void)state;
    struct bytes bytes = {0};
    put_header(&bytes, 0x0100);
    put(&bytes, MI_COMPRESSED, 4);
    struct bytes matrix = {0};
    put(&matrix, MI_MATRIX, 4);
    put(&matrix, 0x7FFFFFF0, 4);
    uLongf size = sizeof bytes.data - bytes.size - 4;
    assert_int_equal(compress(bytes.data + bytes.size + 4, &size, matrix.data, matrix.size), Z_OK);
    put(&bytes, size, 4);
    bytes.size += size;
    write_file(&bytes);
    struct matlab_file *file;
    struct matlab_variable variable;
    bool found;
    assert_int_equal(matlab_open(&file, path), EXIT_OK);
    check_error(matlab_next(file, &variable, &found), EXIT_CORRUPT_INPUT, "-byte matrix");
    matlab_close(file);

    bytes.size = 128;
    static const int32_t huge[] = {65536, 65536, 65536};
    struct array labels = {MATLAB_DOUBLE, huge, 3, "y", MI_UINT8, small_values, 6};
    put_matrix(&bytes, &labels);
    write_file(&bytes);
    assert_int_equal(matlab_open(&file, path), EXIT_OK);
    check_error(matlab_next(file, &variable, &found), EXIT_CORRUPT_INPUT, "holds 6 bytes");
    matlab_close(file);
}

static void test_integer_classes_widened(void **state)
{
    (void)state;
    struct bytes bytes = {0};
    put_header(&bytes, 0x0100);
    static const double values[] = {-128, -1, 0, 1, 100, 127};
    struct array signed_array = {MATLAB_INT32, two_by_three, 2, "signed", MI_INT8, values, 6};
    put_matrix(&bytes, &signed_array);
    static const double negative[] = {1, 2, -1, 3, 4, 5};
    struct array unsigned_array = {MATLAB_UINT32, two_by_three, 2, "unsigned", MI_INT16,
                                   negative, 6};
    put_matrix(&bytes, &unsigned_array);
    write_file(&bytes);
    struct matlab_file *file;
    struct matlab_variable variable;
    bool found;
    assert_int_equal(matlab_open(&file, path), EXIT_OK);
    assert_int_equal(matlab_next(file, &variable, &found), EXIT_OK);
    assert_int_equal(matlab_class_size(variable.class_id), 4);
    int32_t integers[6];
    assert_int_equal(matlab_read(file, integers, 6), EXIT_OK);
    assert_memory_equal(integers, ((int32_t[]){-128, -1, 0, 1, 100, 127}), sizeof integers);
    assert_int_equal(matlab_next(file, &variable, &found), EXIT_OK);
    assert_string_equal(variable.name, "unsigned");
    check_error(matlab_read(file, integers, 6), EXIT_CORRUPT_INPUT, "does not fit");
    matlab_close(file);
}

/* The stored class is scipy.io.loadmat's dtype; matlab_read_stored delivers that type, swapped to
   ours, in a compressed big-endian file as in a plain one. */
static void test_read_as_stored(void **state)
{
    (void)state;
    static const double values[] = {-300, 7, 10, 32767, -32768, 0};
    for (int big_endian = 0; big_endian < 2; big_endian++) {
        struct bytes bytes = {.big_endian = big_endian};
        put_header(&bytes, 0x0100);
        struct array same = {MATLAB_UINT8, two_by_three, 2, "bytes", MI_UINT8, small_values, 6};
        put_matrix(&bytes, &same);
        struct array labels = {MATLAB_DOUBLE, two_by_three, 2, "labels", MI_INT16, values, 6};
        put_compressed(&bytes, &labels, 1.0);
        write_file(&bytes);
        struct matlab_file *file;
        struct matlab_variable variable;
        bool found;
        assert_int_equal(matlab_open(&file, path), EXIT_OK);
        assert_int_equal(matlab_find(file, "labels", &variable, &found), EXIT_OK);
        assert_true(found);
        assert_int_equal(variable.class_id, MATLAB_DOUBLE);
        assert_int_equal(variable.stored_class, MATLAB_INT16);
        int16_t stored[6];
        assert_int_equal(matlab_read_stored(file, stored, 4), EXIT_OK);
        assert_int_equal(matlab_read_stored(file, stored + 4, 2), EXIT_OK);
        assert_memory_equal(stored, ((int16_t[]){-300, 7, 10, 32767, -32768, 0}), sizeof stored);
        check_error(matlab_read_stored(file, stored, 1), EXIT_OTHER, "no numeric variable");
        assert_int_equal(matlab_find(file, "bytes", &variable, &found), EXIT_OK);
        assert_int_equal(variable.stored_class, MATLAB_UINT8);
        uint8_t narrow[6];
        check_error(matlab_read_stored(file, narrow, 7), EXIT_OTHER, "past a variable's end");
        assert_int_equal(matlab_read_stored(file, narrow, 6), EXIT_OK);
        assert_memory_equal(narrow, ((uint8_t[]){1, 2, 3, 4, 5, 10}), sizeof narrow);
        matlab_close(file);
    }
}

static void test_non_numeric_skipped(void **state)
{
    (void)state;
    struct bytes bytes = {0};
    put_header(&bytes, 0x0100);
    static const int32_t one_by_two[] = {1, 2};
    static const double text[] = {'h', 'i'};
    struct array label = {MATLAB_CHAR, one_by_two, 2, "text", MI_UINT16, text, 2};
    put_matrix(&bytes, &label);
    struct array labels = {MATLAB_DOUBLE, two_by_three, 2, "y", MI_UINT8, small_values, 6};
    put_compressed(&bytes, &labels, 1);
    write_file(&bytes);
    struct matlab_file *file;
    struct matlab_variable variable;
    bool found;
    assert_int_equal(matlab_open(&file, path), EXIT_OK);
    assert_int_equal(matlab_next(file, &variable, &found), EXIT_OK);
    assert_int_equal(variable.class_id, MATLAB_CHAR);
    double values[6];
    assert_int_equal(matlab_read(file, values, 2), EXIT_OTHER);
    assert_int_equal(matlab_next(file, &variable, &found), EXIT_OK);
    assert_string_equal(variable.name, "y");
    assert_int_equal(matlab_read(file, values, 6), EXIT_OK);
    assert_true(values[5] == 10.0);
    matlab_close(file);
}

static void test_fixture_file(void **state)
{
    (void)state;
    snprintf(path, sizeof path, "%s/raw/svhn2/test_32x32.mat", test_data_directory());
    struct matlab_file *file;
    struct matlab_variable variable;
    bool found;
    assert_int_equal(matlab_open(&file, path), EXIT_OK);
    assert_int_equal(matlab_find(file, "X", &variable, &found), EXIT_OK);
    assert_int_equal(variable.class_id, MATLAB_UINT8);
    assert_int_equal(variable.dimensions[3], 4);
    unsigned char images[4];
    assert_int_equal(matlab_read(file, images, 4), EXIT_OK);
    assert_memory_equal(images, ((unsigned char[]){216, 99, 19, 18}), 4);
    assert_int_equal(matlab_find(file, "y", &variable, &found), EXIT_OK);
    double labels[4];
    assert_int_equal(matlab_read(file, labels, 4), EXIT_OK);
    assert_memory_equal(labels, ((double[]){9, 1, 8, 10}), sizeof labels);
    matlab_close(file);
}

static int remove_directory(void **state)
{
    (void)state;
    snprintf(path, sizeof path, "%s/file.mat", test_directory);
    unlink(path);
    return rmdir(test_directory);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_uncompressed_widened),
        cmocka_unit_test(test_big_endian),
        cmocka_unit_test(test_compressed_in_blocks),
        cmocka_unit_test(test_find_skips_without_reading),
        cmocka_unit_test(test_header_errors),
        cmocka_unit_test(test_truncated_element),
        cmocka_unit_test(test_truncated_zlib_stream),
        cmocka_unit_test(test_corrupt_zlib_stream),
        cmocka_unit_test(test_checksum_verified),
        cmocka_unit_test(test_size_mismatch),
        cmocka_unit_test(test_value_out_of_range),
        cmocka_unit_test(test_impossible_declarations),
        cmocka_unit_test(test_integer_classes_widened),
        cmocka_unit_test(test_read_as_stored),
        cmocka_unit_test(test_non_numeric_skipped),
        cmocka_unit_test(test_fixture_file),
    };
    return cmocka_run_group_tests(tests, test_directory_setup, remove_directory);
}
