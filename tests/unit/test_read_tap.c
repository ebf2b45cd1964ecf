/* Unit tests for common/base/read_tap.c: digests from the bytes a reader reads, whole, stopped
   early, skipping ahead, small reads ahead held, a file open before its tap, seeking back,
   through stdio in large reads, the inflated content, never read again. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "common/base/input_file.h"
#include "common/base/read_tap.h"
#include "common/formats/gzip/gzip_write.h"
#include "common/formats/gzip/inflate_file.h"
#include "common/formats/gzip/inflated_digest.h"
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A file of 3 MiB + 5 bytes (more than one fill block), its bytes not periodic in a block. */
enum { DATA_SIZE = 3 * (1 << 20) + 5 };

static char data_path[256], gzip_path[256];
static unsigned char *data;

static int make_files(void **state)
{
    if (test_directory_setup(state) != 0)
        return -1;
    data = malloc(DATA_SIZE);
    uint32_t value = 1;
    for (size_t index = 0; index < DATA_SIZE; index++) {
        value = value * 1103515245u + 12345u;
        data[index] = (unsigned char)(value >> 16);
    }
    test_path(data_path, sizeof data_path, test_directory, "data.bin");
    test_path(gzip_path, sizeof gzip_path, test_directory, "data.gz");
    FILE *file = fopen(data_path, "wb");
    fwrite(data, 1, DATA_SIZE, file);
    fclose(file);
    struct gzip_writer *writer;
    if (gzip_writer_open(&writer, gzip_path, NULL) != EXIT_OK ||
        gzip_writer_write(writer, data, DATA_SIZE) != EXIT_OK || gzip_writer_close(writer) != 0)
        return -1;
    return 0;
}

static int remove_files(void **state)
{
    free(data);
    return test_directory_teardown(state);
}

/* The tap's digests of PATH equal hash_file_digests' of it, first and last bytes too. */
static void assert_whole_file(struct read_tap *tap, const char *path)
{
    struct file_digests tapped, whole;
    assert_int_equal(read_tap_finish(tap, &tapped), EXIT_OK);
    assert_int_equal(hash_file_digests(path, true, &whole), EXIT_OK);
    assert_int_equal(tapped.size, whole.size);
    assert_string_equal(tapped.sha256, whole.sha256);
    assert_string_equal(tapped.md5, whole.md5);
    assert_int_equal(tapped.head_length, whole.head_length);
    assert_memory_equal(tapped.head, whole.head, whole.head_length);
    assert_int_equal(tapped.tail_length, whole.tail_length);
    assert_memory_equal(tapped.tail, whole.tail, whole.tail_length);
}

/* Reads PATH through input_file_read, COUNT bytes at a time, LIMIT bytes in all; closes it. */
static void read_some(const char *path, size_t count, size_t limit)
{
    int descriptor = input_file_open(path, NULL);
    assert_true(descriptor >= 0);
    unsigned char *buffer = malloc(count);
    for (size_t done = 0; done < limit;) {
        ssize_t got = input_file_read(descriptor, buffer, count < limit - done ? count
                                                                                : limit - done);
        assert_true(got >= 0);
        if (got == 0)
            break;
        done += (size_t)got;
    }
    free(buffer);
    assert_int_equal(input_file_close(descriptor), 0);
}

static void test_read_whole(void **state)
{
    (void)state;
    struct read_tap *tap;
    assert_int_equal(read_tap_create(&tap, data_path, true), EXIT_OK);
    read_some(data_path, 4099, DATA_SIZE + 1);
    assert_whole_file(tap, data_path);
    read_tap_free(tap);
}

/* The bytes hashed are those the reader read: the file changed after it was read, with the same
   size, leaves the digests of what was read (so the finish did not read it again). */
static void test_digests_of_the_bytes_read(void **state)
{
    (void)state;
    char path[256];
    test_path(path, sizeof path, test_directory, "changed.bin");
    FILE *file = fopen(path, "wb");
    fwrite(data, 1, 100000, file);
    fclose(file);
    struct read_tap *tap;
    assert_int_equal(read_tap_create(&tap, path, true), EXIT_OK);
    read_some(path, 65536, 100000);
    file = fopen(path, "r+b");
    fputs("other bytes", file);
    fclose(file);
    struct file_digests tapped, expected;
    assert_int_equal(read_tap_finish(tap, &tapped), EXIT_OK);
    assert_int_equal(hash_memory_digests(data, 100000, true, &expected), EXIT_OK);
    assert_string_equal(tapped.sha256, expected.sha256);
    assert_string_equal(tapped.md5, expected.md5);
    read_tap_free(tap);
}

