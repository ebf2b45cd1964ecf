/* The one command runner: NAME [FORMAT] resolved first when the command takes a dataset, the
   arguments parsed against the command's and the dataset's tables, -h, what is required, the
   body, its error printed in the one format, and the cleanup. */
#include "runner.h"

#include "common/base/error.h"
#include "common/base/suggest.h"
#include "dataset_arguments.h"
#include "usage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct runner {
    struct command_run run;
    struct dataset_choice dataset;
    struct parsed_arguments parsed;
    void *values, *dataset_values;
};

void command_tables(const struct command_line *line, const struct dataset *record, void *values,
                    void *dataset_values, struct option_tables *tables)
{
    *tables = (struct option_tables){.count = 1};
    tables->tables[0] = (struct option_table){line->options, line->option_count, values};
    if (line->dataset_options && record != NULL && dataset_converts(record) &&
        record->converter->option_count > 0)
        tables->tables[tables->count++] = (struct option_table){
            record->converter->options, record->converter->option_count, dataset_values};
}

static void *values_create(size_t size, const void *defaults)
{
    void *values = calloc(1, size > 0 ? size : 1);
    if (values != NULL && defaults != NULL)
        memcpy(values, defaults, size);
    return values;
}

/* The first two positionals, read before the dataset's options are known, and whether -h is
   among the arguments. */
static size_t positionals_scan(const struct command_line *line, int argc, char *const *argv,
                               const char *positionals[2], bool *help)
{
    struct option_tables tables;
    struct tokenizer tokenizer;
    struct token token;
    size_t count = 0;
    command_tables(line, NULL, NULL, NULL, &tables);
    tokenizer_start(&tokenizer, &tables, line->dataset_options, argc, argv);
    *help = false;
    while (tokenizer_next(&tokenizer, &token)) {
        if (token.kind == TOKEN_POSITIONAL && count < 2)
            positionals[count++] = token.value;
        *help = *help || token.kind == TOKEN_HELP;
    }
    return count;
}

/* The dataset NAME [FORMAT] names, and the struct its converter's options are parsed into. */
static int dataset_prepare(struct runner *runner, int argc, char *const *argv)
{
    const struct command_line *line = runner->run.command->line;
    const char *program = runner->run.program, *positionals[2];
    if (line->dataset == DATASET_NONE)
        return EXIT_OK;
    runner->run.dataset = &runner->dataset;
    bool help;
    size_t count = positionals_scan(line, argc, argv, positionals, &help);
    error_clear();
    int result = dataset_choice_load(line->dataset_options, &runner->dataset);
    if (result != EXIT_OK)
        error_print(program);
    if (result == EXIT_OK)
        result = dataset_choice_resolve(program, line->dataset, positionals, count, help,
                                        &runner->dataset);
    const struct converter *converter = dataset_choice_converter(&runner->dataset);
    if (result != EXIT_OK || !line->dataset_options || converter == NULL)
        return result;
    runner->dataset_values = values_create(converter->options_size, converter->option_defaults);
    runner->run.dataset_options = runner->dataset_values;
    return runner->dataset_values != NULL ? EXIT_OK : EXIT_OTHER;
}

static int arguments_parse(struct runner *runner, int argc, char *const *argv)
{
    const struct command_line *line = runner->run.command->line;
    struct option_tables tables;
    command_tables(line, runner->dataset.record, runner->values, runner->dataset_values, &tables);
    struct parse_rules rules = {
        .program = runner->run.program,
        .maximum_positionals =
            line->dataset != DATASET_NONE ? (size_t)-1 : line->maximum_positionals,
        .pass_unknown = line->dataset_options && runner->dataset.extra != NULL,
        .verbatim = line->verbatim,
    };
    return options_parse(&tables, &rules, argc, argv, &runner->parsed);
}

/* "missing -o DIR", "missing --to FORM; expected one of hdf5-layer, ...". */
static int option_missing(const char *program, const struct command_option *option)
{
    char name[96], values[512], ending[560] = "";
    if (option->short_name != 0)
        snprintf(name, sizeof name, "-%c", option->short_name);
    else
        snprintf(name, sizeof name, "--%s", option->long_name);
    if (option->choices != NULL) {
        words_join(values, sizeof values, option->choices);
        snprintf(ending, sizeof ending, "expected one of %s", values);
    }
    return usage_error_ending(program, ending, "missing %s %s", name,
                              option->argument != NULL ? option->argument : "VALUE");
}

