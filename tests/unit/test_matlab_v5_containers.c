/* Unit tests of the MATLAB level-5 struct, cell and char arrays: files of our writer and of
   scipy's savemat read back, scipy's loadmat reading ours, and every hostile declaration. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "common/formats/matlab/matlab_v5_read.h"
#include "common/formats/matlab/matlab_v5_write.h"
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const fields[] = {"ILSVRC2012_ID", "WNID", "children", "aliases"};

/* Three synsets: ids 1..3, WNIDs n0000000K, children [] / [1 2] / [3], aliases cells. */
static void write_synsets(const char *path)
{
    static const double ids[3] = {1, 2, 3}, pair[2] = {1, 2}, three[1] = {3};
    static const struct matlab_value aliases[2] = {
        {.kind = MATLAB_VALUE_TEXT, .text = "dog"},
        {.kind = MATLAB_VALUE_DOUBLES, .numbers = pair, .count = 2}};
    const struct matlab_value values[12] = {
        {.kind = MATLAB_VALUE_DOUBLES, .numbers = &ids[0], .count = 1},
        {.kind = MATLAB_VALUE_TEXT, .text = "n00000001"},
        {.kind = MATLAB_VALUE_DOUBLES, .count = 0},
        {.kind = MATLAB_VALUE_CELL, .values = aliases, .count = 2},
        {.kind = MATLAB_VALUE_DOUBLES, .numbers = &ids[1], .count = 1},
        {.kind = MATLAB_VALUE_TEXT, .text = "n00000002"},
        {.kind = MATLAB_VALUE_DOUBLES, .numbers = pair, .count = 2},
        {.kind = MATLAB_VALUE_CELL, .count = 0},
        {.kind = MATLAB_VALUE_DOUBLES, .numbers = &ids[2], .count = 1},
        {.kind = MATLAB_VALUE_TEXT, .text = ""},
        {.kind = MATLAB_VALUE_DOUBLES, .numbers = three, .count = 1},
        {.kind = MATLAB_VALUE_CELL, .values = aliases, .count = 1},
    };
    struct matlab_writer writer;
    assert_int_equal(matlab_writer_open(&writer, path, "MATLAB 5.0 MAT-file"), EXIT_OK);
    assert_int_equal(matlab_writer_struct(&writer, "synsets", 3, fields, 4, values), EXIT_OK);
    assert_int_equal(matlab_writer_close(&writer), EXIT_OK);
}

static void expect_child(struct matlab_file *file, enum matlab_class class_id, uint64_t count,
                         struct matlab_variable *child)
{
    bool found = false;
    assert_int_equal(matlab_child(file, child, &found), EXIT_OK);
    assert_true(found);
    assert_int_equal(child->class_id, class_id);
    assert_int_equal(child->count, count);
}

static void expect_doubles(struct matlab_file *file, uint64_t count, const double *expected)
{
    struct matlab_variable child;
    expect_child(file, MATLAB_DOUBLE, count, &child);
    double values[4] = {0};
    assert_int_equal(matlab_read(file, values, count), EXIT_OK);
    for (uint64_t index = 0; index < count; index++)
        assert_true(values[index] == expected[index]);
}

static void expect_text(struct matlab_file *file, const char *expected)
{
    struct matlab_variable child;
    expect_child(file, MATLAB_CHAR, strlen(expected), &child);
    char text[64];
    size_t length;
    assert_int_equal(matlab_read_text(file, text, sizeof text, &length), EXIT_OK);
    assert_int_equal(length, strlen(expected));
    assert_string_equal(text, expected);
}

