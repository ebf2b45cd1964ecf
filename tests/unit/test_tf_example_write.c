/* Unit tests for exporters/tf_example_write.c: exact wire bytes, and examples framed as TFRecords
   decoded back by tests/helpers/tfrecord.py, from the protobuf wire format and with the protobuf
   library (python3-protobuf), which must also serialise them to the same bytes. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "exporters/tf_example_write.h"
#include "exporters/tfrecord_write.h"
#include "support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* c: bytes "xy", a: int64 -1 and 1, b: float 1.5, empty: no floats; as protobuf's deterministic
   serialisation writes them: keys sorted, -1 a 10-byte varint, lists packed. */
static const unsigned char SMALL[] = {
    0x0a, 0x3f,                                                 /* Example.features */
    0x0a, 0x14, 0x0a, 0x01, 'a', 0x12, 0x0f,                    /* entry a */
    0x1a, 0x0d, 0x0a, 0x0b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0x01,
    0x0a, 0x0d, 0x0a, 0x01, 'b', 0x12, 0x08, 0x12, 0x06, 0x0a, 0x04, 0x00, 0x00, 0xc0, 0x3f,
    0x0a, 0x0b, 0x0a, 0x01, 'c', 0x12, 0x06, 0x0a, 0x04, 0x0a, 0x02, 'x', 'y',
    0x0a, 0x0b, 0x0a, 0x05, 'e', 'm', 'p', 't', 'y', 0x12, 0x02, 0x12, 0x00,
};

static void add_small(struct tf_example *example, const char *order)
{
    const void *value = "xy";
    size_t size = 2;
    const int64_t numbers[] = {-1, 1};
    const float half = 1.5f;
    for (const char *key = order; *key != '\0'; key++) {
        if (*key == 'a')
            assert_int_equal(tf_example_add_int64s(example, "a", numbers, 2), EXIT_OK);
        else if (*key == 'b')
            assert_int_equal(tf_example_add_floats(example, "b", &half, 1), EXIT_OK);
        else if (*key == 'c')
            assert_int_equal(tf_example_add_bytes(example, "c", &value, &size, 1), EXIT_OK);
        else
            assert_int_equal(tf_example_add_floats(example, "empty", NULL, 0), EXIT_OK);
    }
}

static void test_exact_bytes_whatever_the_order(void **state)
{
    (void)state;
    const char *orders[] = {"abce", "ecba", "caeb", "beac"};
    struct tf_example *example;
    assert_int_equal(tf_example_create(&example), EXIT_OK);
    for (size_t index = 0; index < 4; index++) {
        tf_example_clear(example);
        add_small(example, orders[index]);
        const unsigned char *bytes;
        size_t size;
        assert_int_equal(tf_example_encode(example, &bytes, &size), EXIT_OK);
        assert_int_equal(size, sizeof SMALL);
        assert_memory_equal(bytes, SMALL, sizeof SMALL);
    }
    tf_example_clear(example);
    const unsigned char *bytes;
    size_t size;
    assert_int_equal(tf_example_encode(example, &bytes, &size), EXIT_OK);
    assert_int_equal(size, 2);
    assert_memory_equal(bytes, "\x0a\x00", 2);
    tf_example_free(example);
}

/* A growing string of the JSON lines tfrecord.py prints. */
struct text {
    char *bytes;
    size_t size, capacity;
};

static void append(struct text *text, const char *format, ...)
{
    va_list arguments;
    va_start(arguments, format);
    int length = vsnprintf(NULL, 0, format, arguments);
    va_end(arguments);
    assert_true(length >= 0);
    if (text->size + (size_t)length + 1 > text->capacity) {
        text->capacity = 2 * (text->size + (size_t)length + 1);
        text->bytes = realloc(text->bytes, text->capacity);
        assert_non_null(text->bytes);
    }
    va_start(arguments, format);
    vsnprintf(text->bytes + text->size, (size_t)length + 1, format, arguments);
    va_end(arguments);
    text->size += (size_t)length;
}

static void append_hex(struct text *text, const unsigned char *bytes, size_t size)
{
    append(text, "\"");
    for (size_t index = 0; index < size; index++)
        append(text, "%02x", bytes[index]);
    append(text, "\"");
}

enum { IMAGE_SIZE = 100000 };

