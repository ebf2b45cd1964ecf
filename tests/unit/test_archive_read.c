/* Unit tests for common/formats/archive/archive_read.c on gzipped tar archives written here with
   libarchive. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "common/formats/archive/archive_read.h"
#include "support.h"

#include <archive.h>
#include <archive_entry.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

struct member {
    const char *name;
    int type;             /* AE_IFREG, AE_IFDIR, AE_IFLNK, AE_IFCHR */
    const char *content;  /* regular files */
    size_t size;          /* of content; 0 with content NULL */
    const char *link;     /* symbolic link target */
    const char *hardlink; /* hard link target */
};

static void write_member(struct archive *archive, const struct member *member)
{
    struct archive_entry *entry = archive_entry_new();
    archive_entry_set_pathname(entry, member->name);
    archive_entry_set_filetype(entry, (unsigned)member->type);
    archive_entry_set_perm(entry, 0644);
    archive_entry_set_size(entry, member->type == AE_IFREG && member->hardlink == NULL
                                      ? (la_int64_t)member->size
                                      : 0);
    if (member->link != NULL)
        archive_entry_set_symlink(entry, member->link);
    if (member->hardlink != NULL)
        archive_entry_set_hardlink(entry, member->hardlink);
    assert_int_equal(archive_write_header(archive, entry), ARCHIVE_OK);
    if (member->content != NULL && member->hardlink == NULL)
        assert_int_equal(archive_write_data(archive, member->content, member->size),
                         (la_ssize_t)member->size);
    archive_entry_free(entry);
}

/* Writes DIRECTORY/NAME as a gzipped pax tar of COUNT members; returns its path (static). */
static const char *make_archive(const char *name, const struct member *members, size_t count)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", test_directory, name);
    struct archive *archive = archive_write_new();
    assert_int_equal(archive_write_set_format_pax_restricted(archive), ARCHIVE_OK);
    assert_int_equal(archive_write_add_filter_gzip(archive), ARCHIVE_OK);
    assert_int_equal(archive_write_open_filename(archive, path), ARCHIVE_OK);
    for (size_t index = 0; index < count; index++)
        write_member(archive, &members[index]);
    assert_int_equal(archive_write_close(archive), ARCHIVE_OK);
    archive_write_free(archive);
    return path;
}

static void test_regular_members_in_order_directories_skipped(void **state)
{
    (void)state;
    const struct member members[] = {
        {"top", AE_IFDIR, NULL, 0, NULL, NULL},
        {"top/first", AE_IFREG, "hello", 5, NULL, NULL},
        {"top/inner", AE_IFDIR, NULL, 0, NULL, NULL},
        {"top/inner/second", AE_IFREG, "world!!", 7, NULL, NULL},
        {"top/empty", AE_IFREG, NULL, 0, NULL, NULL},
    };
    struct archive_stream *stream;
    assert_int_equal(archive_stream_open(&stream, make_archive("normal.tar.gz", members, 5),
                                         ARCHIVE_STREAM_TAR, 2),
                     EXIT_OK);
    const char *name;
    uint64_t size;
    char buffer[16];

    assert_int_equal(archive_stream_next(stream, &name, &size), EXIT_OK);
    assert_string_equal(name, "top/first");
    assert_int_equal(size, 5);
    assert_int_equal(archive_stream_read_exactly(stream, buffer, 5), EXIT_OK);
    assert_memory_equal(buffer, "hello", 5);
    size_t read;
    assert_int_equal(archive_stream_read(stream, buffer, sizeof buffer, &read), EXIT_OK);
    assert_int_equal(read, 0);

    /* The second member is skipped over without being read; the third read in pieces. */
    assert_int_equal(archive_stream_next(stream, &name, &size), EXIT_OK);
    assert_string_equal(name, "top/inner/second");
    assert_int_equal(size, 7);
    assert_int_equal(archive_stream_read_exactly(stream, buffer, 3), EXIT_OK);
    assert_memory_equal(buffer, "wor", 3);
    assert_int_equal(archive_stream_read_exactly(stream, buffer, 4), EXIT_OK);
    assert_memory_equal(buffer, "ld!!", 4);

    assert_int_equal(archive_stream_next(stream, &name, &size), EXIT_OK);
    assert_string_equal(name, "top/empty");
    assert_int_equal(size, 0);
    assert_int_equal(archive_stream_read_exactly(stream, buffer, 1), EXIT_CORRUPT_INPUT);
    assert_non_null(strstr(error_message(), "top/empty"));

    assert_int_equal(archive_stream_next(stream, &name, &size), EXIT_OK);
    assert_null(name);
    archive_stream_close(stream);
}

