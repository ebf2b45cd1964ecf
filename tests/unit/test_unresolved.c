/* Unit tests of the names that did not resolve: taken from libcurl's message or the URL, each
   once, worded for hosts and proxies. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/download/unresolved.h"

static void describe_equals(const struct unresolved *unresolved, const char *expected)
{
    char text[600];
    unresolved_describe(unresolved, text, sizeof text);
    assert_string_equal(text, expected);
}

static void test_hosts_from_the_message_each_once(void **state)
{
    (void)state;
    struct unresolved unresolved = {0};
    unresolved_note(&unresolved, CURLE_COULDNT_RESOLVE_HOST, "Could not resolve host: a.invalid",
                    "http://a.invalid/f.gz");
    describe_equals(&unresolved, "cannot resolve host a.invalid");
    unresolved_note(&unresolved, CURLE_COULDNT_RESOLVE_HOST, "Could not resolve host: a.invalid",
                    "https://a.invalid/g/f.gz");
    describe_equals(&unresolved, "cannot resolve host a.invalid");
    /* A name that contains another one already kept is still new. */
    unresolved_note(&unresolved, CURLE_COULDNT_RESOLVE_HOST,
                    "Could not resolve host: data.a.invalid", "http://data.a.invalid/f.gz");
    describe_equals(&unresolved, "cannot resolve hosts a.invalid, data.a.invalid");
    assert_int_equal(unresolved.urls, 3);
}

static void test_the_url_host_when_the_message_says_otherwise(void **state)
{
    (void)state;
    struct unresolved unresolved = {0};
    unresolved_note(&unresolved, CURLE_COULDNT_RESOLVE_HOST, "", "http://b.invalid:8080/x/f.gz");
    unresolved_note(&unresolved, CURLE_COULDNT_RESOLVE_HOST, "something else", "fixture/f.gz");
    describe_equals(&unresolved, "cannot resolve hosts b.invalid, fixture");
}

static void test_proxies(void **state)
{
    (void)state;
    struct unresolved unresolved = {0};
    unresolved_note(&unresolved, CURLE_COULDNT_RESOLVE_PROXY, "Could not resolve proxy: p.invalid",
                    "http://a.example/f.gz");
    describe_equals(&unresolved, "cannot resolve proxy p.invalid");
    unresolved_note(&unresolved, CURLE_COULDNT_RESOLVE_HOST, "Could not resolve host: a.invalid",
                    "https://a.invalid/f.gz");
    describe_equals(&unresolved, "cannot resolve host a.invalid nor proxy p.invalid");
    unresolved_note(&unresolved, CURLE_COULDNT_RESOLVE_PROXY, "", "http://b.example/f.gz");
    describe_equals(&unresolved,
                    "cannot resolve host a.invalid nor proxies p.invalid, (of the environment)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hosts_from_the_message_each_once),
        cmocka_unit_test(test_the_url_host_when_the_message_says_otherwise),
        cmocka_unit_test(test_proxies),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
