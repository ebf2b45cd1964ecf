/* Unit tests of URL list building: mirrors first, prefixes replacing built-in URLs, no duplicates. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/download/url_list.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builtin_urls_in_order),
        cmocka_unit_test(test_prefix_replaces_every_builtin_url),
        cmocka_unit_test(test_mirrors_first_without_duplicates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
