/* The one command runner: NAME [FORMAT] resolved first when the command takes a dataset, the
   arguments parsed against the command's and the dataset's tables, -h, what is required, the
   body, its error printed in the one format, and the cleanup. */
#include "converters/converter.h"
#include "runner.h"

#include "common/base/error.h"
#include "common/base/suggest.h"
#include "dataset_arguments.h"
#include "usage.h"
#include "usage_line.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct command_invocation {
    struct command_run run;
    char program[64];
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

size_t command_positionals(const struct command_line *line, int argc, char *const *argv,
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
static int dataset_prepare(struct command_invocation *invocation, int argc, char *const *argv)
{
    const struct command_line *line = invocation->run.command->line;
    const char *program = invocation->run.program, *positionals[2];
    if (line->dataset == DATASET_NONE)
        return EXIT_OK;
    invocation->run.dataset = &invocation->dataset;
    bool help;
    size_t count = command_positionals(line, argc, argv, positionals, &help);
    error_clear();
    int result = dataset_choice_load(line->dataset_options, &invocation->dataset);
    if (result != EXIT_OK)
        error_print(program);
    if (result == EXIT_OK)
        result = dataset_choice_resolve(program, line->dataset, positionals, count, help,
                                        &invocation->dataset);
    const struct converter *converter = dataset_choice_converter(&invocation->dataset);
    if (result != EXIT_OK || !line->dataset_options || converter == NULL)
        return result;
    invocation->dataset_values = values_create(converter->options_size, converter->option_defaults);
    invocation->run.dataset_options = invocation->dataset_values;
    return invocation->dataset_values != NULL ? EXIT_OK : EXIT_OTHER;
}

static int arguments_parse(struct command_invocation *invocation, int argc, char *const *argv)
{
    const struct command_line *line = invocation->run.command->line;
    struct option_tables tables;
    command_tables(line, invocation->dataset.record, invocation->values, invocation->dataset_values, &tables);
    struct parse_rules rules = {
        .program = invocation->run.program,
        .maximum_positionals =
            line->dataset != DATASET_NONE ? (size_t)-1 : line->maximum_positionals,
        .pass_unknown = line->dataset_options && invocation->dataset.extra != NULL,
        .verbatim = line->verbatim,
    };
    return options_parse(&tables, &rules, argc, argv, &invocation->parsed);
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
static int arguments_check(const struct command_invocation *invocation)
{
    const struct command_line *line = invocation->run.command->line;
    const char *program = invocation->run.program;
    const struct parsed_arguments *parsed = &invocation->parsed;
    if (line->dataset != DATASET_NONE && line->dataset_required && invocation->dataset.name == NULL)
        return usage_error(program, "missing dataset name");
    if (line->dataset != DATASET_NONE && invocation->dataset.extra == NULL &&
        parsed->positional_count > invocation->dataset.taken)
        return usage_error(program, "unexpected argument: %s",
                           parsed->positionals[invocation->dataset.taken]);
    if (line->positional_name != NULL && parsed->positional_count == 0)
        return usage_error(program, "missing %s", line->positional_name);
    for (size_t index = 0; index < line->option_count; index++) {
        const struct command_option *option = &line->options[index];
        if (option->required && option->kind == OPTION_STRING &&
            *(const char **)((const char *)invocation->values + option->offset) == NULL)
            return option_missing(program, option);
    }
    return EXIT_OK;
}

/* ACT (the body or the help) with no error pending; the error it leaves printed. */
static int act(const struct command_invocation *invocation,
               int (*action)(const struct command_run *run))
{
    error_clear();
    int result = action(&invocation->run);
    if (result != EXIT_OK && error_code() != EXIT_OK)
        error_print(invocation->run.program);
    error_clear();
    return result;
}

int command_invocation_parse(const struct command *command, int argc, char **argv,
                             const struct typed_command *typed,
                             struct command_invocation **parsed)
{
    struct command_invocation *invocation = calloc(1, sizeof *invocation);
    *parsed = invocation;
    if (invocation == NULL)
        return EXIT_OTHER;
    const struct command_line *line = command->line;
    snprintf(invocation->program, sizeof invocation->program, "fuel-%s", command->name);
    invocation->run = (struct command_run){.command = command, .program = invocation->program,
                                           .typed = typed, .parsed = &invocation->parsed};
    invocation->values = values_create(line->options_size, line->option_defaults);
    invocation->run.options = invocation->values;
    int result = invocation->values != NULL ? EXIT_OK : EXIT_OTHER;
    if (result == EXIT_OK)
        result = dataset_prepare(invocation, argc - 1, argv + 1);
    if (result == EXIT_OK)
        result = arguments_parse(invocation, argc - 1, argv + 1);
    if (result == EXIT_OK && !invocation->parsed.help)
        result = arguments_check(invocation);
    return result;
}

const struct command_run *command_invocation_run(const struct command_invocation *invocation)
{
    return &invocation->run;
}

bool command_invocation_help(const struct command_invocation *invocation)
{
    return invocation->parsed.help;
}

void command_invocation_free(struct command_invocation *invocation)
{
    if (invocation == NULL)
        return;
    if (invocation->run.command->line->dataset != DATASET_NONE)
        dataset_choice_free(&invocation->dataset);
    parsed_arguments_free(&invocation->parsed);
    free(invocation->dataset_values);
    free(invocation->values);
    free(invocation);
}

int command_run(const struct command *command, int argc, char **argv,
                const struct typed_command *typed)
{
    const struct command_line *line = command->line;
    struct command_invocation *invocation = NULL;
    int result = command_invocation_parse(command, argc, argv, typed, &invocation);
    if (result == EXIT_OK && invocation->parsed.help)
        result = act(invocation, line->help != NULL ? line->help : command_help);
    else if (result == EXIT_OK)
        result = act(invocation, command->body);
    command_invocation_free(invocation);
    return result;
}

void command_help_usage(const struct command_run *run, const struct dataset *record)
{
    const struct command_line *line = run->command->line;
    const struct extra_converter *extra = run->dataset != NULL ? run->dataset->extra : NULL;
    char label[160];
    struct usage_dataset dataset = {.label = label};
    if (record != NULL) {
        dataset_label(record, label, sizeof label);
        if (dataset_converts(record)) {
            dataset.options = record->converter->options;
            dataset.option_count = record->converter->option_count;
        }
    } else if (extra != NULL) {
        snprintf(label, sizeof label, "%s", extra->name);
        dataset.extra = true;
    }
    usage_line_print(stdout, run->program, line,
                     record != NULL || extra != NULL ? &dataset : NULL);
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
