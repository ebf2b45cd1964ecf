/* Unit tests for common/formats/gzip/gzip_write.c: the bytes come back through zlib, the header holds
   the comment (or, without one, is gzopen's), writes of every size, a file that cannot be made. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "common/formats/gzip/gzip_write.h"
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

enum { CONTENT_BYTES = 300000 };

/* Writes CONTENT in pieces of 1, 7 and 100000 bytes in turn into PATH with COMMENT. */
static void write_pieces(const char *path, const char *comment, const unsigned char *content)
{
    struct gzip_writer *writer;
    assert_int_equal(gzip_writer_open(&writer, path, comment), EXIT_OK);
    const size_t pieces[] = {1, 7, 100000};
    size_t done = 0;
    for (size_t turn = 0; done < CONTENT_BYTES; turn++) {
        size_t size = pieces[turn % 3] < CONTENT_BYTES - done ? pieces[turn % 3]
                                                              : CONTENT_BYTES - done;
        assert_int_equal(gzip_writer_write(writer, content + done, size), EXIT_OK);
        done += size;
    }
    assert_int_equal(gzip_writer_close(writer), EXIT_OK);
}

static void assert_inflates_to(const char *path, const unsigned char *content)
{
    gzFile file = gzopen(path, "rb");
    assert_non_null(file);
    unsigned char *back = malloc(CONTENT_BYTES + 1);
    assert_int_equal(gzread(file, back, CONTENT_BYTES + 1), CONTENT_BYTES);
    assert_memory_equal(back, content, CONTENT_BYTES);
    gzclose(file);
    free(back);
}

static void round_trip_with_and_without_comment(void **state)
{
    (void)state;
    unsigned char *content = malloc(CONTENT_BYTES);
    for (size_t index = 0; index < CONTENT_BYTES; index++)
        content[index] = (unsigned char)(index * 7 / 13);
    char path[512], header[64];
    test_path(path, sizeof path, test_directory, "with.gz");
    write_pieces(path, "a comment", content);
    assert_inflates_to(path, content);
    test_file_read(path, header, 21);
    assert_memory_equal(header, "\x1f\x8b\x08\x10\0\0\0\0\0\x03" "a comment", 20);
    assert_int_equal(header[19], '\0');
    test_path(path, sizeof path, test_directory, "without.gz");
    write_pieces(path, NULL, content);
    assert_inflates_to(path, content);
    FILE *stream = fopen(path, "rb");
    unsigned char bytes[10];
    assert_int_equal(fread(bytes, 1, 10, stream), 10);
    fclose(stream);
    assert_memory_equal(bytes, "\x1f\x8b\x08\0\0\0\0\0\0\x03", 10);
    free(content);
}

static void empty_member(void **state)
{
    (void)state;
    char path[512];
    test_path(path, sizeof path, test_directory, "empty.gz");
    struct gzip_writer *writer;
    assert_int_equal(gzip_writer_open(&writer, path, NULL), EXIT_OK);
    assert_int_equal(gzip_writer_close(writer), EXIT_OK);
    gzFile file = gzopen(path, "rb");
    char byte;
    assert_int_equal(gzread(file, &byte, 1), 0);
    assert_int_equal(gzclose(file), Z_OK);
}

static void unwritable_path(void **state)
{
    (void)state;
    struct gzip_writer *writer = (struct gzip_writer *)1;
    assert_int_equal(gzip_writer_open(&writer, "/nonexistent/x.gz", "c"), EXIT_WRITE);
    assert_null(writer);
    assert_string_equal(error_message(), "cannot write: /nonexistent/x.gz: No such file or directory");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(round_trip_with_and_without_comment),
        cmocka_unit_test(empty_member),
        cmocka_unit_test(unwritable_path),
    };
    return cmocka_run_group_tests(tests, test_directory_setup, test_directory_teardown);
}
