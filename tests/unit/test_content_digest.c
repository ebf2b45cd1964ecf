/* Unit tests for info/content_digest.c and content_blocks.c: the same content in other
   layouts gives the same digests, any change changes them, the digests equal an independent
   Python implementation of the documented encoding, and blocks cover a source in C order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "common/h5py/content_blocks.h"
#include "info/content_digest.h"
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const variants[] = {"plain", "chunked", "value", "target", "box",
                                       "comment", "label"};
enum { VARIANT_COUNT = sizeof variants / sizeof variants[0] };

static int files_make(void **state)
{
    return test_content_files_make(state, variants, VARIANT_COUNT);
}

static void digest_of(const char *path, struct content_digest *digest)
{
    struct h5py_file *file;
    assert_int_equal(h5py_reader_open(&file, path), EXIT_OK);
    assert_int_equal(content_digest_compute(file, digest), EXIT_OK);
    h5py_reader_close(file);
}

static void variant_digest(const char *variant, struct content_digest *digest)
{
    char path[512];
    test_variant_path(path, sizeof path, variant);
    digest_of(path, digest);
}

static const char *source_sha256(const struct content_digest *digest, const char *name)
{
    for (size_t index = 0; index < digest->source_count; index++)
        if (strcmp(digest->sources[index].name, name) == 0)
            return digest->sources[index].sha256;
    fail_msg("no source %s", name);
    return NULL;
}

/* Python's digests of PATH (tests/helpers/content_digest.py) equal DIGEST's, line by line. */
static void assert_reference(const char *path, const struct content_digest *digest)
{
    char command[1024], line[256];
    snprintf(command, sizeof command, "/usr/bin/python3 tests/helpers/content_digest.py %s", path);
    FILE *output = popen(command, "r");
    assert_non_null(output);
    size_t sources = 0;
    bool whole = false;
    while (fgets(line, sizeof line, output) != NULL) {
        char name[128], sha256[HASH_HEX_SIZE];
        assert_int_equal(sscanf(line, "%127s %64s", name, sha256), 2);
        if (strcmp(name, "*") == 0) {
            assert_string_equal(sha256, digest->sha256);
            whole = true;
        } else {
            if (strcmp(sha256, source_sha256(digest, name)) != 0)
                fail_msg("%s: source %s: %s in Python, %s here", path, name, sha256,
                         source_sha256(digest, name));
            sources++;
        }
    }
    assert_int_equal(pclose(output), 0);
    assert_true(whole);
    assert_int_equal(sources, digest->source_count);
}

static void same_content_in_other_layouts(void **state)
{
    (void)state;
    struct content_digest plain, chunked;
    variant_digest("plain", &plain);
    variant_digest("chunked", &chunked);
    assert_int_equal(plain.source_count, 4);
    const char *const names[] = {"boxes", "features", "flags", "targets"};
    for (size_t index = 0; index < 4; index++) {
        assert_string_equal(plain.sources[index].name, names[index]);
        assert_true(plain.sources[index].present);
        assert_int_equal(strlen(plain.sources[index].sha256), 64);
        assert_string_equal(plain.sources[index].sha256, chunked.sources[index].sha256);
    }
    assert_string_equal(plain.sha256, chunked.sha256);
    content_digest_free(&plain);
    content_digest_free(&chunked);
}

static void digests_equal_the_reference(void **state)
{
    (void)state;
    for (size_t index = 0; index < VARIANT_COUNT; index++) {
        char path[512];
        test_variant_path(path, sizeof path, variants[index]);
        struct content_digest digest;
        digest_of(path, &digest);
        assert_reference(path, &digest);
        content_digest_free(&digest);
    }
}

/* VARIANT differs from plain in the whole digest and in source CHANGED only (NULL: none). */
static void assert_changes(const char *variant, const char *changed)
{
    struct content_digest plain, other;
    variant_digest("plain", &plain);
    variant_digest(variant, &other);
    assert_string_not_equal(plain.sha256, other.sha256);
    assert_int_equal(plain.source_count, other.source_count);
    for (size_t index = 0; index < plain.source_count; index++) {
        bool expected = changed != NULL && strcmp(plain.sources[index].name, changed) == 0;
        assert_int_equal(strcmp(plain.sources[index].sha256, other.sources[index].sha256) != 0,
                         expected);
    }
    content_digest_free(&plain);
    content_digest_free(&other);
}

