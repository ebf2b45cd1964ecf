/* fuel __complete WORDS...: the candidates for the last of WORDS (the word being completed), read
   from the command table and each command's option table, so that commands, options, dataset
   names and formats (extras from the config included) complete without the scripts of
   fuel-completion(1) knowing any of them. Prints the kind ("words", "files" or "directories"),
   then one candidate a line. */
#include "common/base/config.h"
#include "common/base/error.h"
#include "converters/registry.h"
#include "converters/extra.h"
#include "commands.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* The word being completed, and what its candidates must start with. */
struct completion {
    const char *current; /* the part candidates are matched against */
    const char *lead;    /* printed before each candidate: "--dtype=" (zsh) or "=" (bash) */
    const char *kind;
    const struct extra_converters *extras;
};

/* Where the words before the current one leave the command line. */
struct scan {
    const struct command_line *line;
    const char *positionals[2]; /* the dataset and its format, when given */
    size_t positional_count;
    const struct command_option *pending;   /* a table option waiting for its value */
    const char *pending_passed;             /* a dataset option waiting for its value */
};

static void candidate(const struct completion *completion, const char *word)
{
    if (strncmp(word, completion->current, strlen(completion->current)) == 0)
        printf("%s%s\n", completion->lead, word);
}

/* Each space-separated word of WORDS. */
static void candidate_words(const struct completion *completion, const char *words)
{
    char word[128];
    for (const char *next = words; *next != '\0';) {
        size_t length = strcspn(next, " ");
        snprintf(word, sizeof word, "%.*s", (int)length, next);
        if (length > 0)
            candidate(completion, word);
        next += length;
        next += strspn(next, " ");
    }
}

/* Words offered once each, in the order first added. */
struct word_set {
    const char *words[256];
    size_t count;
};

static void word_set_add(struct word_set *set, const char *word)
{
    for (size_t index = 0; index < set->count; index++)
        if (strcmp(set->words[index], word) == 0)
            return;
    if (set->count < sizeof set->words / sizeof set->words[0])
        set->words[set->count++] = word;
}

static void word_set_offer(const struct completion *completion, const struct word_set *set)
{
    for (size_t index = 0; index < set->count; index++)
        candidate(completion, set->words[index]);
}

/* Every dataset name: the datasets (manifests included), then the extra converters. */
static void dataset_names(const struct completion *completion)
{
    struct word_set names = {0};
    const struct dataset *const *list = dataset_list();
    for (size_t index = 0; list[index] != NULL; index++)
        word_set_add(&names, list[index]->name);
    for (size_t index = 0; index < completion->extras->count; index++)
        word_set_add(&names, completion->extras->items[index].name);
    word_set_offer(completion, &names);
}

/* The formats of dataset NAME. */
static void dataset_formats(const struct completion *completion, const char *name)
{
    struct word_set formats = {0};
    const struct dataset *const *list = dataset_list();
    for (size_t index = 0; list[index] != NULL; index++)
        if (strcmp(list[index]->name, name) == 0 && list[index]->variant != NULL)
            word_set_add(&formats, list[index]->variant);
    word_set_offer(completion, &formats);
}

/* The converter of the dataset the scan saw, for its options (--dtype); NULL when none. */
static const struct converter *scanned_converter(const struct scan *scan)
{
    if (scan->positional_count == 0)
        return NULL;
    const char *name = scan->positionals[0];
    const char *format = scan->positional_count > 1 ? scan->positionals[1] : NULL;
    const struct dataset *dataset;
    if (dataset_find(name, format, &dataset) != DATASET_FOUND &&
        dataset_find(name, NULL, &dataset) != DATASET_FOUND)
        return NULL;
    return dataset_converts(dataset) ? dataset->converter : NULL;
}

