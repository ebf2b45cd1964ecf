/* Declarative command-line parsing shared by every command: options from a table, positionals,
   pass-through dataset options, generated -h. */
#include "parse_options.h"

#include "common/base/error.h"
#include "usage.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The state of one parse: the table, what was typed, and where parsing stands. */
struct parser {
    const struct command_line *line;
    int argc;
    char *const *argv;
    int index;
    struct parsed_arguments *parsed;
};

static int parse_failure(const struct parser *parser, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

/* A usage error, printed unless -h was given: then the rest is parsed only for what it names. */
static int parse_failure(const struct parser *parser, const char *format, ...)
{
    char message[512];
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(message, sizeof message, format, arguments);
    va_end(arguments);
    if (parser->parsed->help)
        return EXIT_USAGE;
    return usage_error(parser->line->program, "%s", message);
}

/* ARGUMENT, not taken by the table, kept as typed for an extra converter. */
static void keep_word(const struct parser *parser, const char *argument)
{
    parser->parsed->words[parser->parsed->word_count++] = argument;
}

const struct command_option *options_find(const struct command_line *line, const char *name)
{
    for (size_t index = 0; index < line->option_count; index++) {
        const struct command_option *option = &line->options[index];
        if (name[0] == '-' && name[1] != '-' && name[1] == option->short_name && name[2] == '\0')
            return option;
        if (name[0] == '-' && name[1] == '-' &&
            ((option->long_name != NULL && strcmp(name + 2, option->long_name) == 0) ||
             (option->alias != NULL && strcmp(name + 2, option->alias) == 0)))
            return option;
    }
    return NULL;
}

static bool takes_value(const struct command_option *option)
{
    return option->kind != OPTION_FLAG && option->kind != OPTION_COUNT;
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

static int store_number(const struct parser *parser, const struct command_option *option,
                        const char *name, const char *value)
{
    char *end;
    errno = 0;
    double number = strtod(value, &end);
    bool whole = option->kind == OPTION_INTEGER;
    if (errno != 0 || end == value || *end != '\0' || !(number >= option->minimum) ||
        !(number <= option->maximum) || (whole && number != floor(number))) {
        if (whole)
            return parse_failure(parser, "invalid %s: %s: expected a whole number from %.0f to %.0f",
                                 name, value, option->minimum, option->maximum);
        return parse_failure(parser, "invalid %s: %s: expected a number from %g to %g", name, value,
                             option->minimum, option->maximum);
    }
    if (whole)
        *(long *)option->value = (long)number;
    else
        *(double *)option->value = number;
    return EXIT_OK;
}

/* Stores VALUE (NULL for flags) through OPTION's pointer; NAME is the option as typed. */
static int store(const struct parser *parser, const struct command_option *option, const char *name,
                 const char *value)
{
    if (option->choices != NULL && value != NULL && !is_choice(option->choices, value))
        return parse_failure(parser, "invalid choice: %s", value);
    switch (option->kind) {
    case OPTION_FLAG: *(bool *)option->value = true; return EXIT_OK;
    case OPTION_COUNT: (*(int *)option->value)++; return EXIT_OK;
    case OPTION_STRING: *(const char **)option->value = value; return EXIT_OK;
    case OPTION_LIST: {
        struct option_list *list = option->value;
        if (list->count == OPTION_LIST_MAX)
            return parse_failure(parser, "too many %s options", name);
        list->items[list->count++] = value;
        return EXIT_OK;
    }
    case OPTION_INTEGER:
    case OPTION_DECIMAL: return store_number(parser, option, name, value);
    }
    return EXIT_OK;
}

/* The value after an option that takes one: ATTACHED, or the next argument. */
static int next_value(struct parser *parser, const char *name, const char *attached,
                      const char **value)
{
    if (attached != NULL) {
        *value = attached;
        return EXIT_OK;
    }
    if (parser->index + 1 >= parser->argc)
        return parse_failure(parser, "option %s needs a value", name);
    *value = parser->argv[++parser->index];
    return EXIT_OK;
}

/* An option the table does not have: kept for the dataset when the command passes them on. */
static int pass_unknown(struct parser *parser, const char *argument, size_t name_length,
                        const char *attached)
{
    struct parsed_arguments *parsed = parser->parsed;
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)name_length, argument);
    if (!parser->line->pass_unknown)
        return parse_failure(parser, "unknown option: %s", name);
    if (parsed->passed_count == PASSED_OPTION_MAX || name_length >= sizeof name)
        return parse_failure(parser, "too many options: %s", name);
    struct passed_option *passed = &parsed->passed[parsed->passed_count++];
    memcpy(passed->name, name, name_length + 1);
    passed->value = attached;
    keep_word(parser, argument);
    if (attached == NULL && parser->index + 1 < parser->argc) {
        passed->value = parser->argv[++parser->index];
        keep_word(parser, passed->value);
    }
    return EXIT_OK;
}

static int parse_long(struct parser *parser, const char *argument)
{
    const char *equals = strchr(argument, '=');
    size_t name_length = equals != NULL ? (size_t)(equals - argument) : strlen(argument);
    const char *attached = equals != NULL ? equals + 1 : NULL;
    char name[128];
    if (name_length >= sizeof name)
        return parse_failure(parser, "unknown option: %.60s...", argument);
    memcpy(name, argument, name_length);
    name[name_length] = '\0';
    if (strcmp(name, "--help") == 0) {
        parser->parsed->help = true;
        return EXIT_OK;
    }
    const struct command_option *option = options_find(parser->line, name);
    if (option == NULL)
        return pass_unknown(parser, argument, name_length, attached);
    if (!takes_value(option) && attached != NULL)
        return parse_failure(parser, "option %s takes no value", name);
    const char *value = NULL;
    int result = takes_value(option) ? next_value(parser, name, attached, &value) : EXIT_OK;
    return result == EXIT_OK ? store(parser, option, name, value) : result;
}

