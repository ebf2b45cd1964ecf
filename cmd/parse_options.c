/* Declarative command-line parsing: the tokenizer over option tables, and the parse storing each
   value through its table. */
#include "parse_options.h"

#include "common/base/error.h"
#include "common/base/suggest.h"
#include "usage.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool option_takes_value(const struct command_option *option)
{
    return option->kind != OPTION_FLAG && option->kind != OPTION_COUNT;
}

static bool option_named(const struct command_option *option, const char *name)
{
    if (name[0] != '-')
        return false;
    if (name[1] != '-')
        return name[1] == option->short_name && name[1] != '\0' && name[2] == '\0';
    return (option->long_name != NULL && strcmp(name + 2, option->long_name) == 0) ||
           (option->alias != NULL && strcmp(name + 2, option->alias) == 0);
}

const struct command_option *options_find(const struct option_tables *tables, const char *name,
                                          const struct option_table **table)
{
    for (size_t group = 0; group < tables->count; group++)
        for (size_t index = 0; index < tables->tables[group].count; index++)
            if (option_named(&tables->tables[group].options[index], name)) {
                if (table != NULL)
                    *table = &tables->tables[group];
                return &tables->tables[group].options[index];
            }
    return NULL;
}

void tokenizer_start(struct tokenizer *tokenizer, const struct option_tables *tables,
                     bool pass_unknown, int count, char *const *arguments)
{
    *tokenizer = (struct tokenizer){.tables = tables, .pass_unknown = pass_unknown,
                                    .count = count, .arguments = arguments};
}

/* An option's value: ATTACHED, else the next argument; missing when the arguments ended. */
static void value_take(struct tokenizer *tokenizer, struct token *token, const char *attached)
{
    token->value_attached = attached != NULL;
    if (attached != NULL)
        token->value = attached;
    else if (tokenizer->index < tokenizer->count)
        token->value = tokenizer->arguments[tokenizer->index++];
    else
        token->value_missing = true;
}

/* An option no table has: passed on with a value when the command passes them on. */
static void unknown_token(struct tokenizer *tokenizer, struct token *token, const char *attached)
{
    token->kind = TOKEN_UNKNOWN;
    if (tokenizer->pass_unknown)
        value_take(tokenizer, token, attached);
    else
        token->value = attached, token->value_attached = attached != NULL;
}

/* "--name", "--name=value", "--name value". */
static bool long_token(struct tokenizer *tokenizer, const char *argument, struct token *token)
{
    const char *equals = strchr(argument, '=');
    int length = equals != NULL ? (int)(equals - argument) : (int)strlen(argument);
    const char *attached = equals != NULL ? equals + 1 : NULL;
    snprintf(token->name, sizeof token->name, "%.*s", length, argument);
    if (strcmp(token->name, "--help") == 0) {
        token->kind = TOKEN_HELP;
        return true;
    }
    token->option = options_find(tokenizer->tables, token->name, &token->table);
    if (token->option == NULL) {
        unknown_token(tokenizer, token, attached);
        return true;
    }
    token->kind = TOKEN_OPTION;
    if (option_takes_value(token->option))
        value_take(tokenizer, token, attached);
    else
        token->flag_valued = attached != NULL;
    return true;
}

/* One letter of "-q", "-qv", "-jN", "-j N", "-d DIR"; an unknown first letter makes the whole
   argument one unknown option. */
static bool short_token(struct tokenizer *tokenizer, struct token *token)
{
    const char *letter = tokenizer->cluster, *argument = tokenizer->argument;
    tokenizer->cluster = letter[1] != '\0' ? letter + 1 : NULL;
    snprintf(token->name, sizeof token->name, "-%c", *letter);
    if (*letter == 'h') {
        token->kind = TOKEN_HELP;
        return true;
    }
    token->option = options_find(tokenizer->tables, token->name, &token->table);
    if (token->option == NULL) {
        if (letter == argument + 1)
            snprintf(token->name, sizeof token->name, "%s", argument);
        tokenizer->cluster = NULL;
        unknown_token(tokenizer, token, NULL);
        return true;
    }
    token->kind = TOKEN_OPTION;
    if (option_takes_value(token->option)) {
        tokenizer->cluster = NULL;
        value_take(tokenizer, token, letter[1] != '\0' ? letter + 1 : NULL);
    }
    return true;
}

