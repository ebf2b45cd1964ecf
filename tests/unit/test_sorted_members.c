/* Unit tests of common/formats/archive/sorted_members.c and the nested tars of archive_stream.c: a tar
   nested in a member read in sorted name order, listing by headers, and every refusal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "common/formats/archive/archive_read.h"
#include "common/formats/archive/sorted_members.h"
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct sorted_members_limits limits = {.maximum_members = 16,
                                                    .maximum_member_bytes = 1024};

/* Makes DIRECTORY/NAME with Python's tarfile from SPEC, a Python expression of a list of
   (name, bytes) members, where tar(...) nests a tar in a member. */
static void make_tar(const char *name, const char *spec, char *path, size_t size)
{
    test_path(path, size, test_directory, name);
    char command[4096];
    snprintf(command, sizeof command,
             "/usr/bin/python3 -c 'import io, sys, tarfile\n"
             "def tar(members):\n"
             "    data = io.BytesIO()\n"
             "    with tarfile.open(fileobj=data, mode=\"w\") as archive:\n"
             "        for name, content in members:\n"
             "            info = tarfile.TarInfo(name)\n"
             "            info.size = len(content)\n"
             "            archive.addfile(info, io.BytesIO(content))\n"
             "    return data.getvalue()\n"
             "open(sys.argv[1], \"wb\").write(tar(%s))' %s",
             spec, path);
    assert_int_equal(system(command), 0);
}

/* Opens PATH and its first member as a nested tar. */
static void open_nested(const char *path, struct archive_stream **outer,
                        struct archive_stream **inner)
{
    assert_int_equal(archive_stream_open(outer, path, ARCHIVE_STREAM_TAR, 1), EXIT_OK);
    const char *name;
    uint64_t size;
    assert_int_equal(archive_stream_next(*outer, &name, &size), EXIT_OK);
    assert_non_null(name);
    assert_int_equal(archive_stream_open_member(inner, *outer), EXIT_OK);
}

static void test_nested_members_sorted(void **state)
{
    (void)state;
    char path[512];
    make_tar("outer.tar",
             "[(\"b.tar\", tar([(\"n_3.JPEG\", b\"three\"), (\"n_10.JPEG\", b\"ten!\"), "
             "(\"n_1.JPEG\", b\"\")])), (\"c.tar\", tar([(\"z\", b\"zz\")]))]",
             path, sizeof path);
    struct archive_stream *outer, *inner;
    open_nested(path, &outer, &inner);
    struct sorted_members *sorted;
    assert_int_equal(sorted_members_create(&sorted, test_directory, &limits), EXIT_OK);
    assert_int_equal(sorted_members_collect(sorted, inner, "outer.tar: b.tar"), EXIT_OK);
    archive_stream_close(inner);
    assert_int_equal(sorted_members_count(sorted), 3);
    static const char *const names[3] = {"n_1.JPEG", "n_10.JPEG", "n_3.JPEG"};
    static const char *const contents[3] = {"", "ten!", "three"};
    for (size_t rank = 0; rank < 3; rank++) {
        assert_string_equal(sorted_members_name(sorted, rank), names[rank]);
        assert_int_equal(sorted_members_size(sorted, rank), strlen(contents[rank]));
        char bytes[16] = "";
        assert_int_equal(sorted_members_read(sorted, rank, bytes), EXIT_OK);
        assert_memory_equal(bytes, contents[rank], strlen(contents[rank]));
        size_t found;
        assert_true(sorted_members_rank(sorted, names[rank], &found));
        assert_int_equal(found, rank);
    }
    size_t found;
    assert_false(sorted_members_rank(sorted, "n_2.JPEG", &found));
    /* The outer archive goes on past the nested one. */
    const char *name;
    uint64_t size;
    assert_int_equal(archive_stream_next(outer, &name, &size), EXIT_OK);
    assert_string_equal(name, "c.tar");
    assert_int_equal(archive_stream_open_member(&inner, outer), EXIT_OK);
    assert_int_equal(sorted_members_collect(sorted, inner, "outer.tar: c.tar"), EXIT_OK);
    assert_int_equal(sorted_members_count(sorted), 1);
    assert_string_equal(sorted_members_name(sorted, 0), "z");
    archive_stream_close(inner);
    assert_int_equal(archive_stream_next(outer, &name, &size), EXIT_OK);
    assert_null(name);
    sorted_members_free(sorted);
    archive_stream_close(outer);
}

static void expect_collect_error(const char *spec, const char *fragment)
{
    char path[512];
    make_tar("bad.tar", spec, path, sizeof path);
    struct archive_stream *outer, *inner;
    open_nested(path, &outer, &inner);
    struct sorted_members *sorted;
    assert_int_equal(sorted_members_create(&sorted, test_directory, &limits), EXIT_OK);
    int result = sorted_members_collect(sorted, inner, "bad.tar: inner.tar");
    archive_stream_close(inner);
    sorted_members_free(sorted);
    archive_stream_close(outer);
    assert_int_equal(result, EXIT_CORRUPT_INPUT);
    if (strstr(error_message(), fragment) == NULL)
        fail_msg("message \"%s\" lacks \"%s\"", error_message(), fragment);
}

static void test_refusals(void **state)
{
    (void)state;
    expect_collect_error("[(\"inner.tar\", tar([(\"a\", b\"1\"), (\"a\", b\"2\")]))]",
                         "cannot read archive: bad.tar: inner.tar: member a comes twice");
    expect_collect_error("[(\"inner.tar\", tar([(\"a\", bytes(1025))]))]",
                         "refusing archive member: bad.tar: inner.tar: a: more than 1024 bytes");
    expect_collect_error("[(\"inner.tar\", tar([(str(k), b\"\") for k in range(17)]))]",
                         "cannot read archive: bad.tar: inner.tar: more than 16 members");
    /* A nested tar cut short: the message names the outer archive and the member. */
    expect_collect_error("[(\"inner.tar\", tar([(\"a\", bytes(900))])[:700])]",
                         "bad.tar: inner.tar: ");
    expect_collect_error("[(\"inner.tar\", tar([(\"../up\", b\"x\")]))]",
                         "refusing archive member: ");
}

static void test_listing_by_headers(void **state)
{
    (void)state;
    char path[512];
    make_tar("flat.tar", "[(\"v_3\", b\"c\"), (\"v_1\", b\"a\" * 5000), (\"v_2\", b\"\")]", path,
             sizeof path);
    struct sorted_members *sorted;
    assert_int_equal(sorted_members_create(&sorted, test_directory, &limits), EXIT_OK);
    assert_int_equal(sorted_members_list(sorted, path), EXIT_OK);
    assert_int_equal(sorted_members_count(sorted), 3);
    size_t rank;
    assert_true(sorted_members_rank(sorted, "v_3", &rank));
    assert_int_equal(rank, 2);
    assert_true(sorted_members_rank(sorted, "v_1", &rank));
    assert_int_equal(rank, 0);
    char missing[600];
    test_path(missing, sizeof missing, test_directory, "missing.tar");
    assert_int_equal(sorted_members_list(sorted, missing), EXIT_MISSING_INPUT);
    sorted_members_free(sorted);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nested_members_sorted),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_listing_by_headers),
    };
    return cmocka_run_group_tests(tests, test_directory_setup, test_directory_teardown);
}
