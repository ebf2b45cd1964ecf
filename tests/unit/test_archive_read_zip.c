/* Unit tests for common/formats/archive/archive_read.c on zip archives written by Python's zipfile
   (tests/helpers/zip_archives.py) and by Info-ZIP's zip, with and without data descriptors. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "common/formats/archive/archive_read.h"
#include "support.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { NOISE_SIZE = 300000, NOISE_MEMBER_SIZE = NOISE_SIZE + 16 };

/* The content of top/noise: the generator's high bytes, a data descriptor's signature, 12 zeros. */
static unsigned char *noise_member(void)
{
    unsigned char *noise = calloc(NOISE_MEMBER_SIZE, 1);
    assert_non_null(noise);
    unsigned state = 12345;
    for (size_t index = 0; index < NOISE_SIZE; index++) {
        state = state * 1103515245u + 12345u;
        noise[index] = (unsigned char)(state >> 24);
    }
    memcpy(noise + NOISE_SIZE, "PK\x07\x08", 4);
    return noise;
}

static const char *archive_path(const char *name)
{
    static char path[512];
    test_path(path, sizeof path, test_directory, name);
    return path;
}

static int make_archives(void **state)
{
    if (test_directory_setup(state) != 0)
        return -1;
    char command[1024];
    snprintf(command, sizeof command, "/usr/bin/python3 tests/helpers/zip_archives.py %s",
             test_directory);
    return system(command) == 0 ? 0 : -1;
}

static struct archive_stream *open_zip(const char *name)
{
    struct archive_stream *stream;
    assert_int_equal(archive_stream_open(&stream, archive_path(name), ARCHIVE_STREAM_ZIP, 1), EXIT_OK);
    return stream;
}

/* The next member is NAME of SIZE (or ARCHIVE_STREAM_SIZE_UNKNOWN) holding CONTENT of LENGTH. */
static void assert_member(struct archive_stream *stream, const char *name, uint64_t size,
                          const void *content, size_t length)
{
    const char *member;
    uint64_t declared;
    assert_int_equal(archive_stream_next(stream, &member, &declared), EXIT_OK);
    assert_non_null(member);
    assert_string_equal(member, name);
    assert_int_equal(declared, size);
    unsigned char *bytes = NULL;
    size_t capacity = 0, read;
    assert_int_equal(archive_stream_read_member(stream, &bytes, &capacity, &read, 1 << 20),
                     EXIT_OK);
    assert_int_equal(read, length);
    if (length > 0)
        assert_memory_equal(bytes, content, length);
    free(bytes);
}

static void assert_end(struct archive_stream *stream)
{
    const char *member;
    uint64_t size;
    assert_int_equal(archive_stream_next(stream, &member, &size), EXIT_OK);
    assert_null(member);
    assert_int_equal(size, 0);
}

/* The members of tests/helpers/zip_archives.py, directories passed over. */
static void assert_python_members(const char *name, bool descriptor)
{
    uint64_t unknown = ARCHIVE_STREAM_SIZE_UNKNOWN;
    unsigned char *noise = noise_member();
    struct archive_stream *stream = open_zip(name);
    assert_member(stream, "top/first", descriptor ? unknown : 5, "hello", 5);
    assert_member(stream, "top/inner/second", descriptor ? unknown : 7, "world!!", 7);
    assert_member(stream, "top/empty", descriptor ? unknown : 0, "", 0);
    assert_member(stream, "top/noise", descriptor ? unknown : NOISE_MEMBER_SIZE, noise,
                  NOISE_MEMBER_SIZE);
    assert_end(stream);
    archive_stream_close(stream);
    free(noise);
}

static void test_python_stored_and_deflated(void **state)
{
    (void)state;
    assert_python_members("python-stored.zip", false);
    assert_python_members("python-deflated.zip", false);
}

/* Written to an unseekable file: general purpose flag bit 3, sizes after the data. */
static void test_python_data_descriptors(void **state)
{
    (void)state;
    assert_python_members("python-stored-descriptor.zip", true);
    assert_python_members("python-deflated-descriptor.zip", true);
}

