/* Unit tests for common/base/provenance_text.c: a provenance beyond the cap refused before any
   parsing, one at the cap parsed; and fuel-reproduce's record of an input sized by its content. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/provenance_text.h"
#include "reproduce/reproduce_engine.h"

#include <stdlib.h>
#include <string.h>

/* A JSON string of LENGTH bytes in all: "xxx...". */
static char *json_string_text(size_t length)
{
    char *text = malloc(length + 1);
    assert_non_null(text);
    memset(text, 'x', length);
    text[0] = text[length - 1] = '"';
    text[length] = '\0';
    return text;
}

static void longer_than_the_cap_is_refused_unparsed(void **state)
{
    (void)state;
    char *text = json_string_text(PROVENANCE_TEXT_MAX_BYTES + 1);
    json_error_t error;
    assert_null(provenance_text_parse(text, 0, &error));
    assert_string_equal(error.text, "longer than 268435456 bytes");
    assert_null(provenance_text_parse(text, 0, NULL));
    free(text);
    assert_null(provenance_text_parse(NULL, 0, &error));
}

static void within_the_cap_is_parsed(void **state)
{
    (void)state;
    json_t *parsed = provenance_text_parse("{\"tool\": \"fuel\", \"inputs\": []}", 0, NULL);
    assert_true(json_is_object(parsed));
    assert_string_equal(json_string_value(json_object_get(parsed, "tool")), "fuel");
    json_decref(parsed);
    json_error_t error;
    assert_null(provenance_text_parse("{\"a\": 1, \"a\": 2}", JSON_REJECT_DUPLICATES, &error));
    assert_non_null(strstr(error.text, "duplicate"));
}

/* A million inputs (fuel-reproduce's most) once took a 4.5 GB calloc: each record held a
   PATH_MAX path; the path found is now allocated at its length. */
static void an_input_record_holds_no_path_buffer(void **state)
{
    (void)state;
    assert_true(sizeof(struct reproduce_input) <= 104);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(longer_than_the_cap_is_refused_unparsed),
        cmocka_unit_test(within_the_cap_is_parsed),
        cmocka_unit_test(an_input_record_holds_no_path_buffer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