static void test_struct_written_and_read(void **state)
{
    (void)state;
    char path[512];
    test_path(path, sizeof path, test_directory, "synsets.mat");
    write_synsets(path);
    struct matlab_file *file;
    assert_int_equal(matlab_open(&file, path), EXIT_OK);
    struct matlab_variable variable;
    bool found;
    assert_int_equal(matlab_find(file, "synsets", &variable, &found), EXIT_OK);
    assert_true(found);
    assert_int_equal(variable.class_id, MATLAB_STRUCT);
    assert_int_equal(variable.count, 3);
    assert_int_equal(matlab_field_count(file), 4);
    assert_string_equal(matlab_field_name(file, 2), "children");
    assert_null(matlab_field_name(file, 4));
    static const double one[1] = {1}, two[1] = {2}, pair[2] = {1, 2};
    expect_doubles(file, 1, one);
    expect_text(file, "n00000001");
    expect_doubles(file, 0, NULL);
    struct matlab_variable cell;
    expect_child(file, MATLAB_CELL, 2, &cell);
    assert_int_equal(matlab_field_count(file), 0);
    expect_text(file, "dog");
    expect_doubles(file, 2, pair);
    assert_int_equal(matlab_child(file, &cell, &found), EXIT_OK);
    assert_false(found);
    assert_int_equal(matlab_leave(file), EXIT_OK);
    assert_int_equal(matlab_field_count(file), 4);
    /* The second element read only in part: what is left unread is skipped. */
    expect_doubles(file, 1, two);
    struct matlab_variable skipped;
    expect_child(file, MATLAB_CHAR, 9, &skipped);
    expect_child(file, MATLAB_DOUBLE, 2, &skipped);
    expect_child(file, MATLAB_CELL, 0, &skipped);
    assert_int_equal(matlab_leave(file), EXIT_OK);
    static const double three[1] = {3};
    expect_doubles(file, 1, three);
    expect_text(file, "");
    expect_doubles(file, 1, three);
    expect_child(file, MATLAB_CELL, 1, &cell);
    assert_int_equal(matlab_leave(file), EXIT_OK);
    assert_int_equal(matlab_child(file, &cell, &found), EXIT_OK);
    assert_false(found);
    assert_int_equal(matlab_next(file, &variable, &found), EXIT_OK);
    assert_false(found);
    matlab_close(file);
}

/* scipy's loadmat reads what the writer wrote, value for value. */
static void test_scipy_reads_ours(void **state)
{
    (void)state;
    char path[512], command[2048];
    test_path(path, sizeof path, test_directory, "ours.mat");
    write_synsets(path);
    snprintf(command, sizeof command,
             "/usr/bin/python3 -c 'import scipy.io, sys\n"
             "s = scipy.io.loadmat(sys.argv[1], squeeze_me=True)[\"synsets\"]\n"
             "assert list(s[\"ILSVRC2012_ID\"]) == [1, 2, 3], s\n"
             "assert list(s[\"WNID\"][:2]) == [\"n00000001\", \"n00000002\"] and not s[\"WNID\"][2].size\n"
             "assert list(s[\"children\"][1]) == [1, 2] and s[\"children\"][2] == 3\n"
             "assert s[\"aliases\"][0][0] == \"dog\" and list(s[\"aliases\"][0][1]) == [1, 2]\n"
             "' %s",
             path);
    assert_int_equal(system(command), 0);
}

/* uint8 and uint16 fields keep their class: scipy gives numpy integers, which numpy takes as a
   dtype's shape (Python Fuel sizes ILSVRC's children column by max(num_children)). */
static void test_integer_fields(void **state)
{
    (void)state;
    static const char *const names[2] = {"num_children", "children"};
    static const double two[1] = {2}, children[2] = {300, 7}, none[1] = {0};
    const struct matlab_value values[4] = {
        {.kind = MATLAB_VALUE_UINT8S, .numbers = two, .count = 1},
        {.kind = MATLAB_VALUE_UINT16S, .numbers = children, .count = 2},
        {.kind = MATLAB_VALUE_UINT8S, .numbers = none, .count = 1},
        {.kind = MATLAB_VALUE_UINT16S, .count = 0},
    };
    char path[512], command[2048];
    test_path(path, sizeof path, test_directory, "integers.mat");
    struct matlab_writer writer;
    assert_int_equal(matlab_writer_open(&writer, path, "MATLAB 5.0 MAT-file"), EXIT_OK);
    assert_int_equal(matlab_writer_struct(&writer, "synsets", 2, names, 2, values), EXIT_OK);
    assert_int_equal(matlab_writer_close(&writer), EXIT_OK);
    snprintf(command, sizeof command,
             "/usr/bin/python3 -c 'import numpy, scipy.io, sys\n"
             "s = scipy.io.loadmat(sys.argv[1], squeeze_me=True)[\"synsets\"]\n"
             "assert s[\"num_children\"][0] == 2 and s[\"num_children\"][1] == 0\n"
             "assert list(s[\"children\"][0]) == [300, 7] and s[\"children\"][0].dtype == numpy.uint16\n"
             "numpy.dtype([(\"children\", (numpy.int8, max(s[\"num_children\"])))])\n"
             "' %s",
             path);
    assert_int_equal(system(command), 0);
    struct matlab_file *file;
    assert_int_equal(matlab_open(&file, path), EXIT_OK);
    struct matlab_variable variable, child;
    bool found;
    assert_int_equal(matlab_find(file, "synsets", &variable, &found), EXIT_OK);
    expect_child(file, MATLAB_UINT8, 1, &child);
    uint8_t count = 0;
    assert_int_equal(matlab_read(file, &count, 1), EXIT_OK);
    assert_int_equal(count, 2);
    expect_child(file, MATLAB_UINT16, 2, &child);
    uint16_t read[2] = {0};
    assert_int_equal(matlab_read(file, read, 2), EXIT_OK);
    assert_true(read[0] == 300 && read[1] == 7);
    matlab_close(file);
}