/* The last error is exactly "WHAT: PATH-OF-ARCHIVE: REST". */
static void assert_error(const char *what, const char *archive, const char *rest)
{
    char expected[1024];
    snprintf(expected, sizeof expected, "%s: %s: %s", what, archive_path(archive), rest);
    assert_string_equal(error_message(), expected);
}

/* Read in pieces with archive_stream_read_exactly, by the sizes the local headers declare. */
static void test_read_exactly_in_pieces(void **state)
{
    (void)state;
    struct archive_stream *stream = open_zip("python-deflated.zip");
    const char *name;
    uint64_t size;
    char buffer[8];
    assert_int_equal(archive_stream_next(stream, &name, &size), EXIT_OK);
    assert_string_equal(name, "top/first");
    assert_int_equal(archive_stream_read_exactly(stream, buffer, 2), EXIT_OK);
    assert_int_equal(archive_stream_read_exactly(stream, buffer + 2, 3), EXIT_OK);
    assert_memory_equal(buffer, "hello", 5);
    assert_int_equal(archive_stream_read_exactly(stream, buffer, 1), EXIT_CORRUPT_INPUT);
    assert_error("cannot read archive", "python-deflated.zip", "top/first: member ends early");
    archive_stream_close(stream);
}

/* A member begun and left: the next one comes after the rest of it was read and checked. */
static void test_member_left_unfinished(void **state)
{
    (void)state;
    const char *names[] = {"python-stored.zip", "python-deflated.zip",
                           "python-stored-descriptor.zip", "python-deflated-descriptor.zip"};
    for (size_t index = 0; index < sizeof names / sizeof *names; index++) {
        struct archive_stream *stream = open_zip(names[index]);
        const char *name;
        uint64_t size;
        char buffer[4];
        assert_int_equal(archive_stream_next(stream, &name, &size), EXIT_OK);
        assert_int_equal(archive_stream_read_exactly(stream, buffer, 2), EXIT_OK);
        assert_memory_equal(buffer, "he", 2);
        assert_int_equal(archive_stream_next(stream, &name, &size), EXIT_OK);
        assert_string_equal(name, "top/inner/second");
        assert_int_equal(archive_stream_next(stream, &name, &size), EXIT_OK);
        assert_int_equal(archive_stream_next(stream, &name, &size), EXIT_OK);
        assert_string_equal(name, "top/noise");
        assert_int_equal(archive_stream_read_exactly(stream, buffer, 3), EXIT_OK);
        assert_end(stream);
        archive_stream_close(stream);
    }
}

/* Runs COMMAND in the test directory; fails the test when it fails. */
static void run_in_test_directory(const char *command)
{
    char line[2048];
    snprintf(line, sizeof line, "cd '%s' && %s", test_directory, command);
    assert_int_equal(system(line), 0);
}

/* Info-ZIP's zip, deflating and storing, to a file and to a pipe (then with data descriptors),
   and a member read from its standard input (its size only in the descriptor). */
static void test_info_zip(void **state)
{
    (void)state;
    if (system("command -v zip > /dev/null") != 0)
        skip();
    unsigned char *noise = noise_member();
    run_in_test_directory("mkdir -p source/top && printf hello > source/top/first");
    char path[512];
    test_path(path, sizeof path, test_directory, "source/top/noise");
    FILE *file = fopen(path, "wb");
    assert_non_null(file);
    assert_int_equal(fwrite(noise, 1, NOISE_MEMBER_SIZE, file), NOISE_MEMBER_SIZE);
    assert_int_equal(fclose(file), 0);
    run_in_test_directory("cd source && zip -q ../zip-deflated.zip top top/first top/noise && "
                          "zip -q0 ../zip-stored.zip top top/first top/noise && "
                          "zip -q - top top/first top/noise | cat > ../zip-pipe.zip && "
                          "zip -q0 - top top/first top/noise | cat > ../zip-pipe-stored.zip && "
                          "printf 'from standard input' | zip -q - - | cat > ../zip-stdin.zip");
    const char *names[] = {"zip-deflated.zip", "zip-stored.zip", "zip-pipe.zip",
                           "zip-pipe-stored.zip"};
    for (size_t index = 0; index < sizeof names / sizeof *names; index++) {
        struct archive_stream *stream = open_zip(names[index]);
        assert_member(stream, "top/first", 5, "hello", 5);
        assert_member(stream, "top/noise", NOISE_MEMBER_SIZE, noise, NOISE_MEMBER_SIZE);
        assert_end(stream);
        archive_stream_close(stream);
    }
    struct archive_stream *stream = open_zip("zip-stdin.zip");
    assert_member(stream, "-", ARCHIVE_STREAM_SIZE_UNKNOWN, "from standard input", 19);
    assert_end(stream);
    archive_stream_close(stream);
    free(noise);
}

