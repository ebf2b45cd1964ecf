/* Unit tests of the retry policy: classification, backoff growth, cap and jitter, Retry-After. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/download/retry.h"

static void test_classify_http_status(void **state)
{
    (void)state;
    assert_int_equal(retry_classify(CURLE_OK, 503), RETRY_TRANSIENT);
    assert_int_equal(retry_classify(CURLE_OK, 500), RETRY_TRANSIENT);
    assert_int_equal(retry_classify(CURLE_OK, 429), RETRY_TRANSIENT);
    assert_int_equal(retry_classify(CURLE_OK, 408), RETRY_TRANSIENT);
    assert_int_equal(retry_classify(CURLE_OK, 404), RETRY_PERMANENT);
    assert_int_equal(retry_classify(CURLE_OK, 501), RETRY_PERMANENT);
    assert_int_equal(retry_classify(CURLE_OK, 403), RETRY_PERMANENT);
    assert_int_equal(retry_classify(CURLE_WRITE_ERROR, 410), RETRY_PERMANENT);
}

static void test_classify_transport_errors(void **state)
{
    (void)state;
    assert_int_equal(retry_classify(CURLE_COULDNT_CONNECT, 0), RETRY_TRANSIENT);
    assert_int_equal(retry_classify(CURLE_OPERATION_TIMEDOUT, 0), RETRY_TRANSIENT);
    assert_int_equal(retry_classify(CURLE_PARTIAL_FILE, 0), RETRY_TRANSIENT);
    assert_int_equal(retry_classify(CURLE_RECV_ERROR, 0), RETRY_TRANSIENT);
    assert_int_equal(retry_classify(CURLE_GOT_NOTHING, 0), RETRY_TRANSIENT);
    assert_int_equal(retry_classify(CURLE_TOO_MANY_REDIRECTS, 0), RETRY_PERMANENT);
    assert_int_equal(retry_classify(CURLE_UNSUPPORTED_PROTOCOL, 0), RETRY_PERMANENT);
    assert_int_equal(retry_classify(CURLE_PEER_FAILED_VERIFICATION, 0), RETRY_PERMANENT);
    assert_int_equal(retry_classify(CURLE_FILE_COULDNT_READ_FILE, 0), RETRY_PERMANENT);
    assert_int_equal(retry_classify(CURLE_COULDNT_RESOLVE_HOST, 0), RETRY_UNRESOLVED);
    assert_int_equal(retry_classify(CURLE_COULDNT_RESOLVE_PROXY, 0), RETRY_UNRESOLVED);
}

static void test_backoff_doubles_with_jitter_and_cap(void **state)
{
    (void)state;
    assert_float_equal(retry_backoff(1, 1.0, 0.999999), 1.0, 1e-5);
    assert_float_equal(retry_backoff(1, 1.0, 0.0), 0.5, 1e-9);
    assert_float_equal(retry_backoff(2, 1.0, 0.999999), 2.0, 1e-5);
    assert_float_equal(retry_backoff(4, 0.5, 0.0), 2.0, 1e-9);
    assert_float_equal(retry_backoff(12, 1.0, 0.999999), 60.0, 1e-3);
    assert_float_equal(retry_backoff(1000, 1.0, 0.0), 30.0, 1e-9);
    for (unsigned attempt = 1; attempt < 8; attempt++) {
        double pause = retry_backoff(attempt, 0.25, 0.5);
        assert_true(pause >= 0.125 * (1u << (attempt - 1)) && pause <= 0.25 * (1u << (attempt - 1)));
    }
}

static void test_retry_after_values(void **state)
{
    (void)state;
    assert_float_equal(retry_after_seconds("120", 0), 120.0, 1e-9);
    assert_float_equal(retry_after_seconds(" 1 ", 0), 1.0, 1e-9);
    time_t now = curl_getdate("Wed, 21 Oct 2015 07:28:00 GMT", NULL);
    assert_float_equal(retry_after_seconds("Wed, 21 Oct 2015 07:28:30 GMT", now), 30.0, 1e-9);
    assert_float_equal(retry_after_seconds("Wed, 21 Oct 2015 07:27:00 GMT", now), 0.0, 1e-9);
    assert_float_equal(retry_after_seconds("soon", now), -1.0, 1e-9);
    assert_float_equal(retry_after_seconds("12abc", now), -1.0, 1e-9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_classify_http_status),
        cmocka_unit_test(test_classify_transport_errors),
        cmocka_unit_test(test_backoff_doubles_with_jitter_and_cap),
        cmocka_unit_test(test_retry_after_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
