/* Unit tests of write-behind: the bytes written stay whole, the pages written back leave the page
   cache as the file grows (but for the head, when it is kept), two regions written at once too,
   blocks allocated ahead are freed once the file is written, and no descriptor does nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/write_behind.h"
#include "support.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

enum { PIECE = 256 << 10, PIECES = 32, PAGE = 4096 };

static void piece_fill(unsigned char *piece, int number)
{
    for (size_t index = 0; index < PIECE; index++)
        piece[index] = (unsigned char)((index * 31 + (size_t)number * 7) % 251);
}

/* Pages of the file at DESCRIPTOR in the page cache, of the SIZE bytes from OFFSET (a multiple of
   the page size). */
static size_t resident_pages(int descriptor, size_t offset, size_t size)
{
    void *map = mmap(NULL, size, PROT_READ, MAP_SHARED, descriptor, (off_t)offset);
    assert_true(map != MAP_FAILED);
    unsigned char *residency = malloc(size / PAGE);
    assert_int_equal(mincore(map, size, residency), 0);
    size_t resident = 0;
    for (size_t page = 0; page < size / PAGE; page++)
        resident += residency[page] & 1;
    free(residency);
    munmap(map, size);
    return resident;
}

/* A new file NAME in the test directory, followed by BEHIND with steps every WINDOW bytes. */
static int stream_open(const char *name, struct write_behind *behind, uint64_t window)
{
    char path[4200];
    test_path(path, sizeof path, test_directory, name);
    int descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    assert_true(descriptor >= 0);
    write_behind_start(behind, descriptor);
    assert_int_equal(behind->window, 16 << 20);
    behind->window = window;
    return descriptor;
}

/* Writes PIECES pieces to DESCRIPTOR through BEHIND, syncs them and takes one more step, when
   every page is clean. */
static void stream_write(int descriptor, struct write_behind *behind)
{
    unsigned char *piece = malloc(PIECE);
    for (int number = 0; number < PIECES; number++) {
        piece_fill(piece, number);
        assert_int_equal(write(descriptor, piece, PIECE), PIECE);
        write_behind_note(behind, PIECE);
    }
    assert_int_equal(fdatasync(descriptor), 0);
    write_behind_note(behind, behind->window);
    free(piece);
}

/* The pieces read back from DESCRIPTOR are those written. */
static void stream_check(int descriptor)
{
    unsigned char *piece = malloc(PIECE), *read_back = malloc(PIECE);
    for (int number = 0; number < PIECES; number++) {
        piece_fill(piece, number);
        assert_int_equal(pread(descriptor, read_back, PIECE, (off_t)number * PIECE), PIECE);
        assert_memory_equal(read_back, piece, PIECE);
    }
    free(read_back);
    free(piece);
}

/* A new file NAME written whole through BEHIND (steps every MiB, the head kept when KEEP_HEAD). */
static int stream_written(const char *name, struct write_behind *behind, bool keep_head)
{
    int descriptor = stream_open(name, behind, 1 << 20);
    behind->keep_head = keep_head;
    stream_write(descriptor, behind);
    return descriptor;
}

static void test_written_back_pages_leave_the_cache(void **state)
{
    (void)state;
    struct write_behind behind;
    int descriptor = stream_written("stream", &behind, false);
    assert_int_equal(resident_pages(descriptor, 0, (size_t)PIECE * PIECES), 0);
    stream_check(descriptor);
    close(descriptor);
}

/* With keep_head, what the file held at the first step (1 MiB) stays; every later page goes. */
static void test_the_head_stays_when_kept(void **state)
{
    (void)state;
    struct write_behind behind;
    int descriptor = stream_written("head", &behind, true);
    assert_int_equal(behind.first, 1 << 20);
    assert_int_equal(resident_pages(descriptor, 0, 1 << 20), (1 << 20) / PAGE);
    assert_int_equal(resident_pages(descriptor, 1 << 20, (size_t)PIECE * PIECES - (1 << 20)), 0);
    stream_check(descriptor);
    close(descriptor);
}

/* A file whose size at the first step lies far past its data keeps at most four windows. */
static void test_the_head_kept_is_four_windows_at_most(void **state)
{
    (void)state;
    struct write_behind behind;
    int descriptor = stream_open("far", &behind, PIECE);
    behind.keep_head = true;
    unsigned char *piece = malloc(PIECE);
    piece_fill(piece, 0);
    assert_int_equal(pwrite(descriptor, piece, PIECE, 64 << 20), PIECE);
    write_behind_note(&behind, PIECE);
    assert_int_equal(behind.first, 4 * PIECE);
    assert_int_equal(behind.synced, (64 << 20) + PIECE);
    free(piece);
    close(descriptor);
}