/* "-q", "-qv", "-jN", "-j N", "-d DIR". */
static int parse_short(struct parser *parser, const char *argument)
{
    for (const char *letter = argument + 1; *letter != '\0'; letter++) {
        char name[3] = {'-', *letter, '\0'};
        if (*letter == 'h') {
            parser->parsed->help = true;
            continue;
        }
        const struct command_option *option = options_find(parser->line, name);
        if (option == NULL && letter == argument + 1)
            return pass_unknown(parser, argument, strlen(argument), NULL);
        if (option == NULL)
            return parse_failure(parser, "unknown option: %s", name);
        if (!takes_value(option)) {
            int result = store(parser, option, name, NULL);
            if (result != EXIT_OK)
                return result;
            continue;
        }
        const char *value = NULL;
        int result = next_value(parser, name, letter[1] != '\0' ? letter + 1 : NULL, &value);
        return result == EXIT_OK ? store(parser, option, name, value) : result;
    }
    return EXIT_OK;
}

static int add_positional(struct parser *parser, const char *argument)
{
    struct parsed_arguments *parsed = parser->parsed;
    if (parsed->positional_count >= parser->line->maximum_positionals)
        return parse_failure(parser, "unexpected argument: %s", argument);
    parsed->positionals[parsed->positional_count++] = argument;
    keep_word(parser, argument);
    return EXIT_OK;
}

int options_parse(const struct command_line *line, int argc, char *const *argv,
                  struct parsed_arguments *parsed)
{
    *parsed = (struct parsed_arguments){0};
    parsed->positionals = calloc((size_t)argc + 1, sizeof *parsed->positionals);
    parsed->words = calloc((size_t)argc + 1, sizeof *parsed->words);
    if (parsed->positionals == NULL || parsed->words == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    struct parser parser = {line, argc, argv, 1, parsed};
    bool options_ended = false;
    for (; parser.index < argc; parser.index++) {
        const char *argument = argv[parser.index];
        int result;
        if (options_ended || argument[0] != '-' || argument[1] == '\0')
            result = add_positional(&parser, argument);
        else if (strcmp(argument, "--") == 0)
            options_ended = true, result = EXIT_OK;
        else if (argument[1] == '-')
            result = parse_long(&parser, argument);
        else
            result = parse_short(&parser, argument);
        if (result != EXIT_OK)
            return parsed->help ? EXIT_OK : result;
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

int options_run(const struct command_line *line, int argc, char *const *argv,
                int (*body)(const struct parsed_arguments *parsed))
{
    struct parsed_arguments parsed;
    int result = options_parse(line, argc, argv, &parsed);
    if (result == EXIT_OK && parsed.help && !line->own_help)
        options_print_help(line, stdout);
    else if (result == EXIT_OK)
        result = body(&parsed);
    parsed_arguments_free(&parsed);
    return result;
}

/* "-d, --directory DIR" */
static void option_synopsis(const struct command_option *option, char *text, size_t size)
{
    int used = 0;
    if (option->short_name != 0)
        used = snprintf(text, size, "-%c%s", option->short_name, option->long_name ? ", " : "");
    if (option->long_name != NULL)
        used += snprintf(text + used, size - (size_t)used, "--%s", option->long_name);
    if (option->argument != NULL)
        snprintf(text + used, size - (size_t)used, " %s", option->argument);
}

/* HELP from column 29, words carried to a new line past column 100. */
static void help_print(const char *help, FILE *stream)
{
    enum { COLUMN = 29, WIDTH = 100 };
    size_t used = COLUMN;
    for (const char *word = help; *word != '\0';) {
        size_t length = strcspn(word, " ");
        if (word != help && used + 1 + length > WIDTH) {
            fprintf(stream, "\n%*s", COLUMN, "");
            used = COLUMN;
        } else if (word != help) {
            fputc(' ', stream);
            used++;
        }
        fprintf(stream, "%.*s", (int)length, word);
        used += length;
        word += length;
        word += strspn(word, " ");
    }
    fputc('\n', stream);
}

void options_print_table(const struct command_line *line, FILE *stream)
{
    fprintf(stream, "options:\n");
    for (size_t index = 0; index < line->option_count; index++) {
        char synopsis[96];
        option_synopsis(&line->options[index], synopsis, sizeof synopsis);
        if (strlen(synopsis) <= 26)
            fprintf(stream, "  %-26s ", synopsis);
        else
            fprintf(stream, "  %s\n  %-26s ", synopsis, "");
        help_print(line->options[index].help, stream);
    }
    fprintf(stream, "  %-26s %s\n", "-h, --help", "show this help and exit");
}

void options_print_help(const struct command_line *line, FILE *stream)
{
    fprintf(stream, "usage: %s %s\n", line->program, line->usage);
    if (line->description != NULL)
        fprintf(stream, "\n%s\n", line->description);
    fprintf(stream, "\n");
    options_print_table(line, stream);
}
