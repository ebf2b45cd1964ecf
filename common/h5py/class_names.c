/* The names of a label source's classes, from the file (class_names.h says where they are). */
#include "class_names.h"

#include "common/base/error.h"
#include "h5py_examples.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int names_add(struct class_names *names, const char *text, size_t length)
{
    char *copy = strndup(text, length);
    if (copy == NULL)
        return error_set(EXIT_OTHER, "cannot read class names: out of memory");
    names->names[names->count++] = copy;
    return EXIT_OK;
}

/* SOURCE_classes, fixed-length strings, one per class. */
static int stored_names_read(const struct h5py_file *file, const char *dataset,
                             struct class_names *names)
{
    struct h5py_examples strings;
    int result = h5py_examples_open_strings(&strings, file, dataset);
    if (result != EXIT_OK)
        return result;
    uint64_t rows = strings.shape[0];
    char *buffer = NULL;
    if (!strings.is_string || strings.rank != 1 || rows > CLASS_NAMES_MAX)
        result = error_set(EXIT_CORRUPT_INPUT, "class names not one string per class: %s: %s",
                           dataset, file->path);
    else if ((buffer = malloc(rows * strings.element_size + 1)) == NULL ||
             (names->names = calloc(rows + 1, sizeof *names->names)) == NULL)
        result = error_set(EXIT_OTHER, "cannot read class names: out of memory");
    else
        result = h5py_examples_read(&strings, 0, rows, buffer);
    for (uint64_t row = 0; result == EXIT_OK && row < rows; row++) {
        const char *text = buffer + row * strings.element_size;
        result = names_add(names, text, strnlen(text, strings.element_size));
    }
    free(buffer);
    h5py_examples_close(&strings);
    return result;
}

/* The card's "classes" member for SOURCE: an array of strings. */
static int card_names_read(const char *card, const char *source, struct class_names *names)
{
    json_t *document = json_loads(card, 0, NULL);
    json_t *list = json_object_get(json_object_get(document, "classes"), source);
    size_t count = json_is_array(list) ? json_array_size(list) : 0;
    int result = EXIT_OK;
    if (count > 0 && count <= CLASS_NAMES_MAX &&
        (names->names = calloc(count + 1, sizeof *names->names)) == NULL)
        result = error_set(EXIT_OTHER, "cannot read class names: out of memory");
    for (size_t index = 0; names->names != NULL && result == EXIT_OK && index < count; index++) {
        const char *text = json_string_value(json_array_get(list, index));
        result = names_add(names, text == NULL ? "" : text, text == NULL ? 0 : strlen(text));
    }
    json_decref(document);
    return result;
}

int class_names_read(const struct h5py_file *file, const char *source, struct class_names *names)
{
    *names = (struct class_names){0};
    char dataset[512];
    snprintf(dataset, sizeof dataset, "%s_classes", source);
    int result = EXIT_OK;
    if (H5Lexists(file->handle, dataset, H5P_DEFAULT) > 0)
        result = stored_names_read(file, dataset, names);
    else if (h5py_file_attribute(file, "fuel_card") != NULL)
        result = card_names_read(h5py_file_attribute(file, "fuel_card"), source, names);
    if (result != EXIT_OK)
        class_names_free(names);
    return result;
}

const char *class_name(const struct class_names *names, size_t number)
{
    return number < names->count && names->names[number][0] != '\0' ? names->names[number] : NULL;
}

void class_names_free(struct class_names *names)
{
    for (size_t index = 0; index < names->count; index++)
        free(names->names[index]);
    free(names->names);
    *names = (struct class_names){0};
}