static void test_stopped_early(void **state)
{
    (void)state;
    struct read_tap *tap;
    assert_int_equal(read_tap_create(&tap, data_path, true), EXIT_OK);
    read_some(data_path, 1000, 1500);
    assert_whole_file(tap, data_path);
    read_tap_free(tap);
}

static void test_never_opened(void **state)
{
    (void)state;
    struct read_tap *tap;
    assert_int_equal(read_tap_create(&tap, data_path, true), EXIT_OK);
    assert_whole_file(tap, data_path);
    read_tap_free(tap);
}

/* pread ahead of the bytes hashed (the gap is filled in order), then behind them (ignored). */
static void test_skipping_ahead_and_back(void **state)
{
    (void)state;
    struct read_tap *tap;
    assert_int_equal(read_tap_create(&tap, data_path, true), EXIT_OK);
    int descriptor = input_file_open(data_path, NULL);
    unsigned char buffer[5000];
    assert_int_equal(input_file_pread(descriptor, buffer, 100, 0), 100);
    assert_int_equal(input_file_pread(descriptor, buffer, 5000, 2 * (1 << 20) + 7), 5000);
    assert_int_equal(input_file_pread(descriptor, buffer, 5000, 50), 5000);
    assert_int_equal(input_file_read(descriptor, buffer, 5000), 5000);
    input_file_close(descriptor);
    assert_whole_file(tap, data_path);
    read_tap_free(tap);
}

/* Writes TEXT over the file at PATH from OFFSET. */
static void overwrite(const char *path, long offset, const char *text)
{
    FILE *file = fopen(path, "r+b");
    assert_non_null(file);
    assert_int_equal(fseek(file, offset, SEEK_SET), 0);
    fputs(text, file);
    fclose(file);
}

/* A small pread far ahead is held, not a cause to read the gap at once (HDF5 reads metadata at
   the file's end before its data): the gap is hashed as read later, in order, and the held bytes
   where the reader left off. The file changed after each read tells which bytes were hashed. */
static void test_small_read_ahead_held(void **state)
{
    (void)state;
    char path[256];
    test_path(path, sizeof path, test_directory, "held.bin");
    FILE *file = fopen(path, "wb");
    fwrite(data, 1, 100000, file);
    fclose(file);
    struct read_tap *tap;
    assert_int_equal(read_tap_create(&tap, path, true), EXIT_OK);
    int descriptor = input_file_open(path, NULL);
    unsigned char buffer[50000];
    assert_int_equal(input_file_pread(descriptor, buffer, 1000, 90000), 1000);
    overwrite(path, 10, "other bytes");
    overwrite(path, 90000, "changed after it was read");
    assert_int_equal(input_file_read(descriptor, buffer, 50000), 50000);
    input_file_close(descriptor);
    struct file_digests tapped, expected;
    assert_int_equal(read_tap_finish(tap, &tapped), EXIT_OK);
    unsigned char *read = malloc(100000);
    memcpy(read, data, 100000);
    memcpy(read + 10, "other bytes", 11);
    assert_int_equal(hash_memory_digests(read, 100000, true, &expected), EXIT_OK);
    assert_string_equal(tapped.sha256, expected.sha256);
    assert_string_equal(tapped.md5, expected.md5);
    free(read);
    read_tap_free(tap);
}

/* A small gap before a read ahead (bytes between the objects a reader reads in order) is read at
   once, not left to the finish: the file changed in the gap after the read leaves the digests
   of the bytes as they were. */
static void test_small_gap_read_at_once(void **state)
{
    (void)state;
    char path[256];
    test_path(path, sizeof path, test_directory, "gap.bin");
    FILE *file = fopen(path, "wb");
    fwrite(data, 1, 100000, file);
    fclose(file);
    struct read_tap *tap;
    assert_int_equal(read_tap_create(&tap, path, true), EXIT_OK);
    int descriptor = input_file_open(path, NULL);
    unsigned char buffer[1000];
    assert_int_equal(input_file_pread(descriptor, buffer, 1000, 0), 1000);
    assert_int_equal(input_file_pread(descriptor, buffer, 1000, 1100), 1000);
    overwrite(path, 1050, "changed after the read beyond it");
    for (off_t offset = 3000; offset < 100000; offset += 1000)
        assert_int_equal(input_file_pread(descriptor, buffer, 1000, offset), 1000);
    input_file_close(descriptor);
    struct file_digests tapped, expected;
    assert_int_equal(read_tap_finish(tap, &tapped), EXIT_OK);
    assert_int_equal(hash_memory_digests(data, 100000, true, &expected), EXIT_OK);
    assert_string_equal(tapped.sha256, expected.sha256);
    read_tap_free(tap);
}