/* More than 65,535 members: the count is in the zip64 end record (CelebA has 202,599). */
static void test_zip64_member_count(void **state)
{
    (void)state;
    struct archive_stream *stream = open_zip("many.zip");
    const char *name;
    uint64_t size;
    size_t count = 0;
    unsigned char byte;
    int status;
    while ((status = archive_stream_next(stream, &name, &size)) == EXIT_OK && name != NULL) {
        char expected[16];
        snprintf(expected, sizeof expected, "m/%05zu", count);
        assert_string_equal(name, expected);
        assert_int_equal(archive_stream_read_exactly(stream, &byte, 1), EXIT_OK);
        assert_int_equal(byte, count % 256);
        count++;
    }
    assert_int_equal(status, EXIT_OK);
    assert_int_equal(count, 70000);
    archive_stream_close(stream);
}

/* The first member streams, the second is refused for REASON. */
static void assert_refused(const char *archive, const char *member, const char *reason)
{
    struct archive_stream *stream = open_zip(archive);
    assert_member(stream, "good", 2, "ok", 2);
    error_clear();
    const char *name;
    uint64_t size;
    assert_int_equal(archive_stream_next(stream, &name, &size), EXIT_CORRUPT_INPUT);
    char rest[256];
    snprintf(rest, sizeof rest, "%s: %s", member, reason);
    assert_error("refusing archive member", archive, rest);
    archive_stream_close(stream);
}

static void test_hostile_members_refused(void **state)
{
    (void)state;
    assert_refused("hostile-dots.zip", "a/../../evil", "path with a \"..\" component");
    assert_refused("hostile-absolute.zip", "/etc/passwd", "absolute path");
    assert_refused("hostile-symlink.zip", "link", "symbolic link");
    assert_refused("hostile-device.zip", "null", "device");
}

static void test_encrypted_member_refused(void **state)
{
    (void)state;
    if (system("command -v zip > /dev/null") != 0)
        skip();
    run_in_test_directory("mkdir -p secret && printf hidden > secret/file && "
                          "cd secret && zip -q -P password ../encrypted.zip file");
    struct archive_stream *stream = open_zip("encrypted.zip");
    const char *name;
    uint64_t size;
    assert_int_equal(archive_stream_next(stream, &name, &size), EXIT_CORRUPT_INPUT);
    assert_error("refusing archive member", "encrypted.zip", "file: encrypted");
    archive_stream_close(stream);
}

