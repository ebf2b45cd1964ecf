/* Unit tests for common/hash.c: known MD5 and SHA-256 vectors, streaming, files, missing files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "common/base/hash.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void assert_digest(enum hash_algorithm algorithm, const char *text, const char *expected)
{
    struct hash *hash;
    assert_int_equal(hash_begin(&hash, algorithm), EXIT_OK);
    hash_update(hash, text, strlen(text));
    char hex[HASH_HEX_SIZE];
    hash_finish(hash, hex);
    assert_string_equal(hex, expected);
}

static void test_md5_vectors(void **state)
{
    (void)state;
    assert_digest(HASH_MD5, "", "d41d8cd98f00b204e9800998ecf8427e");
    assert_digest(HASH_MD5, "abc", "900150983cd24fb0d6963f7d28e17f72");
    assert_digest(HASH_MD5, "message digest", "f96b697d7cb7938d525a2f31aaf161d0");
}

static void test_sha256_vectors(void **state)
{
    (void)state;
    assert_digest(HASH_SHA256, "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    assert_digest(HASH_SHA256, "abc",
                  "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    assert_digest(HASH_SHA256, "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

/* Updates in pieces give the digest of the whole. */
static void test_streamed_updates(void **state)
{
    (void)state;
    struct hash *hash;
    assert_int_equal(hash_begin(&hash, HASH_SHA256), EXIT_OK);
    hash_update(hash, "a", 1);
    hash_update(hash, "", 0);
    hash_update(hash, "bc", 2);
    char hex[HASH_HEX_SIZE];
    hash_finish(hash, hex);
    assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

/* One million 'a' (spans the 1 MiB read block): the FIPS 180-2 long-message vector. */
static void test_file(void **state)
{
    (void)state;
    char path[] = "/tmp/fuel-hash-XXXXXX";
    int descriptor = mkstemp(path);
    assert_true(descriptor >= 0);
    char *block = malloc(1000000);
    memset(block, 'a', 1000000);
    assert_int_equal(write(descriptor, block, 1000000), 1000000);
    assert_int_equal(write(descriptor, block, 1000000), 1000000);
    close(descriptor);
    free(block);
    char hex[HASH_HEX_SIZE];
    uint64_t size = 0;
    assert_int_equal(hash_file(path, HASH_MD5, hex, &size), EXIT_OK);
    assert_int_equal(size, 2000000);
    assert_string_equal(hex, "2a915e52d86d42e58e580f4073120a6b");
    assert_int_equal(truncate(path, 1000000), 0);
    assert_int_equal(hash_file(path, HASH_SHA256, hex, &size), EXIT_OK);
    assert_int_equal(size, 1000000);
    assert_string_equal(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    assert_int_equal(hash_file(path, HASH_MD5, hex, &size), EXIT_OK);
    assert_string_equal(hex, "7707d6ae4e027c70eea2a935c2296f21");
    unlink(path);
}

/* Both digests in one read of 2,000,000 'a' (two 1 MiB blocks), the first 512 bytes kept; a
   file shorter than that keeps what it has. */
static void test_file_digests(void **state)
{
    (void)state;
    char path[] = "/tmp/fuel-hash-XXXXXX";
    int descriptor = mkstemp(path);
    assert_true(descriptor >= 0);
    char *block = malloc(1000000);
    memset(block, 'a', 1000000);
    block[0] = 'b';
    assert_int_equal(write(descriptor, block, 1000000), 1000000);
    block[0] = 'a';
    assert_int_equal(write(descriptor, block, 1000000), 1000000);
    close(descriptor);
    free(block);
    struct file_digests digests;
    assert_int_equal(hash_file_digests(path, true, &digests), EXIT_OK);
    assert_int_equal(digests.size, 2000000);
    char md5[HASH_HEX_SIZE], sha256[HASH_HEX_SIZE];
    uint64_t size;
    assert_int_equal(hash_file(path, HASH_MD5, md5, &size), EXIT_OK);
    assert_int_equal(hash_file(path, HASH_SHA256, sha256, &size), EXIT_OK);
    assert_string_equal(digests.md5, md5);
    assert_string_equal(digests.sha256, sha256);
    assert_int_equal(digests.head_length, HASH_HEAD_BYTES);
    assert_int_equal(digests.head[0], 'b');
    assert_int_equal(digests.head[HASH_HEAD_BYTES - 1], 'a');
    assert_int_equal(truncate(path, 3), 0);
    assert_int_equal(hash_file_digests(path, true, &digests), EXIT_OK);
    assert_int_equal(digests.head_length, 3);
    assert_memory_equal(digests.head, "baa", 3);
    assert_string_equal(digests.md5, "8cdcda79a8dc66aa6c711c9a000b0ac0");
    assert_string_equal(digests.sha256,
                        "665edae6d52666d13e3573cc42f6799ca415b87312c3bd0fa37ea44e0de1fe64");
    /* Without md5, the same SHA-256, first and last bytes, and no md5. */
    assert_int_equal(hash_file_digests(path, false, &digests), EXIT_OK);
    assert_string_equal(digests.md5, "");
    assert_string_equal(digests.sha256,
                        "665edae6d52666d13e3573cc42f6799ca415b87312c3bd0fa37ea44e0de1fe64");
    assert_int_equal(digests.tail_length, 3);
    assert_memory_equal(digests.tail, "baa", 3);
    unlink(path);
    assert_int_equal(hash_file_digests(path, true, &digests), EXIT_MISSING_INPUT);
}

static void test_missing_file(void **state)
{
    (void)state;
    char hex[HASH_HEX_SIZE];
    uint64_t size;
    assert_int_equal(hash_file("/nonexistent/fuel/input.gz", HASH_SHA256, hex, &size),
                     EXIT_MISSING_INPUT);
    assert_int_equal(error_code(), EXIT_MISSING_INPUT);
    assert_string_equal(error_message(),
                        "cannot open: /nonexistent/fuel/input.gz: No such file or directory");
}

static void test_read_error(void **state)
{
    (void)state;
    char hex[HASH_HEX_SIZE];
    uint64_t size;
    assert_int_equal(hash_file("/tmp", HASH_SHA256, hex, &size), EXIT_CORRUPT_INPUT);
    assert_string_equal(error_message(), "not a regular file: /tmp: exists but is a directory");
}

/* hash_take gives each message's digest and starts over: "abc" then "" then "abc" again. */
static void test_take_restarts(void **state)
{
    (void)state;
    static const unsigned char abc[32] = {
        0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea, 0x41, 0x41, 0x40, 0xde, 0x5d, 0xae, 0x22,
        0x23, 0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17, 0x7a, 0x9c, 0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00,
        0x15, 0xad};
    static const unsigned char empty[32] = {
        0xe3, 0xb0, 0xc4, 0x42, 0x98, 0xfc, 0x1c, 0x14, 0x9a, 0xfb, 0xf4, 0xc8, 0x99, 0x6f, 0xb9,
        0x24, 0x27, 0xae, 0x41, 0xe4, 0x64, 0x9b, 0x93, 0x4c, 0xa4, 0x95, 0x99, 0x1b, 0x78, 0x52,
        0xb8, 0x55};
    struct hash *hash;
    assert_int_equal(hash_begin(&hash, HASH_SHA256), EXIT_OK);
    unsigned char digest[HASH_MAX_BYTES];
    hash_update(hash, "ab", 2);
    hash_update(hash, "c", 1);
    hash_take(hash, digest);
    assert_memory_equal(digest, abc, 32);
    hash_take(hash, digest);
    assert_memory_equal(digest, empty, 32);
    hash_update(hash, "abc", 3);
    hash_take(hash, digest);
    assert_memory_equal(digest, abc, 32);
    hash_discard(hash);
}

static void test_algorithm_for_length(void **state)
{
    (void)state;
    assert_int_equal(hash_algorithm_for_length(32), HASH_MD5);
    assert_int_equal(hash_algorithm_for_length(64), HASH_SHA256);
    assert_int_equal(hash_algorithm_for_length(40), -1);
    assert_int_equal(hash_algorithm_for_length(0), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_md5_vectors),
        cmocka_unit_test(test_sha256_vectors),
        cmocka_unit_test(test_streamed_updates),
        cmocka_unit_test(test_file),
        cmocka_unit_test(test_file_digests),
        cmocka_unit_test(test_missing_file),
        cmocka_unit_test(test_read_error),
        cmocka_unit_test(test_take_restarts),
        cmocka_unit_test(test_algorithm_for_length),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