static void option_names(const struct completion *completion, const struct scan *scan)
{
    const struct command_line *line = scan->line;
    char word[80];
    for (size_t index = 0; index < line->option_count; index++) {
        const struct command_option *option = &line->options[index];
        snprintf(word, sizeof word, "-%c", option->short_name);
        if (option->short_name != 0)
            candidate(completion, word);
        snprintf(word, sizeof word, "--%s", option->long_name ? option->long_name : "");
        if (option->long_name != NULL)
            candidate(completion, word);
    }
    candidate(completion, "-h");
    candidate(completion, "--help");
    const struct converter *converter = line->pass_unknown ? scanned_converter(scan) : NULL;
    for (size_t index = 0; converter != NULL && index < converter->option_count; index++)
        candidate(completion, converter->options[index].name);
}

/* The candidates of a value or positional of completion kind KIND with CHOICES. */
static void kind_complete(const struct completion *completion, enum completion_kind kind,
                          const char *choices)
{
    const char *names[] = {[COMPLETE_FILE] = "files", [COMPLETE_DIRECTORY] = "directories",
                           [COMPLETE_FILE_OR_DATASET] = "files"};
    const char *shown = kind < sizeof names / sizeof names[0] && names[kind] ? names[kind] : "words";
    printf("%s\n", shown);
    if (choices != NULL)
        candidate_words(completion, choices);
    if (kind == COMPLETE_DATASET || kind == COMPLETE_FILE_OR_DATASET)
        dataset_names(completion);
}

/* The value of the option the scan left waiting. */
static void value_complete(const struct completion *completion, const struct scan *scan)
{
    if (scan->pending != NULL) {
        kind_complete(completion, scan->pending->completion, scan->pending->choices);
        return;
    }
    printf("words\n");
    const struct converter *converter = scanned_converter(scan);
    int index = converter != NULL ? converter_option_index(converter, scan->pending_passed) : -1;
    for (size_t choice = 0; index >= 0 && converter->options[index].choices[choice]; choice++)
        candidate(completion, converter->options[index].choices[choice]);
}

static void positional_complete(const struct completion *completion, const struct scan *scan)
{
    const struct command_line *line = scan->line;
    if (line->positional_completion != COMPLETE_DATASET) {
        kind_complete(completion, line->positional_completion, line->positional_choices);
        return;
    }
    printf("words\n");
    if (scan->positional_count == 0)
        dataset_names(completion);
    else if (scan->positional_count == 1)
        dataset_formats(completion, scan->positionals[0]);
}

/* The option WORD names ("--name=value" cut at '='; "-jN" at its letter); NULL when none. */
static const struct command_option *word_option(const struct command_line *line,
                                                const char *word)
{
    char name[128];
    size_t length = word[1] == '-' ? strcspn(word, "=") : 2;
    snprintf(name, sizeof name, "%.*s", (int)length, word);
    return options_find(line, name);
}

static bool takes_value(const struct command_option *option)
{
    return option->kind != OPTION_FLAG && option->kind != OPTION_COUNT;
}

/* Whether option WORD (a table option, or a dataset option passed on) waits for the next word. */
static bool waits_for_value(const struct scan *scan, const char *word)
{
    const struct command_option *option = word_option(scan->line, word);
    if (option != NULL)
        return takes_value(option) && strchr(word, '=') == NULL && (word[1] == '-' || !word[2]);
    return scan->line->pass_unknown && strcmp(word, "--help") != 0 && strcmp(word, "-h") != 0 &&
           strchr(word, '=') == NULL;
}

/* Records that the current word is the value of option WORD (its name up to any '='). */
static void value_pending(struct scan *scan, const char *word, char *name, size_t size)
{
    snprintf(name, size, "%.*s", (int)strcspn(word, "="), word);
    scan->pending = word_option(scan->line, word);
    scan->pending_passed = scan->pending == NULL ? name : NULL;
}

/* Walks WORDS before the current one (the last of COUNT); true when the current word is an
   option's value. bash splits "--dtype=fl" into "--dtype", "=", "fl": a lone "=" current word
   gets its candidates led by "=". NAME keeps a dataset option's name. */
