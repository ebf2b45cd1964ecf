/* Unit tests of the commands' tables (cmd/commands.def): every option of a command whose files
   fuel-reproduce makes again says what fuel-reproduce does with it, and each usage line, written
   from its table, names every option the table shows there. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cmd/commands.h"
#include "cmd/reproduce_recipe.h"
#include "cmd/usage_line.h"

#include <stdbool.h>
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

/* Whether an entry inside or beside another follows one it can join (a shown entry, or others
   joined to it). */
static bool places_joined(const struct command_line *line)
{
    for (size_t index = 0; index < line->option_count; index++) {
        enum usage_place place = line->options[index].usage;
        bool joins = place == USAGE_INSIDE || place == USAGE_EITHER;
        if (joins && (index == 0 || line->options[index - 1].usage == USAGE_OPTIONS))
            return false;
    }
    return true;
}

/* Whether TEXT holds NAME as a word of its own: "-d" in "[-d DIR]", not in "[--download]". */
static bool word_held(const char *text, const char *name)
{
    size_t length = strlen(name);
    for (const char *found = strstr(text, name); found != NULL; found = strstr(found + 1, name)) {
        char before = found == text ? ' ' : found[-1];
        char after = found[length];
        if (strchr(" [", before) != NULL && strchr(" ]\n", after) != NULL)
            return true;
    }
    return false;
}

static void every_usage_line_names_the_options_its_table_shows(void **state)
{
    (void)state;
    size_t count;
    const struct command *commands = commands_list(&count);
    for (size_t index = 0; index < count; index++) {
        const struct command_line *line = commands[index].line;
        char text[4096];
        usage_line_format(text, sizeof text, commands[index].name, line, NULL);
        assert_true(places_joined(line));
        bool folded = false;
        for (size_t option = 0; option < line->option_count; option++) {
            const struct command_option *entry = &line->options[option];
            folded = folded || entry->usage == USAGE_OPTIONS;
            char name[128];
            if (entry->short_name != 0 && !entry->usage_long_name)
                snprintf(name, sizeof name, "-%c", entry->short_name);
            else
                snprintf(name, sizeof name, "--%s", entry->long_name);
            if (word_held(text, name) != (entry->usage != USAGE_OPTIONS))
                print_error("fuel %s %s: %s\n", commands[index].name, name, text);
            assert_true(word_held(text, name) == (entry->usage != USAGE_OPTIONS));
        }
        assert_true(folded == (strstr(text, "[options]") != NULL));
    }
}

/* A joined entry at the head of a table, or after a folded one, is refused. */
static void an_entry_joined_to_nothing_is_found(void **state)
{
    (void)state;
    const struct command_option options[] = {
        {.long_name = "folded", .kind = OPTION_FLAG, .usage = USAGE_OPTIONS},
        {.long_name = "inside", .kind = OPTION_FLAG, .usage = USAGE_INSIDE},
    };
    const struct command_line line = {.options = options, .option_count = 2};
    assert_false(places_joined(&line));
    const struct command_line head = {.options = options + 1, .option_count = 1};
    assert_false(places_joined(&head));
    const struct command_line alone = {.options = options, .option_count = 1};
    assert_true(places_joined(&alone));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_option_of_a_reproduced_command_has_a_rule),
        cmocka_unit_test(an_option_without_a_rule_is_found),
        cmocka_unit_test(every_usage_line_names_the_options_its_table_shows),
        cmocka_unit_test(an_entry_joined_to_nothing_is_found),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
