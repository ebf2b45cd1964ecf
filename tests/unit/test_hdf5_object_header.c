/* Unit tests for common/formats/hdf5_object_header.c on object headers laid out here byte by
   byte (versions 1 and 2), with continuation chunks inside and beyond the file. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "common/formats/hdf5_object_header.h"

#include <stdint.h>
#include <string.h>

enum { FILE_BYTES = 4096, BASE = 512 };

static unsigned char file[FILE_BYTES];

static bool read_bytes(void *source, uint64_t offset, void *buffer, size_t size)
{
    (void)source;
    if (offset > FILE_BYTES || size > FILE_BYTES - offset)
        return false;
    memcpy(buffer, file + offset, size);
    return true;
}

static const struct hdf5_layout layout = {BASE, FILE_BYTES, 8, 8, read_bytes, NULL};

static void put(uint64_t offset, uint64_t value, unsigned size)
{
    for (unsigned index = 0; index < size; index++)
        file[offset + index] = (unsigned char)(value >> (8 * index));
}

/* A version 1 header at ADDRESS: one NIL message, then a continuation to (TARGET, LENGTH). */
static void version_1_header(uint64_t address, uint64_t target, uint64_t length)
{
    uint64_t at = BASE + address;
    memset(file, 0, sizeof file);
    file[at] = 1;
    put(at + 2, 2, 2);
    put(at + 4, 1, 4);
    put(at + 8, 8 + 8 + 8 + 16, 4);
    put(at + 16, 0, 2);        /* NIL, 8 bytes */
    put(at + 18, 8, 2);
    put(at + 32, 0x10, 2);     /* continuation, 16 bytes */
    put(at + 34, 16, 2);
    put(at + 40, target, 8);
    put(at + 48, length, 8);
    /* the continuation chunk: one NIL message filling it */
    put(BASE + target, 0, 2);
    put(BASE + target + 2, length >= 8 ? length - 8 : 0, 2);
}

static void test_version_1_continuation_inside_the_file(void **state)
{
    (void)state;
    version_1_header(64, 1024, 64);
    assert_null(hdf5_object_header_check(&layout, 64));
}

static void test_version_1_continuation_of_terabytes_is_refused(void **state)
{
    (void)state;
    version_1_header(64, 1024, 3ull << 40);
    assert_string_equal(hdf5_object_header_check(&layout, 64),
                        "continuation chunk beyond the end of the file");
    version_1_header(64, UINT64_MAX - 4, 16);
    assert_string_equal(hdf5_object_header_check(&layout, 64),
                        "continuation chunk beyond the end of the file");
}

static void test_no_header_and_overlong_messages(void **state)
{
    (void)state;
    memset(file, 0, sizeof file);
    assert_ptr_equal(hdf5_object_header_check(&layout, 64), hdf5_no_object_header);
    assert_ptr_equal(hdf5_object_header_check(&layout, 1ull << 40), hdf5_no_object_header);
    version_1_header(64, 1024, 64);
    put(BASE + 64 + 18, 4000, 2); /* the NIL message outgrows its chunk */
    assert_string_equal(hdf5_object_header_check(&layout, 64),
                        "object header message longer than its chunk");
}

/* A version 2 header at ADDRESS (4-byte chunk size, no times): a continuation to TARGET. */
static void version_2_header(uint64_t address, uint64_t target, uint64_t length)
{
    uint64_t at = BASE + address;
    memset(file, 0, sizeof file);
    memcpy(file + at, "OHDR", 4);
    file[at + 4] = 2;
    file[at + 5] = 2; /* chunk size in 4 bytes */
    put(at + 6, 4 + 16, 4);
    file[at + 10] = 0x10; /* continuation message, 16 bytes */
    put(at + 11, 16, 2);
    put(at + 14, target, 8);
    put(at + 22, length, 8);
    memcpy(file + BASE + target, "OCHK", 4);
}

static void test_version_2_headers(void **state)
{
    (void)state;
    version_2_header(128, 2048, 16);
    assert_null(hdf5_object_header_check(&layout, 128));
    version_2_header(128, 2048, 1ull << 42);
    assert_string_equal(hdf5_object_header_check(&layout, 128),
                        "continuation chunk beyond the end of the file");
    version_2_header(128, 2048, 16);
    memcpy(file + BASE + 2048, "XXXX", 4);
    assert_string_equal(hdf5_object_header_check(&layout, 128),
                        "continuation chunk without its signature");
}

static void test_a_chain_of_chunks_is_bounded(void **state)
{
    (void)state;
    /* a continuation chunk that continues into itself, forever */
    version_1_header(64, 1024, 24);
    put(BASE + 1024, 0x10, 2);
    put(BASE + 1024 + 2, 16, 2);
    put(BASE + 1024 + 8, 1024, 8);
    put(BASE + 1024 + 16, 24, 8);
    assert_string_equal(hdf5_object_header_check(&layout, 64),
                        "more than 1024 object header chunks");
}

/* A version 1 group header: a symbol table message naming a B-tree and a local heap whose data
   segment is SEGMENT_SIZE bytes at 3072. */
static void group_header(uint64_t segment_size)
{
    uint64_t at = BASE + 64;
    memset(file, 0, sizeof file);
    file[at] = 1;
    put(at + 2, 1, 2);
    put(at + 8, 8 + 16, 4);
    put(at + 16, 0x11, 2);
    put(at + 18, 16, 2);
    put(at + 24, 256, 8);  /* B-tree */
    put(at + 32, 1024, 8); /* local heap */
    memcpy(file + BASE + 1024, "HEAP", 4);
    put(BASE + 1024 + 8, segment_size, 8);
    put(BASE + 1024 + 24, 3072, 8);
}

static void test_local_heap_of_a_group(void **state)
{
    (void)state;
    group_header(512);
    assert_null(hdf5_object_header_check(&layout, 64));
    group_header(1706557440);
    assert_string_equal(hdf5_object_header_check(&layout, 64),
                        "local heap beyond the end of the file");
    group_header(512);
    memcpy(file + BASE + 1024, "HEAQ", 4);
    assert_string_equal(hdf5_object_header_check(&layout, 64), "local heap missing");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_version_1_continuation_inside_the_file),
        cmocka_unit_test(test_version_1_continuation_of_terabytes_is_refused),
        cmocka_unit_test(test_no_header_and_overlong_messages),
        cmocka_unit_test(test_version_2_headers),
        cmocka_unit_test(test_a_chain_of_chunks_is_bounded),
        cmocka_unit_test(test_local_heap_of_a_group),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
