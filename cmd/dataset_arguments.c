/* Reads NAME [FORMAT] and the dataset options passed on, the same way for every command. */
#include "dataset_arguments.h"

#include "common/base/error.h"
#include "usage.h"

int dataset_arguments_read(const char *program, const struct parsed_arguments *parsed,
                           struct dataset_arguments *dataset)
{
    *dataset = (struct dataset_arguments){0};
    size_t taken = 0;
    if (parsed->positional_count > 0)
        dataset->name = parsed->positionals[taken++];
    if (dataset->name != NULL && parsed->positional_count > 1 &&
        dataset_has_formats(dataset->name))
        dataset->format = parsed->positionals[taken++];
    if (parsed->help)
        return EXIT_OK;
    if (dataset->name == NULL)
        return usage_error(program, "missing dataset name");
    if (taken < parsed->positional_count)
        return usage_error(program, "unexpected argument: %s", parsed->positionals[taken]);
    return EXIT_OK;
}

int dataset_options_apply(const char *program, const struct parsed_arguments *parsed,
                          struct conversion_request *request)
{
    const struct converter *converter = request->dataset->converter;
    for (size_t index = 0; index < parsed->passed_count; index++) {
        const struct passed_option *passed = &parsed->passed[index];
        int option = converter_option_index(converter, passed->name);
        if (option < 0)
            return usage_error(program, "unknown option: %s", passed->name);
        if (passed->value == NULL)
            return usage_error(program, "option %s needs a value", passed->name);
        if (!converter_option_choose(converter, option, request->values, passed->value))
            return usage_error(program, "invalid choice: %s", passed->value);
    }
    return EXIT_OK;
}

size_t dataset_extra_words(const struct parsed_arguments *parsed, const char **words)
{
    size_t count = 0;
    for (size_t index = 0; index < parsed->word_count; index++)
        if (parsed->positional_count == 0 || parsed->words[index] != parsed->positionals[0])
            words[count++] = parsed->words[index];
    return count;
}
