/* Unit tests of the commands' tables (cmd/commands.def): every option of a command whose files
   fuel-reproduce makes again says what fuel-reproduce does with it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cmd/commands.h"
#include "cmd/reproduce_recipe.h"

#include <stdio.h>
#include <string.h>

/* The first option of LINE without a reproduce rule, NULL when every one has one. */
static const struct command_option *undeclared_option(const struct command_line *line)
{
    for (size_t index = 0; index < line->option_count; index++)
        if (line->options[index].reproduce == REPRODUCE_UNDECLARED)
            return &line->options[index];
    return NULL;
}

static void every_option_of_a_reproduced_command_has_a_rule(void **state)
{
    (void)state;
    size_t count, reproduced = 0, undeclared = 0;
    const struct command *commands = commands_list(&count);
    for (size_t index = 0; index < count; index++) {
        if (!reproduce_recipe_reads(commands[index].line))
            continue;
        reproduced++;
        const struct command_option *option = undeclared_option(commands[index].line);
        if (option != NULL) {
            print_error("fuel %s --%s has no reproduce rule\n", commands[index].name,
                        option->long_name);
            undeclared++;
        }
    }
    assert_int_equal(reproduced, 4);
    assert_true(reproduce_recipe_reads(&convert_command_line));
    assert_true(reproduce_recipe_reads(&pack_command_line));
    assert_false(reproduce_recipe_reads(&export_command_line));
    assert_int_equal(undeclared, 0);
}

/* An option planted without a rule is the one found. */
static void an_option_without_a_rule_is_found(void **state)
{
    (void)state;
    const struct command_option options[] = {
        {.long_name = "kept", .kind = OPTION_FLAG, .reproduce = REPRODUCE_KEPT},
        {.long_name = "forgotten", .kind = OPTION_FLAG},
    };
    const struct command_line line = {.options = options, .option_count = 2};
    const struct command_option *found = undeclared_option(&line);
    assert_non_null(found);
    assert_string_equal(found->long_name, "forgotten");
    const struct command_line declared = {.options = options, .option_count = 1};
    assert_null(undeclared_option(&declared));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_option_of_a_reproduced_command_has_a_rule),
        cmocka_unit_test(an_option_without_a_rule_is_found),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