/* A byte of top/inner/second changed: caught reading it, and when it is passed over unread. */
static void test_crc_mismatch(void **state)
{
    (void)state;
    struct archive_stream *stream = open_zip("crc.zip");
    assert_member(stream, "top/first", 5, "hello", 5);
    const char *name;
    uint64_t size;
    assert_int_equal(archive_stream_next(stream, &name, &size), EXIT_OK);
    unsigned char *bytes = NULL;
    size_t capacity = 0, read;
    assert_int_equal(archive_stream_read_member(stream, &bytes, &capacity, &read, 100),
                     EXIT_CORRUPT_INPUT);
    assert_error("cannot read archive", "crc.zip",
                 "top/inner/second: ZIP bad CRC: 0xf10a3e05 should be 0x30cb1101");
    archive_stream_close(stream);

    stream = open_zip("crc.zip");
    assert_int_equal(archive_stream_next(stream, &name, &size), EXIT_OK);
    assert_int_equal(archive_stream_next(stream, &name, &size), EXIT_OK);
    assert_string_equal(name, "top/inner/second");
    assert_int_equal(archive_stream_next(stream, &name, &size), EXIT_CORRUPT_INPUT);
    assert_error("cannot read archive", "crc.zip",
                 "top/inner/second: ZIP bad CRC: 0xf10a3e05 should be 0x30cb1101");
    archive_stream_close(stream);

    /* Stored with a data descriptor, the member's end is found by its CRC: not found. */
    stream = open_zip("crc-descriptor.zip");
    assert_member(stream, "top/first", ARCHIVE_STREAM_SIZE_UNKNOWN, "hello", 5);
    assert_int_equal(archive_stream_next(stream, &name, &size), EXIT_OK);
    assert_int_equal(archive_stream_read_member(stream, &bytes, &capacity, &read, 1 << 20),
                     EXIT_CORRUPT_INPUT);
    assert_error("cannot read archive", "crc-descriptor.zip",
                 "top/inner/second: Truncated ZIP file data");
    archive_stream_close(stream);
    free(bytes);
}

/* Every member but the last streams; the last (top/noise) fails reading, or the end fails. */
static void assert_broken_after(const char *archive, const char *where, const char *rest)
{
    struct archive_stream *stream = open_zip(archive);
    const char *name;
    uint64_t size;
    int status;
    while ((status = archive_stream_next(stream, &name, &size)) == EXIT_OK && name != NULL) {
        unsigned char *bytes = NULL;
        size_t capacity = 0, read;
        status = archive_stream_read_member(stream, &bytes, &capacity, &read, 1 << 20);
        free(bytes);
        if (status != EXIT_OK)
            break;
    }
    assert_int_equal(status, EXIT_CORRUPT_INPUT);
    assert_error(where, archive, rest);
    archive_stream_close(stream);
}

static void test_truncated_and_damaged(void **state)
{
    (void)state;
    assert_broken_after("truncated-data.zip", "cannot read archive",
                        "top/noise: Truncated ZIP file data");
    assert_broken_after("truncated-deflated.zip", "cannot read archive",
                        "top/noise: ZIP decompression failed (-5)");
    const char *no_end = "after the last member: no end of central directory record at its "
                         "end: truncated or followed by other bytes";
    assert_broken_after("truncated-directory.zip", "cannot read archive", no_end);
    assert_broken_after("trailing.zip", "cannot read archive", no_end);
    assert_broken_after("truncated-between.zip", "cannot read archive",
                        "ends before its central directory: truncated");
    assert_broken_after("lost-member.zip", "cannot read archive",
                        "after the last member: the central directory lists 6 members, the "
                        "local headers 5");
    assert_broken_after("many-lost-member.zip", "cannot read archive",
                        "after the last member: the central directory lists 70000 members, the "
                        "local headers 69999");
}

/* A local header declaring more than the archive could inflate to is refused before any read. */
static void test_declared_size_beyond_the_archive(void **state)
{
    (void)state;
    struct stat status;
    assert_int_equal(stat(archive_path("liar.zip"), &status), 0);
    struct archive_stream *stream = open_zip("liar.zip");
    const char *name;
    uint64_t size;
    assert_int_equal(archive_stream_next(stream, &name, &size), EXIT_CORRUPT_INPUT);
    char rest[256];
    snprintf(rest, sizeof rest, "top/first: declares 4026531840 bytes, more than an archive of "
             "%lld bytes can hold", (long long)status.st_size);
    assert_error("refusing archive member", "liar.zip", rest);
    archive_stream_close(stream);
}