/* A tap made while its file is open already (fixture --from opens its parent first) feeds from
   that descriptor: the file changed after the reads leaves the digests of the bytes read. */
static void test_open_before_the_tap(void **state)
{
    (void)state;
    char path[256];
    test_path(path, sizeof path, test_directory, "opened.bin");
    FILE *file = fopen(path, "wb");
    fwrite(data, 1, 100000, file);
    fclose(file);
    int descriptor = input_file_open(path, NULL);
    struct read_tap *tap;
    assert_int_equal(read_tap_create(&tap, path, true), EXIT_OK);
    unsigned char *buffer = malloc(100000);
    assert_int_equal(input_file_pread(descriptor, buffer, 100000, 0), 100000);
    overwrite(path, 500, "changed after it was read");
    struct file_digests tapped, expected;
    assert_int_equal(read_tap_finish(tap, &tapped), EXIT_OK);
    input_file_close(descriptor);
    assert_int_equal(hash_memory_digests(data, 100000, true, &expected), EXIT_OK);
    assert_string_equal(tapped.sha256, expected.sha256);
    free(buffer);
    read_tap_free(tap);
}

static void test_stream_seeking(void **state)
{
    (void)state;
    struct read_tap *tap;
    assert_int_equal(read_tap_create(&tap, data_path, false), EXIT_OK);
    struct stat status;
    FILE *stream = input_file_stream_status(data_path, &status);
    assert_non_null(stream);
    assert_int_equal(status.st_size, DATA_SIZE);
    unsigned char buffer[3000];
    assert_int_equal(fread(buffer, 1, sizeof buffer, stream), sizeof buffer);
    assert_memory_equal(buffer, data, sizeof buffer);
    assert_int_equal(fseeko(stream, 1 << 20, SEEK_SET), 0);
    assert_int_equal(fread(buffer, 1, sizeof buffer, stream), sizeof buffer);
    assert_memory_equal(buffer, data + (1 << 20), sizeof buffer);
    assert_int_equal(fseeko(stream, 10, SEEK_SET), 0);
    assert_int_equal(fread(buffer, 1, sizeof buffer, stream), sizeof buffer);
    assert_memory_equal(buffer, data + 10, sizeof buffer);
    assert_int_equal(fclose(stream), 0);
    struct file_digests tapped, whole;
    assert_int_equal(read_tap_finish(tap, &tapped), EXIT_OK);
    assert_int_equal(hash_file_digests(data_path, false, &whole), EXIT_OK);
    assert_string_equal(tapped.sha256, whole.sha256);
    assert_string_equal(tapped.md5, "");
    read_tap_free(tap);
}

/* The read system calls this process has made (Linux's /proc/self/io). */
static unsigned long read_calls(void)
{
    FILE *io = fopen("/proc/self/io", "r");
    assert_non_null(io);
    char line[128];
    unsigned long calls = 0;
    while (fgets(line, sizeof line, io) != NULL)
        if (sscanf(line, "syscr: %lu", &calls) == 1)
            break;
    fclose(io);
    return calls;
}

/* A stream reads its file 256 KiB at a time however small the caller's reads: 3 MiB in at most
   16 calls (13 reads, the one finding the end, the count's own; 8 KiB at a time: 386). */
static void test_stream_reads_large_blocks(void **state)
{
    (void)state;
    FILE *stream = input_file_stream(data_path);
    assert_non_null(stream);
    unsigned char *buffer = malloc(DATA_SIZE);
    unsigned long before = read_calls();
    size_t done = 0;
    for (size_t got; (got = fread(buffer + done, 1, 1000, stream)) > 0;)
        done += got;
    unsigned long calls = read_calls() - before;
    assert_int_equal(fclose(stream), 0);
    assert_int_equal(done, DATA_SIZE);
    assert_memory_equal(buffer, data, DATA_SIZE);
    free(buffer);
    assert_in_range(calls, 13, 16);
}