bool tokenizer_next(struct tokenizer *tokenizer, struct token *token)
{
    *token = (struct token){.argument = tokenizer->argument};
    if (tokenizer->cluster != NULL)
        return short_token(tokenizer, token);
    if (tokenizer->index >= tokenizer->count)
        return false;
    const char *argument = tokenizer->arguments[tokenizer->index++];
    tokenizer->argument = token->argument = argument;
    if (tokenizer->options_ended || argument[0] != '-' || argument[1] == '\0') {
        token->kind = TOKEN_POSITIONAL;
        token->value = argument;
        return true;
    }
    if (strcmp(argument, "--") == 0) {
        tokenizer->options_ended = true;
        return tokenizer_next(tokenizer, token);
    }
    if (argument[1] == '-')
        return long_token(tokenizer, argument, token);
    tokenizer->cluster = argument + 1;
    return short_token(tokenizer, token);
}

/* "unknown option: --dtyp; did you mean `--dtype`?", or "...; see 'PROGRAM -h'". */
static int unknown_option(const struct option_tables *tables, const char *program,
                          const char *name)
{
    static char names[96][72];
    size_t count = 0;
    struct suggestion suggestion;
    suggestion_begin(&suggestion, name);
    for (size_t group = 0; group < tables->count; group++)
        for (size_t index = 0; index < tables->tables[group].count && count + 3 <= 96; index++) {
            const struct command_option *option = &tables->tables[group].options[index];
            if (option->long_name != NULL)
                snprintf(names[count++], sizeof names[0], "--%s", option->long_name);
            if (option->alias != NULL)
                snprintf(names[count++], sizeof names[0], "--%s", option->alias);
            if (option->short_name != 0)
                snprintf(names[count++], sizeof names[0], "-%c", option->short_name);
        }
    for (size_t index = 0; index < count; index++)
        suggestion_offer(&suggestion, names[index]);
    char ending[512];
    suggestion_text(&suggestion, ending, sizeof ending);
    return usage_error_ending(program, ending, "unknown option: %s", name);
}

static int number_store(const struct parse_rules *rules, const struct token *token, void *target)
{
    const struct command_option *option = token->option;
    char *end;
    errno = 0;
    double number = strtod(token->value, &end);
    bool whole = option->kind == OPTION_INTEGER;
    if (errno != 0 || end == token->value || *end != '\0' || !(number >= option->minimum) ||
        !(number <= option->maximum) || (whole && number != floor(number))) {
        if (whole)
            return usage_error(rules->program,
                               "invalid %s: %s: expected a whole number from %.0f to %.0f",
                               token->name, token->value, option->minimum, option->maximum);
        return usage_error(rules->program, "invalid %s: %s: expected a number from %g to %g",
                           token->name, token->value, option->minimum, option->maximum);
    }
    if (whole)
        *(long *)target = (long)number;
    else
        *(double *)target = number;
    return EXIT_OK;
}

static bool is_choice(const char *choices, const char *value)
{
    size_t length = strlen(value);
    for (const char *word = choices; *word != '\0';) {
        size_t word_length = strcspn(word, " ");
        if (word_length == length && strncmp(word, value, length) == 0)
            return true;
        word += word_length;
        word += strspn(word, " ");
    }
    return false;
}

