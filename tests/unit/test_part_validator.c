/* Unit tests of the .part validator kept in an extended attribute: round trip and forgetting. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/download/part_validator.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

static char path[] = "/tmp/fuel-test-validator-XXXXXX";

static void test_round_trip_and_forget(void **state)
{
    (void)state;
    int descriptor = mkstemp(path);
    assert_true(descriptor >= 0);
    char validator[PART_VALIDATOR_SIZE];
    assert_int_equal(part_validator_read(path, validator), -1);
    part_validator_write(descriptor, "\"493e0-6b028d59\"");
    assert_int_equal(part_validator_read(path, validator), 0);
    assert_string_equal(validator, "\"493e0-6b028d59\"");
    part_validator_write(descriptor, "Sun, 22 Nov 2026 06:36:00 GMT");
    assert_int_equal(part_validator_read(path, validator), 0);
    assert_string_equal(validator, "Sun, 22 Nov 2026 06:36:00 GMT");
    part_validator_write(descriptor, "");
    assert_int_equal(part_validator_read(path, validator), -1);
    close(descriptor);
    unlink(path);
    assert_int_equal(part_validator_read(path, validator), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_and_forget),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