/* The head tests: whether the first bytes the tap was fed are a gzip header's; never. */
static bool head_is_gzip(const unsigned char *head, size_t length)
{
    return length >= 10 && head[0] == 0x1f && head[1] == 0x8b;
}

static bool head_refused(const unsigned char *head, size_t length)
{
    (void)head;
    (void)length;
    return false;
}

/* The content of a gzip file inflated by a reader that read LIMIT bytes of it, with THREADS. */
static void assert_content(size_t limit, unsigned threads)
{
    struct read_tap *tap;
    assert_int_equal(read_tap_create(&tap, gzip_path, true), EXIT_OK);
    read_tap_want_content(tap, threads == 1 ? NULL : head_is_gzip);
    struct inflate_file *file;
    assert_int_equal(inflate_file_open(&file, gzip_path, "cannot open", threads), EXIT_OK);
    unsigned char *buffer = malloc(limit + 1);
    size_t read;
    assert_int_equal(inflate_file_read(file, buffer, limit, &read), EXIT_OK);
    assert_int_equal(read, limit);
    assert_memory_equal(buffer, data, limit);
    free(buffer);
    inflate_file_close(file);
    assert_whole_file(tap, gzip_path);
    char expected[HASH_HEX_SIZE], content[HASH_HEX_SIZE];
    uint64_t expected_size, size;
    assert_int_equal(inflated_digest(gzip_path, expected, &expected_size), EXIT_OK);
    assert_true(read_tap_content_digest(tap, content, &size));
    assert_string_equal(content, expected);
    assert_int_equal(size, expected_size);
    read_tap_free(tap);
}

static void test_content_read_whole(void **state)
{
    (void)state;
    assert_content(DATA_SIZE, 1);
    assert_content(DATA_SIZE, 2);
}

static void test_content_stopped_early(void **state)
{
    (void)state;
    assert_content(10, 1);
    assert_content(300000, 2);
}

/* Content never wanted, or wanted but refused by the head test: the file read whole, the raw
   digests right, no content digest. */
static void test_content_unwanted(void **state)
{
    (void)state;
    for (int refused = 0; refused < 2; refused++) {
        struct read_tap *tap;
        assert_int_equal(read_tap_create(&tap, gzip_path, true), EXIT_OK);
        if (refused)
            read_tap_want_content(tap, head_refused);
        struct inflate_file *file;
        assert_int_equal(inflate_file_open(&file, gzip_path, "cannot open", 1), EXIT_OK);
        unsigned char *buffer = malloc(DATA_SIZE);
        size_t read;
        assert_int_equal(inflate_file_read(file, buffer, DATA_SIZE, &read), EXIT_OK);
        free(buffer);
        inflate_file_close(file);
        assert_whole_file(tap, gzip_path);
        char content[HASH_HEX_SIZE];
        uint64_t size;
        assert_false(read_tap_content_digest(tap, content, &size));
        read_tap_free(tap);
    }
}

static void test_missing(void **state)
{
    (void)state;
    char path[256];
    test_path(path, sizeof path, test_directory, "absent.bin");
    struct read_tap *tap;
    assert_int_equal(read_tap_create(&tap, path, true), EXIT_OK);
    struct file_digests digests;
    assert_int_equal(read_tap_finish(tap, &digests), EXIT_MISSING_INPUT);
    assert_non_null(strstr(error_message(), "absent.bin"));
    error_clear();
    read_tap_free(tap);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_whole),
        cmocka_unit_test(test_digests_of_the_bytes_read),
        cmocka_unit_test(test_stopped_early),
        cmocka_unit_test(test_never_opened),
        cmocka_unit_test(test_skipping_ahead_and_back),
        cmocka_unit_test(test_small_read_ahead_held),
        cmocka_unit_test(test_small_gap_read_at_once),
        cmocka_unit_test(test_open_before_the_tap),
        cmocka_unit_test(test_stream_seeking),
        cmocka_unit_test(test_stream_reads_large_blocks),
        cmocka_unit_test(test_content_read_whole),
        cmocka_unit_test(test_content_stopped_early),
        cmocka_unit_test(test_content_unwanted),
        cmocka_unit_test(test_missing),
    };
    return cmocka_run_group_tests(tests, make_files, remove_files);
}
