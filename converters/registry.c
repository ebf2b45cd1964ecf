/* The list of built-in converters. */
#include "converter.h"

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

const struct converter *converter_find(const char *name)
{
    for (size_t index = 0; converters[index] != NULL; index++)
        if (strcmp(converters[index]->name, name) == 0)
            return converters[index];
    return NULL;
}