/* An example as fuel's exporter will write one, and what the decoders print for it. */
static void add_image_example(struct tf_example *example, struct text *expected, int label)
{
    static unsigned char image[IMAGE_SIZE];
    unsigned generator = 5 + (unsigned)label;
    for (size_t index = 0; index < IMAGE_SIZE; index++) {
        generator = generator * 1103515245u + 12345u;
        image[index] = (unsigned char)(generator >> 24);
    }
    const void *values[] = {image, "png"};
    size_t sizes[] = {IMAGE_SIZE, 3};
    const int64_t height = 32, width = 48, channels = 3, class_label = label;
    assert_int_equal(tf_example_add_int64s(example, "image/width", &width, 1), EXIT_OK);
    assert_int_equal(tf_example_add_bytes(example, "image/encoded", values, sizes, 1), EXIT_OK);
    assert_int_equal(tf_example_add_bytes(example, "image/format", values + 1, sizes + 1, 1),
                     EXIT_OK);
    assert_int_equal(tf_example_add_int64s(example, "image/height", &height, 1), EXIT_OK);
    assert_int_equal(tf_example_add_int64s(example, "image/channels", &channels, 1), EXIT_OK);
    assert_int_equal(tf_example_add_int64s(example, "image/class/label", &class_label, 1), EXIT_OK);
    append(expected, "{\"image/channels\":{\"int64_list\":[3]},"
                     "\"image/class/label\":{\"int64_list\":[%d]},"
                     "\"image/encoded\":{\"bytes_list\":[", label);
    append_hex(expected, image, IMAGE_SIZE);
    append(expected, "]},\"image/format\":{\"bytes_list\":[\"706e67\"]},"
                     "\"image/height\":{\"int64_list\":[32]},"
                     "\"image/width\":{\"int64_list\":[48]}}\n");
}

/* Every float and int64 edge, several and empty byte strings, empty lists, a non-ASCII key. */
static void add_edges_example(struct tf_example *example, struct text *expected)
{
    const float floats[] = {0.0f, -0.0f, 1.5f, -3.75f, INFINITY, -INFINITY, 1e-45f, 3.4028235e38f,
                            0.1f};
    const int64_t numbers[] = {0, 1, -1, 127, 128, 300, -300, INT64_MAX, INT64_MIN, 1ll << 35};
    const void *values[] = {"", "a", "\0\xff"};
    size_t sizes[] = {0, 1, 2};
    assert_int_equal(tf_example_add_floats(example, "floats", floats, 9), EXIT_OK);
    assert_int_equal(tf_example_add_int64s(example, "numbers", numbers, 10), EXIT_OK);
    assert_int_equal(tf_example_add_bytes(example, "strings", values, sizes, 3), EXIT_OK);
    assert_int_equal(tf_example_add_bytes(example, "no strings", NULL, NULL, 0), EXIT_OK);
    assert_int_equal(tf_example_add_int64s(example, "no numbers", NULL, 0), EXIT_OK);
    assert_int_equal(tf_example_add_floats(example, "caf\xc3\xa9", floats + 2, 1), EXIT_OK);
    assert_int_equal(tf_example_add_floats(example, "", floats + 3, 1), EXIT_OK);
    append(expected, "{\"\":{\"float_list\":[\"c0700000\"]},"
                     "\"caf\\u00e9\":{\"float_list\":[\"3fc00000\"]},"
                     "\"floats\":{\"float_list\":[\"00000000\",\"80000000\",\"3fc00000\","
                     "\"c0700000\",\"7f800000\",\"ff800000\",\"00000001\",\"7f7fffff\","
                     "\"3dcccccd\"]},\"no numbers\":{\"int64_list\":[]},"
                     "\"no strings\":{\"bytes_list\":[]},"
                     "\"numbers\":{\"int64_list\":[0,1,-1,127,128,300,-300,9223372036854775807,"
                     "-9223372036854775808,34359738368]},"
                     "\"strings\":{\"bytes_list\":[\"\",\"61\",\"00ff\"]}}\n");
}

static int write_to_file(void *context, const void *bytes, size_t size)
{
    return fwrite(bytes, 1, size, context) == size ? EXIT_OK : EXIT_WRITE;
}

