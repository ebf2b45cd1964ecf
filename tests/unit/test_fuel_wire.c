/* Unit tests of Fuel's message encoding: the header bytes pyzmq's send_json would write. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "serving/fuel_wire.h"

#include <stdlib.h>

static void test_header_as_json_dumps_writes_it(void **state)
{
    (void)state;
    const uint64_t features[] = {128, 3, 32, 32}, targets[] = {128, 1}, flat[] = {7};
    const struct wire_array arrays[] = {{"|u1", 4, features}, {"<f4", 2, targets},
                                        {"<i8", 1, flat}};
    char *header = wire_header(arrays, 3);
    assert_string_equal(header,
                        "[{\"shape\": [128, 3, 32, 32], \"fortran_order\": false, \"descr\": \"|u1\"}, "
                        "{\"shape\": [128, 1], \"fortran_order\": false, \"descr\": \"<f4\"}, "
                        "{\"shape\": [7], \"fortran_order\": false, \"descr\": \"<i8\"}]");
    free(header);
    header = wire_header(arrays, 0);
    assert_string_equal(header, "[]");
    free(header);
}

static void test_stop_message(void **state)
{
    (void)state;
    assert_string_equal(wire_stop_message, "{\"stop\": true}");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_header_as_json_dumps_writes_it),
        cmocka_unit_test(test_stop_message),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
