/* fuel __complete WORDS...: the candidates for the last of WORDS (the word being completed), read
   with the parser's own tokenizer from the command table and each command's option tables (a
   dataset's too, once named), so that commands, options, dataset names and formats (extras from
   the config included) complete without the scripts of fuel-completion(1) knowing any of them.
   Prints the kind ("words", "files" or "directories"), then one candidate a line. */
#include "common/base/config.h"
#include "common/base/error.h"
#include "cmd/file_resolve.h"
#include "commands.h"
#include "dataset_arguments.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct command_line complete_command_line = {
    .positional_usage = "WORDS...",
    .maximum_positionals = (size_t)-1,
    .verbatim = true,
};

/* The word being completed, and what its candidates must start with. */
struct completion {
    const char *current; /* the part candidates are matched against */
    const char *lead;    /* printed before each candidate: "--dtype=" (zsh) or "=" (bash) */
    const struct extra_converters *extras;
};

/* What the words before the current one leave: the tables, the dataset, a pending option. */
struct scan {
    const struct command_line *line;
    struct option_tables tables;
    const char *positionals[2]; /* the dataset and its format, when given */
    size_t positional_count;
    bool waiting; /* the current word is the value of the last option */
    const struct command_option *pending; /* that option, NULL when no table has it */
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

/* Every dataset name, once: the datasets (manifests included), then the extra converters. */
static void dataset_names(const struct completion *completion)
{
    const struct dataset *const *list = dataset_list();
    for (size_t index = 0; list[index] != NULL; index++)
        if (index == 0 || strcmp(list[index - 1]->name, list[index]->name) != 0)
            candidate(completion, list[index]->name);
    for (size_t index = 0; index < completion->extras->count; index++) {
        const struct dataset *record;
        if (dataset_find(completion->extras->items[index].name, NULL, &record) == DATASET_UNKNOWN)
            candidate(completion, completion->extras->items[index].name);
    }
}

/* Whether NAME ends as an HDF5 file's name does. */
static bool hdf5_name(const char *name)
{
    const char *dot = strrchr(name, '.');
    return dot != NULL && (strcmp(dot, ".hdf5") == 0 || strcmp(dot, ".h5") == 0 ||
                           strcmp(dot, ".hdf") == 0);
}

/* What a FILE|NAME argument resolves to besides the files the shell offers: each HDF5 file of
   the data path by name, and each dataset name whose converted file is there (file_resolve). */
static void resolvable_names(const struct completion *completion)
{
    struct fuel_config config = {0};
    if (config_load(&config) == EXIT_OK)
        for (size_t index = 0; index < config.data_path.count; index++) {
            DIR *listing = opendir(config.data_path.items[index]);
            for (struct dirent *entry; listing != NULL && (entry = readdir(listing)) != NULL;)
                if (entry->d_name[0] != '.' && hdf5_name(entry->d_name))
                    candidate(completion, entry->d_name);
            if (listing != NULL)
                closedir(listing);
        }
    config_free(&config);
    const struct dataset *const *list = dataset_list();
    for (size_t index = 0; list[index] != NULL; index++)
        if ((index == 0 || strcmp(list[index - 1]->name, list[index]->name) != 0) &&
            file_resolves(list[index]->name))
            candidate(completion, list[index]->name);
    error_clear();
}

/* The formats of dataset NAME. */
static void dataset_formats(const struct completion *completion, const char *name)
{
    const struct dataset *const *list = dataset_list();
    for (size_t index = 0; list[index] != NULL; index++)
        if (strcmp(list[index]->name, name) == 0 && list[index]->variant != NULL)
            candidate(completion, list[index]->variant);
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
    if (kind == COMPLETE_DATASET)
        dataset_names(completion);
    if (kind == COMPLETE_FILE_OR_DATASET)
        resolvable_names(completion);
}

static void option_names(const struct completion *completion, const struct option_tables *tables)
{
    char word[80];
    printf("words\n");
    for (size_t group = 0; group < tables->count; group++)
        for (size_t index = 0; index < tables->tables[group].count; index++) {
            const struct command_option *option = &tables->tables[group].options[index];
            snprintf(word, sizeof word, "-%c", option->short_name);
            if (option->short_name != 0)
                candidate(completion, word);
            snprintf(word, sizeof word, "--%s", option->long_name ? option->long_name : "");
            if (option->long_name != NULL)
                candidate(completion, word);
        }
    candidate(completion, "-h");
    candidate(completion, "--help");
}

static void positional_complete(const struct completion *completion, const struct scan *scan)
{
    const struct command_line *line = scan->line;
    if (line->dataset == DATASET_NONE) {
        kind_complete(completion, line->positional_completion, line->positional_choices);
        return;
    }
    printf("words\n");
    if (scan->positional_count == 0)
        dataset_names(completion);
    else if (scan->positional_count == 1)
        dataset_formats(completion, scan->positionals[0]);
}

/* The record of the dataset the words name (its format's, else its first), for its options. */
static const struct dataset *scanned_record(const struct scan *scan)
{
    const struct dataset *record = NULL;
    if (scan->line->dataset == DATASET_NONE || scan->positional_count == 0)
        return NULL;
    const char *format = scan->positional_count > 1 ? scan->positionals[1] : NULL;
    if (dataset_find(scan->positionals[0], format, &record) != DATASET_FOUND)
        dataset_find(scan->positionals[0], NULL, &record);
    return record;
}

/* Reads WORDS with the parser's tokenizer: the positionals, and the option left waiting for its
   value (the current word) by the last word. */
static void tokens_read(struct scan *scan, char **words, int count)
{
    struct tokenizer tokenizer;
    struct token token;
    bool pass_unknown = scan->line->dataset_options && scan->tables.count == 1;
    tokenizer_start(&tokenizer, &scan->tables, pass_unknown, count, words);
    scan->positional_count = 0;
    scan->waiting = false;
    scan->pending = NULL;
    while (tokenizer_next(&tokenizer, &token)) {
        if (token.kind == TOKEN_POSITIONAL && scan->positional_count < 2)
            scan->positionals[scan->positional_count] = token.value;
        scan->positional_count += token.kind == TOKEN_POSITIONAL;
        if (token.value_missing) {
            scan->waiting = true;
            scan->pending = token.option;
        }
    }
}

/* The words before the current one as the parser reads them: bash splits --dtype=fl into
   --dtype, =, fl, which are joined again into BEFORE (kept alive in JOINED). */
static int words_before(char **words, int count, char **before, char **joined)
{
    int kept = 0;
    for (int index = 0; index < count; index++) {
        bool split = index + 2 < count && strcmp(words[index + 1], "=") == 0 &&
                     strncmp(words[index], "--", 2) == 0;
        if (split && asprintf(&joined[index], "%s=%s", words[index], words[index + 2]) >= 0) {
            before[kept++] = joined[index];
            index += 2;
        } else {
            before[kept++] = words[index];
        }
    }
    return kept;
}

/* The candidates after the scan: the pending option's value, an option's "--name=" value, option
   names, or a positional. */
static void candidates_print(struct completion *completion, const struct scan *scan)
{
    const char *current = completion->current, *equals = strchr(current, '=');
    char lead[160];
    if (scan->waiting && scan->pending != NULL) {
        kind_complete(completion, scan->pending->completion, scan->pending->choices);
    } else if (scan->waiting) {
        printf("words\n");
    } else if (current[0] == '-' && current[1] == '-' && equals != NULL) {
        snprintf(lead, sizeof lead, "%.*s", (int)(equals - current + 1), current);
        completion->lead = lead;
        completion->current = equals + 1;
        lead[strlen(lead) - 1] = '\0';
        const struct command_option *option = options_find(&scan->tables, lead, NULL);
        lead[strlen(lead)] = '=';
        if (option != NULL && option_takes_value(option))
            kind_complete(completion, option->completion, option->choices);
        else
            printf("words\n");
    } else if (current[0] == '-') {
        option_names(completion, &scan->tables);
    } else {
        positional_complete(completion, scan);
    }
}

/* WORDS after the command's name, the last the one completed. */
static void command_complete(const struct command_line *line, char **words, int count,
                             struct completion *completion)
{
    int before_count = count - 1;
    completion->current = words[count - 1];
    if (strcmp(words[count - 1], "=") == 0 && count >= 2 &&
        strncmp(words[count - 2], "--", 2) == 0) {
        completion->lead = "=";
        completion->current = "";
    } else if (count >= 3 && strcmp(words[count - 2], "=") == 0 &&
               strncmp(words[count - 3], "--", 2) == 0) {
        before_count = count - 2;
    }
    char **before = calloc((size_t)count + 1, sizeof *before);
    char **joined = calloc((size_t)count + 1, sizeof *joined);
    if (before == NULL || joined == NULL) {
        free(before);
        free(joined);
        return;
    }
    int kept = words_before(words, before_count, before, joined);
    struct scan scan = {.line = line};
    command_tables(line, NULL, NULL, NULL, &scan.tables);
    tokens_read(&scan, before, kept);
    command_tables(line, scanned_record(&scan), NULL, NULL, &scan.tables);
    tokens_read(&scan, before, kept);
    candidates_print(completion, &scan);
    for (int index = 0; index < count; index++)
        free(joined[index]);
    free(joined);
    free(before);
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

static bool is_help(const char *word)
{
    return strcmp(word, "help") == 0 || strcmp(word, "-h") == 0 || strcmp(word, "--help") == 0;
}

/* A listed command called NAME; NULL when none. */
static const struct command *listed_command(const char *name)
{
    const struct command *command = command_find(name);
    return command != NULL && command->summary != NULL ? command : NULL;
}

/* WORDS[0] is the program as typed (fuel, or fuel-NAME), the last word the one completed. */
static void words_complete(char **words, int count, struct completion *completion)
{
    const char *slash = strrchr(words[0], '/');
    const char *program = slash != NULL ? slash + 1 : words[0];
    const struct command *command = NULL;
    completion->current = words[count - 1];
    if (strncmp(program, "fuel-", 5) == 0) {
        command = listed_command(program + 5);
    } else if (count == 2 || (count == 3 && is_help(words[1]))) {
        command_names(completion, count == 2);
        return;
    } else {
        command = listed_command(words[1]);
        words++;
        count--;
    }
    if (command == NULL)
        printf("files\n");
    else
        command_complete(command->line, words + 1, count - 1, completion);
}

int complete_body(const struct command_run *run)
{
    struct dataset_choice choice = {0};
    struct completion completion = {.current = "", .lead = "", .extras = &choice.extras};
    /* Extras complete when the config is sound; built-ins always do. */
    dataset_choice_load(true, &choice);
    error_clear();
    const struct parsed_arguments *parsed = run->parsed;
    if (parsed->positional_count >= 2)
        words_complete((char **)parsed->positionals, (int)parsed->positional_count, &completion);
    else
        printf("words\n");
    dataset_choice_free(&choice);
    return fflush(stdout) == 0 ? EXIT_OK : EXIT_WRITE;
}