/* An archive whose second member is hostile: the first streams, the second is refused. */
static void assert_refused(const struct member *hostile, const char *reason)
{
    const struct member members[] = {
        {"good", AE_IFREG, "ok", 2, NULL, NULL},
        *hostile,
        {"after", AE_IFREG, "never", 5, NULL, NULL},
    };
    struct archive_stream *stream;
    assert_int_equal(archive_stream_open(&stream, make_archive("hostile.tar.gz", members, 3),
                                         ARCHIVE_STREAM_TAR, 1),
                     EXIT_OK);
    const char *name;
    uint64_t size;
    assert_int_equal(archive_stream_next(stream, &name, &size), EXIT_OK);
    assert_string_equal(name, "good");
    error_clear();
    assert_int_equal(archive_stream_next(stream, &name, &size), EXIT_CORRUPT_INPUT);
    assert_int_equal(error_code(), EXIT_CORRUPT_INPUT);
    assert_non_null(strstr(error_message(), "hostile.tar.gz"));
    assert_non_null(strstr(error_message(), hostile->name));
    assert_non_null(strstr(error_message(), reason));
    archive_stream_close(stream);
}

static void test_parent_component_refused(void **state)
{
    (void)state;
    const struct member parent = {"../x", AE_IFREG, "evil", 4, NULL, NULL};
    assert_refused(&parent, "\"..\"");
    const struct member inner = {"a/../../x", AE_IFREG, "evil", 4, NULL, NULL};
    assert_refused(&inner, "\"..\"");
    const struct member directory_up = {"a/..", AE_IFDIR, NULL, 0, NULL, NULL};
    assert_refused(&directory_up, "\"..\"");
}

static void test_dotted_names_accepted(void **state)
{
    (void)state;
    const struct member members[] = {{"a/..b/...", AE_IFREG, "x", 1, NULL, NULL}};
    struct archive_stream *stream;
    assert_int_equal(archive_stream_open(&stream, make_archive("dots.tar.gz", members, 1),
                                         ARCHIVE_STREAM_TAR, 1),
                     EXIT_OK);
    const char *name;
    uint64_t size;
    assert_int_equal(archive_stream_next(stream, &name, &size), EXIT_OK);
    assert_string_equal(name, "a/..b/...");
    archive_stream_close(stream);
}

static void test_absolute_path_refused(void **state)
{
    (void)state;
    const struct member absolute = {"/etc/passwd", AE_IFREG, "root", 4, NULL, NULL};
    assert_refused(&absolute, "absolute path");
}

static void test_symbolic_link_refused(void **state)
{
    (void)state;
    const struct member link = {"link", AE_IFLNK, NULL, 0, "/etc/passwd", NULL};
    assert_refused(&link, "symbolic link");
}

static void test_hard_link_refused(void **state)
{
    (void)state;
    const struct member link = {"again", AE_IFREG, NULL, 0, NULL, "good"};
    assert_refused(&link, "hard link");
}

static void test_device_refused(void **state)
{
    (void)state;
    const struct member device = {"null", AE_IFCHR, NULL, 0, NULL, NULL};
    assert_refused(&device, "device");
}

static void test_truncated_archive_refused(void **state)
{
    (void)state;
    enum { SIZE = 256 * 1024 };
    char *content = malloc(SIZE);
    assert_non_null(content);
    unsigned state_value = 12345;
    for (size_t index = 0; index < SIZE; index++) {
        state_value = state_value * 1103515245u + 12345u;
        content[index] = (char)(state_value >> 24);
    }
    const struct member members[] = {{"noise", AE_IFREG, content, SIZE, NULL, NULL}};
    const char *path = make_archive("truncated.tar.gz", members, 1);
    free(content);
    struct stat status;
    assert_int_equal(stat(path, &status), 0);
    assert_int_equal(truncate(path, status.st_size / 2), 0);

    struct archive_stream *stream;
    assert_int_equal(archive_stream_open(&stream, path, ARCHIVE_STREAM_TAR, 1), EXIT_OK);
    const char *name;
    uint64_t size;
    assert_int_equal(archive_stream_next(stream, &name, &size), EXIT_OK);
    assert_string_equal(name, "noise");
    char *buffer = malloc(SIZE);
    assert_non_null(buffer);
    error_clear();
    assert_int_equal(archive_stream_read_exactly(stream, buffer, SIZE), EXIT_CORRUPT_INPUT);
    assert_non_null(strstr(error_message(), "truncated.tar.gz"));
    assert_non_null(strstr(error_message(), "noise"));
    free(buffer);
    archive_stream_close(stream);
}

