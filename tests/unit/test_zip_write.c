/* Unit tests for common/formats/archive/zip_write.c: what it writes lists and streams back through
   zip_directory and archive_stream, reruns give the same bytes, a comment ends the archive. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "common/formats/archive/archive_read.h"
#include "common/formats/archive/zip_directory.h"
#include "common/formats/archive/zip_write.h"
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void write_archive(const char *path, const char *comment)
{
    struct zip_writer *writer;
    assert_int_equal(zip_writer_open(&writer, path, 1700000000, comment), EXIT_OK);
    assert_int_equal(zip_writer_add_directory(writer, "images/"), EXIT_OK);
    unsigned char noise[5000];
    for (size_t index = 0; index < sizeof noise; index++)
        noise[index] = (unsigned char)(index * 7919 >> 3);
    assert_int_equal(zip_writer_add_bytes(writer, "images/1.jpg", noise, sizeof noise), EXIT_OK);
    assert_int_equal(zip_writer_add_bytes(writer, "images/empty", "", 0), EXIT_OK);
    assert_int_equal(zip_writer_add_bytes(writer, "images/2.jpg", "hello", 5), EXIT_OK);
    assert_int_equal(zip_writer_close(writer), EXIT_OK);
}

static int append_name(void *context, const char *name)
{
    char *names = context;
    strcat(names, name);
    strcat(names, ";");
    return 0;
}

static void lists_and_streams_back(void **state)
{
    (void)state;
    char path[512];
    test_path(path, sizeof path, test_directory, "written.zip");
    write_archive(path, "the archive's comment");
    char names[256] = "";
    assert_int_equal(zip_directory_list(path, append_name, names), EXIT_OK);
    assert_string_equal(names, "images/;images/1.jpg;images/empty;images/2.jpg;");
    struct archive_stream *stream;
    assert_int_equal(archive_stream_open(&stream, path, ARCHIVE_STREAM_ZIP, 1), EXIT_OK);
    const char *expected[3] = {"images/1.jpg", "images/empty", "images/2.jpg"};
    const size_t sizes[3] = {5000, 0, 5};
    unsigned char *bytes = NULL;
    size_t capacity = 0, read;
    for (int member = 0; member < 3; member++) {
        const char *name;
        uint64_t size;
        assert_int_equal(archive_stream_next(stream, &name, &size), EXIT_OK);
        assert_string_equal(name, expected[member]);
        assert_int_equal(archive_stream_read_member(stream, &bytes, &capacity, &read, 1 << 20),
                         EXIT_OK);
        assert_int_equal(read, sizes[member]);
    }
    assert_memory_equal(bytes, "hello", 5);
    const char *name;
    uint64_t size;
    assert_int_equal(archive_stream_next(stream, &name, &size), EXIT_OK);
    assert_null(name);
    free(bytes);
    archive_stream_close(stream);
}

static void reruns_give_the_same_bytes(void **state)
{
    (void)state;
    char first[512], second[512], text[2][8192];
    test_path(first, sizeof first, test_directory, "first.zip");
    test_path(second, sizeof second, test_directory, "second.zip");
    write_archive(first, NULL);
    write_archive(second, NULL);
    size_t length = test_file_read(first, text[0], sizeof text[0]);
    assert_int_equal(test_file_read(second, text[1], sizeof text[1]), length);
    assert_memory_equal(text[0], text[1], length);
}

/* The comment follows the end record, its length in the record's last two bytes. */
static void comment_ends_the_archive(void **state)
{
    (void)state;
    char path[512];
    test_path(path, sizeof path, test_directory, "commented.zip");
    write_archive(path, "hello");
    FILE *file = fopen(path, "rb");
    assert_non_null(file);
    unsigned char end[27];
    assert_int_equal(fseek(file, -27, SEEK_END), 0);
    assert_int_equal(fread(end, 1, sizeof end, file), sizeof end);
    fclose(file);
    assert_memory_equal(end, "PK\5\6", 4);
    assert_int_equal(end[20] | end[21] << 8, 5);
    assert_memory_equal(end + 22, "hello", 5);
    struct zip_writer *writer;
    char long_comment[70000];
    memset(long_comment, 'x', sizeof long_comment - 1);
    long_comment[sizeof long_comment - 1] = '\0';
    assert_int_equal(zip_writer_open(&writer, path, 0, long_comment), EXIT_OTHER);
}

static void unwritable_path(void **state)
{
    (void)state;
    struct zip_writer *writer;
    assert_int_equal(zip_writer_open(&writer, "/nonexistent/out.zip", 0, NULL), EXIT_WRITE);
    assert_null(writer);
    assert_string_equal(error_message(), "cannot write archive: /nonexistent/out.zip: Failed to "
                                         "open '/nonexistent/out.zip'");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lists_and_streams_back),
        cmocka_unit_test(reruns_give_the_same_bytes),
        cmocka_unit_test(comment_ends_the_archive),
        cmocka_unit_test(unwritable_path),
    };
    return cmocka_run_group_tests(tests, test_directory_setup, test_directory_teardown);
}