static void one_change_changes_the_digests(void **state)
{
    (void)state;
    assert_changes("value", "features");
    assert_changes("target", "targets");
    assert_changes("box", "boxes");
    assert_changes("comment", NULL);
    assert_changes("label", NULL);
}

static void fuel_written_fixture_equals_the_reference(void **state)
{
    (void)state;
    const char *names[] = {"mnist.hdf5", "iris.hdf5", "svhn_format_1.hdf5"};
    for (size_t index = 0; index < 3; index++) {
        struct h5py_file *file = test_open_expected(names[index]);
        struct content_digest digest;
        assert_int_equal(content_digest_compute(file, &digest), EXIT_OK);
        assert_reference(file->path, &digest);
        content_digest_free(&digest);
        h5py_reader_close(file);
    }
}

/* Walks SHAPE in blocks of at most BUDGET one-byte elements; they must cover it in C order. */
static void assert_walk(int rank, const uint64_t *shape, size_t budget, size_t expected_blocks)
{
    uint64_t total = 1, strides[H5S_MAX_RANK];
    for (int axis = rank - 1; axis >= 0; axis--) {
        strides[axis] = total;
        total *= shape[axis];
    }
    struct content_walk walk;
    content_walk_begin(&walk, rank, shape, 0, 1, budget);
    hsize_t start[H5S_MAX_RANK], count[H5S_MAX_RANK];
    uint64_t next = 0;
    size_t blocks = 0;
    while (content_walk_next(&walk, start, count)) {
        uint64_t first = 0, size = 1;
        for (int axis = 0; axis < rank; axis++) {
            first += start[axis] * strides[axis];
            size *= count[axis];
        }
        assert_int_equal(first, next);
        assert_true(size <= budget);
        next += size;
        blocks++;
    }
    assert_int_equal(next, total);
    assert_int_equal(blocks, expected_blocks);
}

static void blocks_cover_sources_in_order(void **state)
{
    (void)state;
    const uint64_t small[] = {10, 2, 3}, wide[] = {3, 5, 7}, empty[] = {4, 0, 2};
    assert_walk(3, small, 1 << 20, 1);
    assert_walk(3, small, 12, 5);  /* two examples a block */
    assert_walk(3, wide, 35, 3);   /* one example a block */
    assert_walk(3, wide, 10, 3 * 5); /* one row of 7 a block */
    assert_walk(3, wide, 5, 3 * 5 * 2); /* runs of 5 then 2 along the last axis */
    assert_walk(3, empty, 8, 0);
}

static void unsupported_type_is_a_usage_error(void **state)
{
    (void)state;
    char path[512], command[1200];
    test_path(path, sizeof path, test_directory, "strings.hdf5");
    snprintf(command, sizeof command,
             "/usr/bin/python3 -c \"import h5py, numpy, sys\n"
             "f = h5py.File(sys.argv[1], 'w')\n"
             "f['names'] = numpy.array(['a', 'bc'], dtype=h5py.string_dtype())\n"
             "rows = numpy.empty(1, dtype=[('split', 'S3'), ('source', 'S5'), ('start', 'i8'),"
             " ('stop', 'i8'), ('indices', h5py.ref_dtype), ('available', bool),"
             " ('comment', 'S1')])\n"
             "rows[0] = (b'all', b'names', 0, 2, None, True, b'.')\n"
             "f.attrs['split'] = rows\" %s", path);
    assert_int_equal(system(command), 0);
    struct h5py_file *file;
    assert_int_equal(h5py_reader_open(&file, path), EXIT_OK);
    struct content_digest digest;
    assert_int_equal(content_digest_compute(file, &digest), EXIT_USAGE);
    assert_string_equal(error_message(), "cannot read source names: its element type has no "
                                         "canonical form (only numbers, enums and fixed-length "
                                         "strings have)");
    assert_null(digest.sources);
    h5py_reader_close(file);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_content_in_other_layouts),
        cmocka_unit_test(digests_equal_the_reference),
        cmocka_unit_test(one_change_changes_the_digests),
        cmocka_unit_test(fuel_written_fixture_equals_the_reference),
        cmocka_unit_test(blocks_cover_sources_in_order),
        cmocka_unit_test(unsupported_type_is_a_usage_error),
    };
    return cmocka_run_group_tests(tests, files_make, test_directory_teardown);
}