/* Writes the records the decoders read: two images, the edges, the small one framed in place. */
static const char *write_examples(struct text *expected)
{
    static char path[512];
    test_path(path, sizeof path, test_directory, "examples.tfrecord");
    FILE *file = fopen(path, "wb");
    assert_non_null(file);
    struct tf_example *example;
    assert_int_equal(tf_example_create(&example), EXIT_OK);
    const unsigned char *bytes;
    size_t size;
    for (int label = 0; label < 2; label++) {
        tf_example_clear(example);
        add_image_example(example, expected, label * 999);
        assert_int_equal(tf_example_encode(example, &bytes, &size), EXIT_OK);
        assert_int_equal(tfrecord_write(write_to_file, file, bytes, size), EXIT_OK);
    }
    tf_example_clear(example);
    add_edges_example(example, expected);
    assert_int_equal(tf_example_encode(example, &bytes, &size), EXIT_OK);
    assert_int_equal(tfrecord_write(write_to_file, file, bytes, size), EXIT_OK);
    tf_example_clear(example);
    add_small(example, "ecab");
    assert_int_equal(tf_example_size(example, &size), EXIT_OK);
    unsigned char record[sizeof SMALL + TFRECORD_OVERHEAD];
    assert_int_equal(size, sizeof SMALL);
    tf_example_write(example, record + TFRECORD_HEADER_SIZE);
    assert_int_equal(tfrecord_encode(record, sizeof record, record + TFRECORD_HEADER_SIZE, size),
                     sizeof record);
    assert_int_equal(fwrite(record, 1, sizeof record, file), sizeof record);
    append(expected, "{\"a\":{\"int64_list\":[-1,1]},\"b\":{\"float_list\":[\"3fc00000\"]},"
                     "\"c\":{\"bytes_list\":[\"7879\"]},\"empty\":{\"float_list\":[]}}\n");
    tf_example_free(example);
    assert_int_equal(fclose(file), 0);
    return path;
}

static void assert_decoded(const char *decoder, const char *path, const char *expected)
{
    char command[1024];
    snprintf(command, sizeof command, "/usr/bin/python3 tests/helpers/tfrecord.py %s %s 2>&1",
             decoder, path);
    FILE *pipe = popen(command, "r");
    assert_non_null(pipe);
    size_t capacity = strlen(expected) + 4096;
    char *output = malloc(capacity);
    assert_non_null(output);
    size_t read = fread(output, 1, capacity - 1, pipe);
    output[read] = '\0';
    assert_int_equal(pclose(pipe), 0);
    assert_string_equal(output, expected);
    free(output);
}

static void test_decoded_from_the_wire_format(void **state)
{
    (void)state;
    struct text expected = {0};
    const char *path = write_examples(&expected);
    assert_decoded("examples", path, expected.bytes);
    free(expected.bytes);
}

static void test_decoded_by_protobuf(void **state)
{
    (void)state;
    if (system("/usr/bin/python3 -c 'import google.protobuf' 2> /dev/null") != 0)
        skip();
    struct text expected = {0};
    const char *path = write_examples(&expected);
    assert_decoded("protobuf", path, expected.bytes);
    free(expected.bytes);
}

static void test_refusals(void **state)
{
    (void)state;
    struct tf_example *example;
    assert_int_equal(tf_example_create(&example), EXIT_OK);
    const int64_t one = 1;
    assert_int_equal(tf_example_add_int64s(example, "twice", &one, 1), EXIT_OK);
    assert_int_equal(tf_example_add_int64s(example, "once", &one, 1), EXIT_OK);
    assert_int_equal(tf_example_add_floats(example, "twice", NULL, 0), EXIT_OK);
    const unsigned char *bytes;
    size_t size;
    assert_int_equal(tf_example_encode(example, &bytes, &size), EXIT_OTHER);
    assert_string_equal(error_message(),
                        "cannot encode tf.train.Example: feature twice given twice");
    tf_example_clear(example);
    assert_int_equal(tf_example_add_int64s(example, "bad \xc0\xaf key", &one, 1), EXIT_OTHER);
    assert_string_equal(error_message(),
                        "cannot encode tf.train.Example: feature bad \xc0\xaf key: its key is not "
                        "UTF-8");
    assert_int_equal(tf_example_add_int64s(example, "\xed\xa0\x80", &one, 1), EXIT_OTHER);
    /* Refused before a value is read: the sizes and counts below promise more than there is. */
    const void *value = "x";
    size_t huge = (size_t)1 << 31;
    assert_int_equal(tf_example_add_bytes(example, "image/encoded", &value, &huge, 1), EXIT_OTHER);
    assert_string_equal(error_message(), "cannot encode tf.train.Example: feature image/encoded: "
                                         "the example would exceed 2147483647 bytes, protobuf's "
                                         "limit");
    float few[1] = {0};
    assert_int_equal(tf_example_add_floats(example, "many", few, (size_t)1 << 29), EXIT_OTHER);
    assert_string_equal(error_message(), "cannot encode tf.train.Example: feature many: the "
                                         "example would exceed 2147483647 bytes, protobuf's limit");
    /* Nothing was added. */
    assert_int_equal(tf_example_encode(example, &bytes, &size), EXIT_OK);
    assert_int_equal(size, 2);
    tf_example_free(example);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_bytes_whatever_the_order),
        cmocka_unit_test(test_decoded_from_the_wire_format),
        cmocka_unit_test(test_decoded_by_protobuf),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, test_directory_setup, test_directory_teardown);
}
