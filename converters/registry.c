/* The list of built-in converters. */
#include "converter.h"

#include <stdio.h>
#include <string.h>

extern const struct converter mnist_converter;
extern const struct converter fashion_mnist_converter;
extern const struct converter cifar10_converter;
extern const struct converter cifar100_converter;
extern const struct converter binarized_mnist_converter;
extern const struct converter iris_converter;
extern const struct converter svhn_format_1_converter;
extern const struct converter svhn_format_2_converter;

const struct converter *const converters[] = {
    &mnist_converter,
    &fashion_mnist_converter,
    &cifar10_converter,
    &cifar100_converter,
    &binarized_mnist_converter,
    &iris_converter,
    &svhn_format_1_converter,
    &svhn_format_2_converter,
    NULL,
};

const struct converter *converter_find_variant(const char *name, const char *variant)
{
    for (size_t index = 0; converters[index] != NULL; index++) {
        const struct converter *converter = converters[index];
        if (strcmp(converter->name, name) == 0 &&
            (converter->variant == NULL ||
             (variant != NULL && strcmp(converter->variant, variant) == 0)))
            return converter;
    }
    return NULL;
}

void converter_set_defaults(const struct converter *converter,
                            struct converter_arguments *arguments)
{
    for (size_t index = 0; index < converter->option_count; index++)
        arguments->values[index] = converter->options[index].default_value;
}

void converter_list_inputs(const struct converter *converter,
                           const struct converter_arguments *arguments,
                           struct converter_inputs *inputs)
{
    if (converter->inputs != NULL) {
        converter->inputs(arguments, inputs);
        return;
    }
    inputs->count = converter->input_count;
    for (size_t index = 0; index < converter->input_count; index++)
        inputs->names[index] = converter->input_names[index];
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
                             struct converter_arguments *arguments, const char *value)
{
    const char *const *choices = converter->options[index].choices;
    for (size_t choice = 0; choices[choice] != NULL; choice++)
        if (strcmp(choices[choice], value) == 0) {
            arguments->values[index] = choices[choice];
            return true;
        }
    return false;
}

const struct converter *converter_find(const char *name)
{
    for (size_t index = 0; converters[index] != NULL; index++)
        if (strcmp(converters[index]->name, name) == 0)
            return converters[index];
    return NULL;
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

unsigned converter_threads(const struct converter_arguments *arguments)
{
    return arguments->threads > 0 ? arguments->threads : 1;
}
