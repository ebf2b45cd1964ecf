/* Unit tests of URL list building: mirrors first, prefixes replacing built-in URLs, no duplicates,
   a directory given without a scheme taken as a file:// prefix. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/download/url_list.h"
#include "support.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const builtin[] = {"https://a.example/d/f.gz", "http://b.example/x/f.gz"};

static void test_builtin_urls_in_order(void **state)
{
    (void)state;
    struct url_list list;
    struct url_sources sources = {.builtin = builtin, .builtin_count = 2};
    assert_int_equal(url_list_build(&list, &sources, "f.gz"), 0);
    assert_int_equal(list.count, 2);
    assert_string_equal(list.items[0], builtin[0]);
    assert_string_equal(list.items[1], builtin[1]);
    url_list_free(&list);
}

static void test_prefix_replaces_every_builtin_url(void **state)
{
    (void)state;
    struct url_list list;
    struct url_sources sources = {.builtin = builtin, .builtin_count = 2, .prefix = "file:///m"};
    assert_int_equal(url_list_build(&list, &sources, "f.gz"), 0);
    assert_int_equal(list.count, 1);
    assert_string_equal(list.items[0], "file:///m/f.gz");
    url_list_free(&list);
    sources.prefix = "http://m.example/data/";
    assert_int_equal(url_list_build(&list, &sources, "f.gz"), 0);
    assert_string_equal(list.items[0], "http://m.example/data/f.gz");
    url_list_free(&list);
}

static void test_mirrors_first_without_duplicates(void **state)
{
    (void)state;
    const char *const mirrors[] = {"http://near/", "http://far", "http://near"};
    struct url_list list;
    struct url_sources sources = {.builtin = builtin, .builtin_count = 2, .mirrors = mirrors,
                                  .mirror_count = 3};
    assert_int_equal(url_list_build(&list, &sources, "f.gz"), 0);
    assert_int_equal(list.count, 4);
    assert_string_equal(list.items[0], "http://near/f.gz");
    assert_string_equal(list.items[1], "http://far/f.gz");
    assert_string_equal(list.items[2], builtin[0]);
    assert_string_equal(list.items[3], builtin[1]);
    url_list_free(&list);
    assert_null(list.items);
    assert_int_equal(list.count, 0);
}

static void assert_resolved(const char *prefix, const char *expected)
{
    char *resolved = url_prefix_resolve(prefix);
    assert_non_null(resolved);
    assert_string_equal(resolved, expected);
    free(resolved);
}

/* test_directory holds "a b%c#d/": given relative or absolute, with or without a trailing '/',
   it becomes one file:// URL, percent-encoded. */
static void test_directory_without_scheme_is_a_file_url(void **state)
{
    (void)state;
    char directory[PATH_MAX], real[PATH_MAX], expected[PATH_MAX * 2], previous[PATH_MAX];
    test_path(directory, sizeof directory, test_directory, "a b%c#d");
    assert_int_equal(mkdir(directory, 0700), 0);
    assert_non_null(realpath(test_directory, real));
    snprintf(expected, sizeof expected, "file://%s/a%%20b%%25c%%23d/", real);
    assert_resolved(directory, expected);
    strcat(directory, "/");
    assert_resolved(directory, expected);
    assert_non_null(getcwd(previous, sizeof previous));
    assert_int_equal(chdir(test_directory), 0);
    assert_resolved("a b%c#d", expected);
    assert_resolved("./a b%c#d/", expected);
    struct url_list list;
    struct url_sources sources = {.builtin = builtin, .builtin_count = 2, .prefix = "a b%c#d"};
    assert_int_equal(url_list_build(&list, &sources, "f.gz"), 0);
    assert_int_equal(list.count, 1);
    strcat(expected, "f.gz");
    assert_string_equal(list.items[0], expected);
    url_list_free(&list);
    assert_int_equal(chdir(previous), 0);
}

static void test_other_prefixes_are_kept(void **state)
{
    (void)state;
    char previous[PATH_MAX];
    assert_non_null(getcwd(previous, sizeof previous));
    assert_int_equal(chdir(test_directory), 0);
    test_file_write("plain", "not a directory");
    assert_int_equal(mkdir("http:", 0700), 0);
    assert_resolved("plain", "plain");
    assert_resolved("absent/", "absent/");
    assert_resolved("http://m.example/data", "http://m.example/data");
    assert_resolved("file:///m", "file:///m");
    assert_resolved("http://", "http://"); /* a scheme, though "http:" is a directory here */
    assert_int_equal(chdir(previous), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builtin_urls_in_order),
        cmocka_unit_test(test_prefix_replaces_every_builtin_url),
        cmocka_unit_test(test_mirrors_first_without_duplicates),
        cmocka_unit_test(test_directory_without_scheme_is_a_file_url),
        cmocka_unit_test(test_other_prefixes_are_kept),
    };
    return cmocka_run_group_tests(tests, test_directory_setup, test_directory_teardown);
}