static void test_missing_file(void **state)
{
    (void)state;
    char path[256];
    snprintf(path, sizeof path, "%s/absent.tar.gz", test_directory);
    struct archive_stream *stream;
    assert_int_equal(archive_stream_open(&stream, path, ARCHIVE_STREAM_TAR, 1), EXIT_MISSING_INPUT);
    assert_null(stream);
    assert_non_null(strstr(error_message(), "absent.tar.gz"));
}

static void test_not_an_archive(void **state)
{
    (void)state;
    char path[256];
    snprintf(path, sizeof path, "%s/text.tar.gz", test_directory);
    FILE *file = fopen(path, "w");
    assert_non_null(file);
    for (int line = 0; line < 200; line++)
        fputs("this is plain text, not a tar archive at all\n", file);
    fclose(file);
    struct archive_stream *stream;
    int status = archive_stream_open(&stream, path, ARCHIVE_STREAM_TAR, 1);
    if (status == EXIT_OK) {
        const char *name;
        uint64_t size;
        status = archive_stream_next(stream, &name, &size);
        archive_stream_close(stream);
    }
    assert_int_equal(status, EXIT_CORRUPT_INPUT);
    assert_non_null(strstr(error_message(), "text.tar.gz"));
}

/* WIDTH octal digits of VALUE, zero-padded, as tar headers hold numbers. */
static void write_octal(unsigned char *field, size_t width, uint64_t value)
{
    for (size_t index = width; index > 0; index--, value >>= 3)
        field[index - 1] = (unsigned char)('0' + (value & 7));
}

/* A ustar header for NAME declaring SIZE bytes, with nothing after it, gzipped into PATH. */
static void write_bare_header(const char *path, const char *name, uint64_t size)
{
    unsigned char header[512] = {0};
    memcpy(header, name, strlen(name));
    write_octal(header + 100, 7, 0644);
    write_octal(header + 124, 11, size);
    write_octal(header + 136, 11, 0);
    header[156] = '0';
    memcpy(header + 257, "ustar", 6);
    memcpy(header + 263, "00", 2);
    memset(header + 148, ' ', 8);
    unsigned sum = 0;
    for (size_t index = 0; index < sizeof header; index++)
        sum += header[index];
    write_octal(header + 148, 6, sum);
    header[154] = '\0';
    gzFile file = gzopen(path, "wb");
    assert_non_null(file);
    assert_int_equal(gzwrite(file, header, sizeof header), (int)sizeof header);
    gzclose(file);
}

/* A member declaring more than the archive can hold is refused before a reader sizes by it. */
static void test_declared_size_beyond_the_archive(void **state)
{
    (void)state;
    char path[256];
    snprintf(path, sizeof path, "%s/liar.tar.gz", test_directory);
    write_bare_header(path, "cifar-10-batches-py/data_batch_1", 4ull << 30);
    struct archive_stream *stream;
    assert_int_equal(archive_stream_open(&stream, path, ARCHIVE_STREAM_TAR, 1), EXIT_OK);
    const char *name;
    uint64_t size;
    assert_int_equal(archive_stream_next(stream, &name, &size), EXIT_CORRUPT_INPUT);
    assert_non_null(strstr(error_message(), "refusing archive member: "));
    assert_non_null(strstr(error_message(), "liar.tar.gz: cifar-10-batches-py/data_batch_1: "
                                            "declares 4294967296 bytes, more than an archive of "));
    archive_stream_close(stream);
    /* Within what deflate could expand to, the member is streamed and found short. */
    write_bare_header(path, "small", 4096);
    assert_int_equal(archive_stream_open(&stream, path, ARCHIVE_STREAM_TAR, 1), EXIT_OK);
    assert_int_equal(archive_stream_next(stream, &name, &size), EXIT_OK);
    assert_int_equal(size, 4096);
    char buffer[4096];
    assert_int_equal(archive_stream_read_exactly(stream, buffer, sizeof buffer),
                     EXIT_CORRUPT_INPUT);
    archive_stream_close(stream);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_regular_members_in_order_directories_skipped),
        cmocka_unit_test(test_parent_component_refused),
        cmocka_unit_test(test_dotted_names_accepted),
        cmocka_unit_test(test_absolute_path_refused),
        cmocka_unit_test(test_symbolic_link_refused),
        cmocka_unit_test(test_hard_link_refused),
        cmocka_unit_test(test_device_refused),
        cmocka_unit_test(test_truncated_archive_refused),
        cmocka_unit_test(test_missing_file),
        cmocka_unit_test(test_not_an_archive),
        cmocka_unit_test(test_declared_size_beyond_the_archive),
    };
    return cmocka_run_group_tests(tests, test_directory_setup, test_directory_teardown);
}