static void test_pages_stay_below_a_window(void **state)
{
    (void)state;
    struct write_behind behind;
    int descriptor = stream_open("short", &behind, 4 * PIECE);
    unsigned char *piece = malloc(PIECE);
    piece_fill(piece, 0);
    assert_int_equal(write(descriptor, piece, PIECE), PIECE);
    assert_int_equal(fdatasync(descriptor), 0);
    write_behind_note(&behind, PIECE);
    assert_int_equal(behind.written, PIECE);
    assert_int_equal(resident_pages(descriptor, 0, PIECE), PIECE / PAGE);
    free(piece);
    close(descriptor);
}

/* Bytes of disk the file at DESCRIPTOR holds, and its size in *SIZE. */
static uint64_t allocated_bytes(int descriptor, uint64_t *size)
{
    struct stat status;
    assert_int_equal(fstat(descriptor, &status), 0);
    *size = (uint64_t)status.st_size;
    return (uint64_t)status.st_blocks * 512;
}

/* With allocate_ahead, each step allocates two windows past the file's end, its size unchanged;
   write_behind_release frees them, the bytes intact. Without, nothing lies past the end. */
/* A writer filling two regions at once (pieces at 0, 4 MiB, 256 KiB, 4 MiB + 256 KiB, ...: SVHN
   format 2's splits) writes below the file's size at the last step; those pages go too (the
   kernel's DONTNEED starts their writeback): once the writeback is done, the next step drops every
   page of both regions. */
static void test_two_regions_written_at_once_leave_the_cache(void **state)
{
    (void)state;
    struct write_behind behind;
    int descriptor = stream_open("regions", &behind, 1 << 20);
    enum { HALF = PIECES / 2 };
    unsigned char *piece = malloc(PIECE);
    for (int number = 0; number < HALF; number++)
        for (int region = 0; region < 2; region++) {
            piece_fill(piece, number + region * HALF);
            off_t offset = (off_t)(number + region * HALF) * PIECE;
            assert_int_equal(pwrite(descriptor, piece, PIECE, offset), PIECE);
            write_behind_note(&behind, PIECE);
        }
    free(piece);
    write_behind_note(&behind, behind.window);
    assert_int_equal(sync_file_range(descriptor, 0, 0, SYNC_FILE_RANGE_WAIT_BEFORE), 0);
    write_behind_note(&behind, behind.window);
    assert_int_equal(resident_pages(descriptor, 0, (size_t)PIECE * HALF), 0);
    assert_int_equal(resident_pages(descriptor, (size_t)PIECE * HALF, (size_t)PIECE * HALF), 0);
    stream_check(descriptor);
    close(descriptor);
}

static void test_blocks_allocated_ahead_are_released(void **state)
{
    (void)state;
    for (int ahead = 0; ahead < 2; ahead++) {
        struct write_behind behind;
        int descriptor = stream_open("ahead", &behind, 1 << 20);
        behind.allocate_ahead = ahead;
        stream_write(descriptor, &behind);
        uint64_t size;
        uint64_t allocated = allocated_bytes(descriptor, &size);
        assert_int_equal(size, (uint64_t)PIECE * PIECES);
        if (ahead)
            assert_true(allocated >= size + 2 * (1 << 20));
        else
            assert_true(allocated < size + (1 << 20));
        char path[4200];
        test_path(path, sizeof path, test_directory, "ahead");
        write_behind_release(path);
        allocated = allocated_bytes(descriptor, &size);
        assert_int_equal(size, (uint64_t)PIECE * PIECES);
        assert_true(allocated < size + (1 << 20));
        stream_check(descriptor);
        close(descriptor);
    }
}

static void test_no_descriptor_does_nothing(void **state)
{
    (void)state;
    struct write_behind behind;
    write_behind_start(&behind, -1);
    write_behind_note(&behind, (size_t)1 << 30);
    assert_int_equal(behind.descriptor, -1);
    assert_int_equal(behind.written, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_written_back_pages_leave_the_cache),
        cmocka_unit_test(test_the_head_stays_when_kept),
        cmocka_unit_test(test_the_head_kept_is_four_windows_at_most),
        cmocka_unit_test(test_pages_stay_below_a_window),
        cmocka_unit_test(test_two_regions_written_at_once_leave_the_cache),
        cmocka_unit_test(test_blocks_allocated_ahead_are_released),
        cmocka_unit_test(test_no_descriptor_does_nothing),
    };
    return cmocka_run_group_tests(tests, test_directory_setup, test_directory_teardown);
}