/* A local header with flag bit 3 that declares a size all the same must hold it. */
static void test_declared_size_not_held(void **state)
{
    (void)state;
    struct archive_stream *stream = open_zip("descriptor-liar.zip");
    const char *name;
    uint64_t size;
    assert_int_equal(archive_stream_next(stream, &name, &size), EXIT_OK);
    assert_string_equal(name, "top/first");
    assert_int_equal(size, 9);
    unsigned char *bytes = NULL;
    size_t capacity = 0, read;
    assert_int_equal(archive_stream_read_member(stream, &bytes, &capacity, &read, 100),
                     EXIT_CORRUPT_INPUT);
    assert_error("cannot read archive", "descriptor-liar.zip",
                 "top/first: holds 5 bytes, its header declares 9");
    archive_stream_close(stream);
    /* Passed over unread, the same. */
    stream = open_zip("descriptor-liar.zip");
    assert_int_equal(archive_stream_next(stream, &name, &size), EXIT_OK);
    assert_int_equal(archive_stream_next(stream, &name, &size), EXIT_CORRUPT_INPUT);
    assert_error("cannot read archive", "descriptor-liar.zip",
                 "top/first: holds 5 bytes, its header declares 9");
    archive_stream_close(stream);
    free(bytes);
}

/* archive_stream_read_member stops at its limit, whether the size is declared or not. */
static void test_member_limit(void **state)
{
    (void)state;
    const char *names[] = {"python-deflated.zip", "python-stored-descriptor.zip"};
    for (size_t index = 0; index < 2; index++) {
        struct archive_stream *stream = open_zip(names[index]);
        const char *name;
        uint64_t size;
        do
            assert_int_equal(archive_stream_next(stream, &name, &size), EXIT_OK);
        while (strcmp(name, "top/noise") != 0);
        unsigned char *bytes = NULL;
        size_t capacity = 0, read;
        assert_int_equal(archive_stream_read_member(stream, &bytes, &capacity, &read, 100000),
                         EXIT_CORRUPT_INPUT);
        assert_error("refusing archive member", names[index],
                     "top/noise: holds more than 100000 bytes");
        assert_true(capacity <= 100001);
        free(bytes);
        archive_stream_close(stream);
    }
}

/* A zip is not a tar and a tar is not a zip. */
static void test_format_is_the_one_asked_for(void **state)
{
    (void)state;
    struct archive_stream *stream;
    assert_int_equal(archive_stream_open(&stream, archive_path("python-stored.zip"),
                                         ARCHIVE_STREAM_TAR, 1), EXIT_CORRUPT_INPUT);
    assert_null(stream);
    assert_error("cannot open archive", "python-stored.zip", "Unrecognized archive format");
    run_in_test_directory("printf 'not a zip archive at all, only some text' > text.zip");
    assert_int_equal(archive_stream_open(&stream, archive_path("text.zip"), ARCHIVE_STREAM_ZIP, 1),
                     EXIT_CORRUPT_INPUT);
    assert_error("cannot open archive", "text.zip", "Unrecognized archive format");
    assert_int_equal(archive_stream_open(&stream, archive_path("absent.zip"), ARCHIVE_STREAM_ZIP, 1),
                     EXIT_MISSING_INPUT);
    assert_null(stream);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_python_stored_and_deflated),
        cmocka_unit_test(test_python_data_descriptors),
        cmocka_unit_test(test_read_exactly_in_pieces),
        cmocka_unit_test(test_member_left_unfinished),
        cmocka_unit_test(test_info_zip),
        cmocka_unit_test(test_zip64_member_count),
        cmocka_unit_test(test_hostile_members_refused),
        cmocka_unit_test(test_encrypted_member_refused),
        cmocka_unit_test(test_crc_mismatch),
        cmocka_unit_test(test_truncated_and_damaged),
        cmocka_unit_test(test_declared_size_beyond_the_archive),
        cmocka_unit_test(test_declared_size_not_held),
        cmocka_unit_test(test_member_limit),
        cmocka_unit_test(test_format_is_the_one_asked_for),
    };
    return cmocka_run_group_tests(tests, make_archives, test_directory_teardown);
}