/* The value of TOKEN stored at its option's offset (nothing stored without values). */
static int store(const struct parse_rules *rules, const struct token *token)
{
    const struct command_option *option = token->option;
    if (option->choices != NULL && token->value != NULL &&
        !is_choice(option->choices, token->value)) {
        char values[512], ending[560];
        words_join(values, sizeof values, option->choices);
        snprintf(ending, sizeof ending, "expected one of %s", values);
        return usage_error_ending(rules->program, ending, "invalid %s: %s", token->name,
                                  token->value);
    }
    if (token->table->values == NULL)
        return EXIT_OK;
    void *target = (char *)token->table->values + option->offset;
    switch (option->kind) {
    case OPTION_FLAG: *(bool *)target = true; return EXIT_OK;
    case OPTION_COUNT: (*(int *)target)++; return EXIT_OK;
    case OPTION_STRING: *(const char **)target = token->value; return EXIT_OK;
    case OPTION_LIST: {
        struct option_list *list = target;
        if (list->count == OPTION_LIST_MAX)
            return usage_error(rules->program, "too many %s options", token->name);
        list->items[list->count++] = token->value;
        return EXIT_OK;
    }
    case OPTION_INTEGER:
    case OPTION_DECIMAL: return number_store(rules, token, target);
    }
    return EXIT_OK;
}

static int option_token(const struct option_tables *tables, const struct parse_rules *rules,
                        const struct token *token, struct parsed_arguments *parsed)
{
    if (token->flag_valued)
        return usage_error(rules->program, "option %s takes no value", token->name);
    if (token->value_missing)
        return usage_error(rules->program, "option %s needs a value", token->name);
    if (tables->count > 1 && token->table == &tables->tables[1] && !parsed->dataset_option[0])
        snprintf(parsed->dataset_option, sizeof parsed->dataset_option, "%s", token->name);
    return store(rules, token);
}

static int token_parse(const struct option_tables *tables, const struct parse_rules *rules,
                       const struct token *token, struct parsed_arguments *parsed)
{
    switch (token->kind) {
    case TOKEN_HELP: parsed->help = true; return EXIT_OK;
    case TOKEN_OPTION: return option_token(tables, rules, token, parsed);
    case TOKEN_POSITIONAL:
        if (parsed->positional_count >= rules->maximum_positionals)
            return usage_error(rules->program, "unexpected argument: %s", token->value);
        parsed->positionals[parsed->positional_count++] = token->value;
        parsed->words[parsed->word_count++] = token->value;
        return EXIT_OK;
    case TOKEN_UNKNOWN:
        if (!rules->pass_unknown)
            return unknown_option(tables, rules->program, token->name);
        parsed->words[parsed->word_count++] = token->argument;
        if (token->value != NULL && !token->value_attached)
            parsed->words[parsed->word_count++] = token->value;
        return EXIT_OK;
    }
    return EXIT_OK;
}

int options_parse(const struct option_tables *tables, const struct parse_rules *rules, int argc,
                  char *const *argv, struct parsed_arguments *parsed)
{
    *parsed = (struct parsed_arguments){0};
    parsed->positionals = calloc((size_t)argc + 1, sizeof *parsed->positionals);
    parsed->words = calloc((size_t)argc + 1, sizeof *parsed->words);
    if (parsed->positionals == NULL || parsed->words == NULL) {
        fprintf(stderr, "%s: out of memory\n", rules->program);
        return EXIT_OTHER;
    }
    if (rules->verbatim) {
        for (int index = 0; index < argc; index++)
            parsed->positionals[parsed->positional_count++] = argv[index];
        return EXIT_OK;
    }
    struct tokenizer tokenizer;
    struct token token;
    tokenizer_start(&tokenizer, tables, rules->pass_unknown, argc, argv);
    while (tokenizer_next(&tokenizer, &token)) {
        int result = token_parse(tables, rules, &token, parsed);
        if (result != EXIT_OK)
            return result;
    }
    return EXIT_OK;
}

void parsed_arguments_free(struct parsed_arguments *parsed)
{
    free(parsed->positionals);
    free(parsed->words);
    parsed->positionals = NULL;
    parsed->words = NULL;
    parsed->positional_count = 0;
    parsed->word_count = 0;
}