static bool scan_words(struct scan *scan, char **words, int count,
                       struct completion *completion, char *name, size_t size)
{
    bool options_ended = false;
    for (int index = 0; index < count - 1; index++) {
        const char *word = words[index];
        if (options_ended || word[0] != '-' || word[1] == '\0') {
            if (scan->positional_count < 2)
                scan->positionals[scan->positional_count] = word;
            scan->positional_count++;
        } else if (strcmp(word, "--") == 0) {
            options_ended = true;
        } else if (waits_for_value(scan, word)) {
            int value = index + 1 < count && strcmp(words[index + 1], "=") == 0 ? index + 2
                                                                                 : index + 1;
            if (value >= count - 1) {
                value_pending(scan, word, name, size);
                if (value > count - 1)
                    completion->lead = "=", completion->current = "";
                return true;
            }
            index = value;
        }
    }
    return false;
}

static void command_complete(const struct command_line *line, char **words, int count,
                             struct completion *completion)
{
    struct scan scan = {.line = line};
    char name[128], lead[160];
    const char *current = words[count - 1], *equals = strchr(current, '=');
    completion->current = current;
    if (scan_words(&scan, words, count, completion, name, sizeof name)) {
        value_complete(completion, &scan);
    } else if (current[0] == '-' && current[1] == '-' && equals != NULL) {
        snprintf(lead, sizeof lead, "%.*s", (int)(equals - current + 1), current);
        completion->lead = lead;
        completion->current = equals + 1;
        value_pending(&scan, current, name, sizeof name);
        if (scan.pending != NULL || line->pass_unknown)
            value_complete(completion, &scan);
        else
            printf("words\n");
    } else if (current[0] == '-') {
        printf("words\n");
        option_names(completion, &scan);
    } else {
        positional_complete(completion, &scan);
    }
}

static const struct command *command_named(const char *name)
{
    size_t count;
    const struct command *list = commands_list(&count);
    for (size_t index = 0; index < count; index++)
        if (list[index].summary != NULL && strcmp(list[index].name, name) == 0)
            return &list[index];
    return NULL;
}

/* The first word after fuel: a command (or help), or fuel's own options. */
static void command_names(const struct completion *completion, bool with_help)
{
    size_t count;
    const struct command *list = commands_list(&count);
    printf("words\n");
    for (size_t index = 0; index < count; index++)
        if (list[index].summary != NULL)
            candidate(completion, list[index].name);
    if (with_help)
        candidate(completion, "help");
    if (with_help && completion->current[0] == '-')
        candidate_words(completion, "--version -h --help");
}

/* WORDS[0] is the program as typed (fuel, or fuel-NAME), the last word the one completed. */
static void words_complete(char **words, int count, struct completion *completion)
{
    const char *slash = strrchr(words[0], '/');
    const char *program = slash != NULL ? slash + 1 : words[0];
    const struct command *command = NULL;
    completion->current = words[count - 1];
    if (strncmp(program, "fuel-", 5) == 0) {
        command = command_named(program + 5);
    } else if (count == 2 || (count == 3 && strcmp(words[1], "help") == 0)) {
        command_names(completion, count == 2);
        return;
    } else {
        command = command_named(words[1]);
        words++;
        count--;
    }
    if (command == NULL || command->line == NULL)
        printf("files\n");
    else
        command_complete(command->line, words + 1, count - 1, completion);
}

int cmd_complete(int argc, char **argv, const struct typed_command *typed)
{
    (void)typed;
    struct fuel_config config = {0};
    struct extra_converters extras = {0};
    struct completion completion = {.current = "", .lead = "", .extras = &extras};
    /* Extras complete when the config is sound; built-ins always do. */
    if (config_load(&config) == EXIT_OK &&
        dataset_registry_load(config.extra_downloaders.items,
                              config.extra_downloaders.count) == EXIT_OK)
        extra_converters_find(&extras, config.extra_converters.items,
                              config.extra_converters.count);
    error_clear();
    if (argc >= 3)
        words_complete(argv + 1, argc - 1, &completion);
    else
        printf("words\n");
    extra_converters_free(&extras);
    dataset_registry_free();
    config_free(&config);
    return fflush(stdout) == 0 ? EXIT_OK : EXIT_WRITE;
}
