/* Unit tests of exporters/shard_file.c: bytes written in pieces of every size through the ring of
   buffers come out whole and in order, with the sha256 of what the file holds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "common/base/hash.h"
#include "exporters/shard_file.h"
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char *stream_make(size_t size, uint32_t seed)
{
    unsigned char *bytes = malloc(size);
    assert_non_null(bytes);
    for (size_t index = 0; index < size; index++) {
        seed = seed * 1664525u + 1013904223u;
        bytes[index] = (unsigned char)(seed >> 24);
    }
    return bytes;
}

/* Writes SIZE bytes as ENTRY in pieces of up to PIECE bytes (sizes varying), then checks the file
   and its sha256 against the bytes. */
static void write_and_check(size_t size, size_t piece, const char *entry)
{
    unsigned char *bytes = stream_make(size, (uint32_t)size);
    struct export_set set;
    assert_int_equal(export_set_begin(&set, test_directory, entry), EXIT_OK);
    struct shard_file file;
    assert_int_equal(shard_file_open(&file, &set, test_directory, entry), EXIT_OK);
    size_t written = 0, turn = 0;
    while (written < size) {
        size_t part = piece == 1 ? 1 : 1 + (turn++ * 7919) % piece;
        part = part < size - written ? part : size - written;
        assert_int_equal(shard_file_write(&file, bytes + written, part), EXIT_OK);
        written += part;
    }
    char sha256[HASH_HEX_SIZE], expected[HASH_HEX_SIZE];
    assert_int_equal(shard_file_close(&file, sha256), EXIT_OK);
    struct hash *hash;
    assert_int_equal(hash_begin(&hash, HASH_SHA256), EXIT_OK);
    hash_update(hash, bytes, size);
    hash_finish(hash, expected);
    assert_string_equal(sha256, expected);
    char path[4800];
    snprintf(path, sizeof path, "%s/%s", set.staging.path, entry);
    FILE *stream = fopen(path, "rb");
    assert_non_null(stream);
    unsigned char *back = malloc(size + 1);
    assert_non_null(back);
    assert_int_equal(fread(back, 1, size + 1, stream), size);
    fclose(stream);
    assert_memory_equal(back, bytes, size);
    free(back);
    free(bytes);
    export_set_abort(&set);
}

static void test_small(void **state)
{
    (void)state;
    write_and_check(0, 100, "empty.tar");
    write_and_check(1000, 1, "bytes.tar");
    write_and_check(1 << 20, 4096, "one-buffer.tar");
}

/* Many buffers: the ring wraps several times, pieces larger than a buffer included. */
static void test_ring(void **state)
{
    (void)state;
    write_and_check((11u << 20) + 12345, 300000, "pieces.tar");
    write_and_check((9u << 20) + 1, 3u << 20, "large.tar");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small),
        cmocka_unit_test(test_ring),
    };
    return cmocka_run_group_tests(tests, test_directory_setup, test_directory_teardown);
}