/* The dataset, positionals and options the command cannot do without. */
static int arguments_check(const struct runner *runner)
{
    const struct command_line *line = runner->run.command->line;
    const char *program = runner->run.program;
    const struct parsed_arguments *parsed = &runner->parsed;
    if (line->dataset != DATASET_NONE && line->dataset_required && runner->dataset.name == NULL)
        return usage_error(program, "missing dataset name");
    if (line->dataset != DATASET_NONE && runner->dataset.extra == NULL &&
        parsed->positional_count > runner->dataset.taken)
        return usage_error(program, "unexpected argument: %s",
                           parsed->positionals[runner->dataset.taken]);
    if (line->positional_name != NULL && parsed->positional_count == 0)
        return usage_error(program, "missing %s", line->positional_name);
    for (size_t index = 0; index < line->option_count; index++) {
        const struct command_option *option = &line->options[index];
        if (option->required && option->kind == OPTION_STRING &&
            *(const char **)((const char *)runner->values + option->offset) == NULL)
            return option_missing(program, option);
    }
    return EXIT_OK;
}

/* ACT (the body or the help) with no error pending; the error it leaves printed. */
static int act(const struct runner *runner, int (*action)(const struct command_run *run))
{
    error_clear();
    int result = action(&runner->run);
    if (result != EXIT_OK && error_code() != EXIT_OK)
        error_print(runner->run.program);
    error_clear();
    return result;
}

int command_run(const struct command *command, int argc, char **argv,
                const struct typed_command *typed)
{
    const struct command_line *line = command->line;
    char program[64];
    snprintf(program, sizeof program, "fuel-%s", command->name);
    struct runner runner = {.run = {.command = command, .program = program,
                                    .typed = typed}};
    runner.run.parsed = &runner.parsed;
    runner.values = values_create(line->options_size, line->option_defaults);
    runner.run.options = runner.values;
    int result = runner.values != NULL ? EXIT_OK : EXIT_OTHER;
    if (result == EXIT_OK)
        result = dataset_prepare(&runner, argc - 1, argv + 1);
    if (result == EXIT_OK)
        result = arguments_parse(&runner, argc - 1, argv + 1);
    if (result == EXIT_OK && runner.parsed.help)
        result = act(&runner, line->help != NULL ? line->help : command_help);
    else if (result == EXIT_OK && (result = arguments_check(&runner)) == EXIT_OK)
        result = act(&runner, command->body);
    if (line->dataset != DATASET_NONE)
        dataset_choice_free(&runner.dataset);
    parsed_arguments_free(&runner.parsed);
    free(runner.dataset_values);
    free(runner.values);
    return result;
}

void command_help_usage(const struct command_run *run, const struct dataset *record)
{
    const struct command_line *line = run->command->line;
    const struct extra_converter *extra = run->dataset != NULL ? run->dataset->extra : NULL;
    char label[160] = "";
    if (record != NULL)
        dataset_label(record, label, sizeof label);
    else if (extra != NULL)
        snprintf(label, sizeof label, "%s ", extra->name);
    else if (line->dataset != DATASET_NONE)
        snprintf(label, sizeof label, "%s ", line->dataset_usage);
    printf("usage: %s %s%s%s", run->program, label, record != NULL ? " " : "", line->usage);
    if (line->dataset_options && record != NULL && dataset_converts(record))
        usage_print_synopses(stdout, record->converter->options, record->converter->option_count);
    else if (line->dataset_options && extra != NULL)
        printf(" [ARGUMENTS]");
    else if (line->dataset_options && record == NULL)
        printf(" [DATASET OPTIONS]");
    if (record == NULL && extra == NULL && line->usage_alternative != NULL)
        printf("\n       %s %s", run->program, line->usage_alternative);
    putchar('\n');
}

void command_help_options(const struct command_run *run, const struct dataset *record)
{
    const struct command_line *line = run->command->line;
    usage_print_options(stdout, "options", line->options, line->option_count, true);
    if (!line->dataset_options || record == NULL || !dataset_converts(record) ||
        record->converter->option_count == 0)
        return;
    char label[160], title[192];
    dataset_label(record, label, sizeof label);
    snprintf(title, sizeof title, "\noptions of %s", label);
    usage_print_options(stdout, title, record->converter->options, record->converter->option_count,
                        false);
}

int command_help(const struct command_run *run)
{
    const struct command_line *line = run->command->line;
    const struct dataset *record = run->dataset != NULL ? run->dataset->record : NULL;
    command_help_usage(run, record);
    if (record != NULL)
        printf("\n%s\n", record->summary);
    if (record != NULL && record->manifest != NULL)
        printf("declared in %s\n", record->manifest);
    if (record == NULL && line->description != NULL)
        printf("\n%s\n", line->description);
    putchar('\n');
    command_help_options(run, record);
    return EXIT_OK;
}
