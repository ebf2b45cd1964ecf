/* The list of built-in downloaders and lookups by name and format variant. */
#include "downloader.h"

#include <string.h>

extern const struct downloader mnist_downloader;
extern const struct downloader fashion_mnist_downloader;
extern const struct downloader binarized_mnist_downloader;
extern const struct downloader cifar10_downloader;
extern const struct downloader cifar100_downloader;
extern const struct downloader svhn_format_1_downloader;
extern const struct downloader svhn_format_2_downloader;
extern const struct downloader iris_downloader;

const struct downloader *const downloaders[] = {
    &binarized_mnist_downloader,
    &cifar10_downloader,
    &cifar100_downloader,
    &fashion_mnist_downloader,
    &iris_downloader,
    &mnist_downloader,
    &svhn_format_1_downloader,
    &svhn_format_2_downloader,
    NULL,
};

static int variant_matches(const struct downloader *downloader, const char *variant)
{
    if (downloader->variant == NULL || variant == NULL)
        return downloader->variant == NULL && variant == NULL;
    return strcmp(downloader->variant, variant) == 0;
}

const struct downloader *downloader_find(const char *name, const char *variant)
{
    for (size_t index = 0; downloaders[index] != NULL; index++)
        if (strcmp(downloaders[index]->name, name) == 0 && variant_matches(downloaders[index], variant))
            return downloaders[index];
    return NULL;
}

int downloader_has_variants(const char *name)
{
    for (size_t index = 0; downloaders[index] != NULL; index++)
        if (strcmp(downloaders[index]->name, name) == 0 && downloaders[index]->variant != NULL)
            return 1;
    return 0;
}
