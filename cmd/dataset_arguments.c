/* Resolves NAME [FORMAT] the same way for every dataset command: the record, or the extra
   converter, and one message per mistake. */
#include "dataset_arguments.h"

#include "common/base/error.h"
#include "common/base/suggest.h"
#include "usage.h"

#include <stdio.h>
#include <string.h>

int dataset_choice_load(bool extras, struct dataset_choice *choice)
{
    int result = config_load(&choice->config);
    if (result == EXIT_OK)
        result = dataset_registry_load(choice->config.extra_downloaders.items,
                                       choice->config.extra_downloaders.count);
    if (result == EXIT_OK && extras)
        result = extra_converters_find(&choice->extras, choice->config.extra_converters.items,
                                       choice->config.extra_converters.count);
    return result;
}

void dataset_choice_free(struct dataset_choice *choice)
{
    extra_converters_free(&choice->extras);
    dataset_registry_free();
    config_free(&choice->config);
}

void dataset_label(const struct dataset *record, char *text, size_t size)
{
    snprintf(text, size, "%s%s%s", record->name, record->variant != NULL ? " " : "",
             record->variant != NULL ? record->variant : "");
}

static bool counts(enum dataset_argument kind, const struct dataset *record)
{
    return kind != DATASET_CONVERTER || dataset_converts(record);
}

/* "unknown dataset: mnsit; did you mean `mnist`?", or the datasets when none is close. */
static int unknown_dataset(const char *program, enum dataset_argument kind,
                           const struct dataset_choice *choice)
{
    const char *names[128];
    size_t count = 0;
    const struct dataset *const *list = dataset_list();
    struct suggestion suggestion;
    suggestion_begin(&suggestion, choice->name);
    for (size_t index = 0; list[index] != NULL && count < 128; index++)
        if (counts(kind, list[index]) &&
            (count == 0 || strcmp(names[count - 1], list[index]->name) != 0))
            names[count++] = list[index]->name;
    for (size_t index = 0; kind == DATASET_CONVERTER && index < choice->extras.count; index++)
        if (count < 128)
            names[count++] = choice->extras.items[index].name;
    for (size_t index = 0; index < count; index++)
        suggestion_offer(&suggestion, names[index]);
    char ending[1024], joined[960];
    if (!suggestion_text(&suggestion, ending, sizeof ending)) {
        names_join(joined, sizeof joined, names, count);
        snprintf(ending, sizeof ending, "datasets: %s", joined);
    }
    return usage_error_ending(program, ending, "unknown dataset: %s", choice->name);
}

static int format_error(const char *program, const struct dataset_choice *choice)
{
    char formats[128];
    dataset_format_list(choice->name, " or ", formats, sizeof formats);
    return usage_error(program, "%s needs a format, %s: %s", choice->name, formats,
                       choice->format != NULL ? choice->format : "none given");
}

static bool same_files(const struct dataset *one, const struct dataset *other)
{
    if (one->file_count != other->file_count)
        return false;
    for (size_t index = 0; index < one->file_count; index++) {
        const struct dataset_file *left = &one->files[index], *right = &other->files[index];
        if (strcmp(left->name, right->name) != 0 || left->size != right->size ||
            (left->checksum == NULL) != (right->checksum == NULL) ||
            (left->checksum != NULL && strcmp(left->checksum, right->checksum) != 0))
            return false;
    }
    return true;
}

/* NAME's first format when all its formats have the same files, else NULL. */
static const struct dataset *shared_files(const char *name)
{
    const struct dataset *const *list = dataset_list();
    const struct dataset *first = NULL;
    for (size_t index = 0; list[index] != NULL; index++) {
        if (strcmp(list[index]->name, name) != 0)
            continue;
        if (first == NULL)
            first = list[index];
        else if (!same_files(first, list[index]))
            return NULL;
    }
    return first;
}

int dataset_choice_resolve(const char *program, enum dataset_argument kind,
                           const char *const *positionals, size_t count, bool help,
                           struct dataset_choice *choice)
{
    if (count == 0)
        return EXIT_OK;
    choice->name = positionals[0];
    choice->taken = 1;
    if (count > 1 && dataset_has_formats(choice->name))
        choice->format = positionals[choice->taken++];
    choice->extra = extra_converter_find(&choice->extras, choice->name);
    switch (dataset_find(choice->name, choice->format, &choice->record)) {
    case DATASET_FOUND:
        break;
    case DATASET_FORMAT_MISSING:
        if (kind == DATASET_FILES && !help && (choice->record = shared_files(choice->name)) != NULL)
            break;
        return help ? EXIT_OK : format_error(program, choice);
    case DATASET_FORMAT_UNKNOWN:
        return format_error(program, choice);
    default:
        if (kind == DATASET_CONVERTER && choice->extra != NULL)
            return EXIT_OK;
        return unknown_dataset(program, kind, choice);
    }
    if (dataset_converts(choice->record))
        choice->extra = NULL;
    else if (kind == DATASET_CONVERTER && choice->extra == NULL)
        return unknown_dataset(program, kind, choice);
    return EXIT_OK;
}

const struct converter *dataset_choice_converter(const struct dataset_choice *choice)
{
    if (choice->extra != NULL || choice->record == NULL || !dataset_converts(choice->record))
        return NULL;
    return choice->record->converter;
}

size_t dataset_extra_words(const struct parsed_arguments *parsed, const char **words)
{
    size_t count = 0;
    for (size_t index = 0; index < parsed->word_count; index++)
        if (parsed->positional_count == 0 || parsed->words[index] != parsed->positionals[0])
            words[count++] = parsed->words[index];
    return count;
}