/* A struct array as scipy's savemat writes it (miUTF8 text, no compression, and compressed). */
static void read_scipy_file(bool compressed)
{
    char path[512], command[2048];
    test_path(path, sizeof path, test_directory, compressed ? "scipy-z.mat" : "scipy.mat");
    snprintf(command, sizeof command,
             "/usr/bin/python3 -c 'import numpy, scipy.io, sys\n"
             "d = numpy.dtype([(\"ILSVRC2012_ID\", \"O\"), (\"WNID\", \"O\"), (\"children\", \"O\")])\n"
             "s = numpy.array([(1.0, \"n01440764\", numpy.zeros((0, 0))),\n"
             "                 (1001.0, \"n00001740\", numpy.array([1.0, 2.0, 3.0]))], dtype=d)\n"
             "scipy.io.savemat(sys.argv[1], {\"synsets\": s.reshape(2, 1)},\n"
             "                 do_compression=sys.argv[2] == \"1\")\n"
             "' %s %d",
             path, compressed ? 1 : 0);
    assert_int_equal(system(command), 0);
    struct matlab_file *file;
    assert_int_equal(matlab_open(&file, path), EXIT_OK);
    struct matlab_variable variable;
    bool found;
    assert_int_equal(matlab_find(file, "synsets", &variable, &found), EXIT_OK);
    assert_true(found);
    assert_int_equal(variable.count, 2);
    assert_int_equal(matlab_field_count(file), 3);
    assert_string_equal(matlab_field_name(file, 0), "ILSVRC2012_ID");
    static const double first[1] = {1}, second[1] = {1001}, children[3] = {1, 2, 3};
    expect_doubles(file, 1, first);
    expect_text(file, "n01440764");
    expect_doubles(file, 0, NULL);
    expect_doubles(file, 1, second);
    expect_text(file, "n00001740");
    expect_doubles(file, 3, children);
    assert_int_equal(matlab_child(file, &variable, &found), EXIT_OK);
    assert_false(found);
    matlab_close(file);
}

static void test_scipy_struct_arrays(void **state)
{
    (void)state;
    read_scipy_file(false);
    read_scipy_file(true);
}

/* An uncompressed file holding one struct miMATRIX: HEADER then the BODY words (little-endian). */
static size_t build_file(unsigned char *bytes, const uint32_t *body, size_t words)
{
    memset(bytes, ' ', 116);
    memcpy(bytes, "MATLAB 5.0 MAT-file", 19);
    memset(bytes + 116, 0, 8);
    bytes[124] = 0;
    bytes[125] = 1;
    bytes[126] = 'I';
    bytes[127] = 'M';
    memcpy(bytes + 128, body, words * 4);
    return 128 + words * 4;
}

static void expect_hostile(const uint32_t *body, size_t words, const char *fragment)
{
    unsigned char bytes[1024];
    size_t size = build_file(bytes, body, words);
    struct matlab_file *file;
    assert_int_equal(matlab_open_memory(&file, bytes, size, "meta.mat"), EXIT_OK);
    struct matlab_variable variable, child;
    bool found = true;
    int result = matlab_next(file, &variable, &found);
    while (result == EXIT_OK && found) {
        result = matlab_child(file, &child, &found);
        if (result == EXIT_OK && found && child.class_id == MATLAB_CHAR) {
            char text[8];
            size_t length;
            result = matlab_read_text(file, text, sizeof text, &length);
        }
    }
    matlab_close(file);
    assert_int_equal(result, EXIT_CORRUPT_INPUT);
    if (strstr(error_message(), fragment) == NULL)
        fail_msg("message \"%s\" lacks \"%s\"", error_message(), fragment);
    assert_non_null(strstr(error_message(), "cannot read MATLAB file: meta.mat: "));
}

/* miMATRIX tag, flags (struct), dimensions ROWS x 1, name "s", field name length, names. */
#define STRUCT_HEAD(size, rows, length)                                                          \
    14, size, 6, 8, 2, 0, 5, 8, rows, 1, 0x00010001, 's', 0x00040005, length
#define ONE_FIELD 1, 8, 'a', 0

