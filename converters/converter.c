/* The helpers around a dataset's converter: option defaults and choices, input names and paths,
   the output file name. */
#include "converter.h"

#include "downloaders/dataset.h"

#include <stdio.h>
#include <string.h>

void converter_values_default(const struct converter *converter,
                              const char *values[CONVERTER_MAX_OPTIONS])
{
    for (size_t index = 0; index < converter->option_count; index++)
        values[index] = converter->options[index].default_value;
}

void converter_list_inputs(const struct dataset *dataset, struct converter_inputs *inputs)
{
    inputs->count = dataset->converter->input_count;
    for (size_t index = 0; index < inputs->count; index++)
        inputs->names[index] = dataset->files[dataset->converter->inputs[index]].name;
}

void converter_input_path(const struct converter_arguments *arguments, size_t file, char *path,
                          size_t size)
{
    snprintf(path, size, "%s/%s", arguments->input_directory, arguments->dataset->files[file].name);
}

void converter_name_output(const struct converter *converter,
                           const struct converter_arguments *arguments, char *name, size_t size)
{
    if (converter->output_name != NULL)
        converter->output_name(arguments, name, size);
    else
        snprintf(name, size, "%s", converter->output_file);
}

int converter_option_index(const struct converter *converter, const char *name)
{
    for (size_t index = 0; index < converter->option_count; index++)
        if (strcmp(converter->options[index].name, name) == 0)
            return (int)index;
    return -1;
}

bool converter_option_choose(const struct converter *converter, int index,
                             const char *values[CONVERTER_MAX_OPTIONS], const char *value)
{
    const char *const *choices = converter->options[index].choices;
    for (size_t choice = 0; choices[choice] != NULL; choice++)
        if (strcmp(choices[choice], value) == 0) {
            values[index] = choices[choice];
            return true;
        }
    return false;
}

void converter_report_stage(const struct converter_arguments *arguments, const char *label,
                            uint64_t total)
{
    if (arguments->progress != NULL)
        arguments->progress->stage(arguments->progress->context, label, total);
}

void converter_report_done(const struct converter_arguments *arguments, uint64_t done)
{
    if (arguments->progress != NULL)
        arguments->progress->advance(arguments->progress->context, done);
}
