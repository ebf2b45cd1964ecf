/* Unit tests of cmd/usage_line.c: the usage line written from planted option tables, each place
   (shown, inside, either, folded into "[options]"), required and repeatable options, positionals
   first or last, a dataset named, a second form, and lines carried on past 132 columns. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cmd/usage_line.h"

#include <string.h>

static const struct command_option planted[] = {
    {.long_name = "to", .kind = OPTION_STRING, .argument = "FORM", .required = true},
    {.short_name = 'd', .long_name = "directory", .kind = OPTION_LIST, .argument = "DIR"},
    {.long_name = "verify", .kind = OPTION_FLAG},
    {.short_name = 'd', .long_name = "inputs", .kind = OPTION_LIST, .argument = "DIR",
     .usage = USAGE_INSIDE},
    {.long_name = "shards", .kind = OPTION_INTEGER, .argument = "N"},
    {.long_name = "shard-size", .kind = OPTION_STRING, .argument = "BYTES",
     .usage = USAGE_EITHER},
    {.short_name = 'P', .long_name = "url-prefix", .kind = OPTION_STRING, .argument = "PREFIX",
     .usage_long_name = true},
    {.long_name = "dtype", .kind = OPTION_STRING, .choices = "uint8 float32"},
    {.long_name = "retries", .kind = OPTION_INTEGER, .argument = "N", .usage = USAGE_OPTIONS},
};

static void each_place_is_written_as_the_table_says(void **state)
{
    (void)state;
    const struct command_line line = {.options = planted, .option_count = 9,
                                      .positional_usage = "FILE|NAME..."};
    char text[1024];
    size_t length = usage_line_format(text, sizeof text, "fuel-x", &line, NULL);
    assert_string_equal(text, "usage: fuel-x [-h] --to FORM [-d DIR]... [--verify [-d DIR]...] "
                              "[--shards N | --shard-size BYTES] [--url-prefix PREFIX]\n"
                              "       [--dtype {uint8,float32}] [options] FILE|NAME...");
    assert_int_equal(length, strlen(text));
}

static void positionals_first_choices_and_verbatim(void **state)
{
    (void)state;
    const struct command_line first = {.options = planted + 2, .option_count = 1,
                                       .positional_usage = "SPEC", .positionals_first = true};
    char text[512];
    usage_line_format(text, sizeof text, "fuel-pack", &first, NULL);
    assert_string_equal(text, "usage: fuel-pack [-h] SPEC [--verify]");
    const struct command_line choices = {.positional_choices = "bash zsh"};
    usage_line_format(text, sizeof text, "fuel-completion", &choices, NULL);
    assert_string_equal(text, "usage: fuel-completion [-h] bash|zsh");
    const struct command_line verbatim = {.positional_usage = "WORDS...", .verbatim = true};
    usage_line_format(text, sizeof text, "fuel-__complete", &verbatim, NULL);
    assert_string_equal(text, "usage: fuel-__complete WORDS...");
}

static void a_dataset_named_stands_for_the_positionals(void **state)
{
    (void)state;
    const struct command_line line = {.options = planted + 2, .option_count = 1,
                                      .positional_usage = "DATASET [FORMAT]",
                                      .dataset = DATASET_CONVERTER, .dataset_options = true};
    char text[512];
    usage_line_format(text, sizeof text, "fuel-convert", &line, NULL);
    assert_string_equal(text, "usage: fuel-convert [-h] DATASET [FORMAT] [--verify] "
                              "[DATASET OPTIONS]");
    struct usage_dataset mnist = {.label = "mnist", .options = planted + 7, .option_count = 1};
    usage_line_format(text, sizeof text, "fuel-convert", &line, &mnist);
    assert_string_equal(text, "usage: fuel-convert mnist [--verify] [--dtype {uint8,float32}]");
    struct usage_dataset extra = {.label = "toy", .extra = true};
    usage_line_format(text, sizeof text, "fuel-convert", &line, &extra);
    assert_string_equal(text, "usage: fuel-convert toy [--verify] [ARGUMENTS]");
}

static void a_second_form_gets_its_own_line(void **state)
{
    (void)state;
    const struct command_option options[] = {
        {.short_name = 'o', .long_name = "output", .kind = OPTION_STRING, .argument = "DIR"},
        {.long_name = "raw", .kind = OPTION_FLAG, .usage_form = USAGE_FIRST_FORM},
        {.long_name = "from", .kind = OPTION_STRING, .argument = "FILE",
         .usage_form = USAGE_SECOND_FORM_HEAD},
        {.long_name = "shuffle", .kind = OPTION_FLAG, .usage_form = USAGE_SECOND_FORM},
    };
    const struct command_line line = {.options = options, .option_count = 4,
                                      .positional_usage = "NAME [FORMAT]",
                                      .dataset = DATASET_RECORD};
    char text[512];
    usage_line_format(text, sizeof text, "fuel-fixture", &line, NULL);
    assert_string_equal(text, "usage: fuel-fixture [-h] NAME [FORMAT] [-o DIR] [--raw]\n"
                              "       fuel-fixture --from FILE [-o DIR] [--shuffle]");
    struct usage_dataset mnist = {.label = "mnist"};
    usage_line_format(text, sizeof text, "fuel-fixture", &line, &mnist);
    assert_string_equal(text, "usage: fuel-fixture mnist [-o DIR] [--raw]");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(each_place_is_written_as_the_table_says),
        cmocka_unit_test(positionals_first_choices_and_verbatim),
        cmocka_unit_test(a_dataset_named_stands_for_the_positionals),
        cmocka_unit_test(a_second_form_gets_its_own_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