static void test_hostile_structs(void **state)
{
    (void)state;
    /* 2^31 elements claimed, one field, no element follows. */
    const uint32_t absurd[] = {STRUCT_HEAD(64, 0x7fffffff, 8), ONE_FIELD};
    expect_hostile(absurd, sizeof absurd / 4, "runs past the end of its matrix");
    const uint32_t zero_length[] = {STRUCT_HEAD(64, 1, 0), ONE_FIELD};
    expect_hostile(zero_length, sizeof zero_length / 4, "struct field names of 0 bytes");
    const uint32_t long_names[] = {STRUCT_HEAD(64, 1, 4096), ONE_FIELD};
    expect_hostile(long_names, sizeof long_names / 4, "struct field names of 4096 bytes");
    const uint32_t unterminated[] = {STRUCT_HEAD(64, 1, 8), 1, 8, 0x61616161, 0x61616161};
    expect_hostile(unterminated, sizeof unterminated / 4, "field name 1 is not NUL-terminated");
    /* The element is a miDOUBLE, not a miMATRIX. */
    const uint32_t not_array[] = {STRUCT_HEAD(80, 1, 8), ONE_FIELD, 9, 8, 0, 0};
    expect_hostile(not_array, sizeof not_array / 4, "has data type 9 and 8 bytes, not an array");
    /* The element declares more bytes than its struct holds. */
    const uint32_t overrun[] = {STRUCT_HEAD(72, 1, 8), ONE_FIELD, 14, 4096};
    expect_hostile(overrun, sizeof overrun / 4, "runs past the end of its matrix");
    /* A char element of 2 rows. */
    const uint32_t rows[] = {STRUCT_HEAD(120, 1, 8), ONE_FIELD, 14, 48, 6, 8, 4, 0, 5, 8, 2, 1,
                             1, 0, 0x00040004, 0x00410041};
    expect_hostile(rows, sizeof rows / 4, "has 2 rows, not one");
    /* A char element longer than the reader's buffer (8 bytes here). */
    const uint32_t long_text[] = {STRUCT_HEAD(136, 1, 8), ONE_FIELD, 14, 64, 6, 8, 4, 0, 5, 8,
                                  1, 9, 1, 0, 16, 9, 0x41414141, 0x41414141, 0x41, 0};
    expect_hostile(long_text, sizeof long_text / 4, "holds more than 7 bytes");
}

/* Cells nested in cells, deeper than MATLAB_MAX_DEPTH. */
static void test_nesting_bounded(void **state)
{
    (void)state;
    uint32_t body[256];
    size_t words = 0;
    int levels = MATLAB_MAX_DEPTH + 1;
    for (int level = 0; level < levels; level++) {
        uint32_t size = 40 + 48 * (uint32_t)(levels - 1 - level);
        const uint32_t head[] = {14, size, 6, 8, 1, 0, 5, 8, 1, 1, 1, 0};
        if (level == 0)
            memcpy(body + words, (uint32_t[]){14, size, 6, 8, 1, 0, 5, 8, 1, 1, 0x00010001, 'c'},
                   sizeof head);
        else
            memcpy(body + words, head, sizeof head);
        words += sizeof head / 4;
    }
    unsigned char bytes[2048];
    size_t size = build_file(bytes, body, words);
    struct matlab_file *file;
    assert_int_equal(matlab_open_memory(&file, bytes, size, "deep.mat"), EXIT_OK);
    struct matlab_variable variable;
    bool found;
    int result = matlab_next(file, &variable, &found);
    for (int level = 1; result == EXIT_OK && found && level < levels + 2; level++)
        result = matlab_child(file, &variable, &found);
    matlab_close(file);
    assert_int_equal(result, EXIT_CORRUPT_INPUT);
    assert_non_null(strstr(error_message(), "arrays nested deeper than 8"));
}

static void test_calls_out_of_place(void **state)
{
    (void)state;
    char path[512];
    test_path(path, sizeof path, test_directory, "calls.mat");
    write_synsets(path);
    struct matlab_file *file;
    assert_int_equal(matlab_open(&file, path), EXIT_OK);
    struct matlab_variable variable;
    bool found;
    assert_int_equal(matlab_next(file, &variable, &found), EXIT_OK);
    char text[16];
    size_t length;
    assert_int_equal(matlab_read_text(file, text, sizeof text, &length), EXIT_OTHER);
    assert_non_null(strstr(error_message(), "no character array to read"));
    expect_child(file, MATLAB_DOUBLE, 1, &variable);
    assert_int_equal(matlab_read_text(file, text, sizeof text, &length), EXIT_OTHER);
    matlab_close(file);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_struct_written_and_read),
        cmocka_unit_test(test_scipy_reads_ours),
        cmocka_unit_test(test_scipy_struct_arrays),
        cmocka_unit_test(test_integer_fields),
        cmocka_unit_test(test_hostile_structs),
        cmocka_unit_test(test_nesting_bounded),
        cmocka_unit_test(test_calls_out_of_place),
    };
    return cmocka_run_group_tests(tests, test_directory_setup, test_directory_teardown);
}
