/* Unit tests for packing/yaml_bounds.c: a YAML text's nesting and node count bounded with the
   line of the first excess; texts within the bounds, and texts that are not YAML, passed on. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "packing/yaml_bounds.h"

#include <string.h>

static const struct yaml_bounds bounds = {.max_depth = 3, .max_nodes = 8};

/* Whether TEXT passes BOUNDS; *LINE and WHY as yaml_bounds_check sets them. */
static bool passes(const char *text, size_t *line, char why[64])
{
    why[0] = '\0';
    *line = 0;
    return yaml_bounds_check(text, strlen(text), &bounds, line, why, 64);
}

static void texts_within_the_bounds_pass(void **state)
{
    (void)state;
    size_t line;
    char why[64];
    /* A mapping of a mapping of a sequence: 3 deep; 8 nodes (the mappings, the sequence, the
       scalars a, b, 1, 2, 3). */
    assert_true(passes("a:\n  b: [1, 2, 3]\n", &line, why));
    assert_true(passes("", &line, why));
    /* Not YAML: the loader says what is wrong, as it would have. */
    assert_true(passes("a: [1, 2\n", &line, why));
    assert_string_equal(why, "");
}

static void the_first_excess_is_named_with_its_line(void **state)
{
    (void)state;
    size_t line;
    char why[64];
    assert_false(passes("a:\n  b:\n    - [1]\n", &line, why));
    assert_string_equal(why, "nested more than 3 deep");
    assert_int_equal(line, 3);
    assert_false(passes("x: 1\nl: [1, 2, 3,\n  4, 5, 6]\n", &line, why));
    assert_string_equal(why, "more than 8 nodes");
    assert_int_equal(line, 3);
    /* Aliases count as nodes too. */
    assert_false(passes("a: &x 1\nb: [*x, *x, *x, *x, *x]\n", &line, why));
    assert_string_equal(why, "more than 8 nodes");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(texts_within_the_bounds_pass),
        cmocka_unit_test(the_first_excess_is_named_with_its_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
