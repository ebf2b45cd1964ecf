/* The helpers around a dataset's converter: option defaults, input names and paths, the output
   file name. */
#include "converter.h"

#include "common/base/error.h"
#include "downloaders/dataset.h"

#include <jansson.h>

#include <stdio.h>
#include <string.h>

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

void converter_report_stage(const struct converter_arguments *arguments, const char *label,
                            uint64_t total)
{
    if (arguments->progress != NULL)
        arguments->progress->stage(arguments->progress->context, label, total, "examples");
}

void converter_report_done(const struct converter_arguments *arguments, uint64_t done)
{
    if (arguments->progress != NULL)
        arguments->progress->advance(arguments->progress->context, done);
}

int converter_card_name_append(const struct converter_arguments *arguments, const char *member,
                               const char *source, const char *name)
{
    if (arguments->card == NULL)
        return EXIT_OK;
    json_t *classes = json_object_get(arguments->card, member);
    if (classes == NULL && json_object_set_new(arguments->card, member, classes = json_object()))
        return error_set(EXIT_OTHER, "cannot convert: out of memory");
    json_t *list = json_object_get(classes, source);
    if (list == NULL && json_object_set_new(classes, source, list = json_array()) != 0)
        return error_set(EXIT_OTHER, "cannot convert: out of memory");
    if (json_array_append_new(list, name != NULL ? json_string(name) : json_null()) != 0)
        return error_set(EXIT_OTHER, "cannot convert: out of memory");
    return EXIT_OK;
}

int converter_note_append(const struct converter_arguments *arguments, const char *key,
                          const char *value)
{
    if (arguments->notes == NULL)
        return EXIT_OK;
    json_t *list = json_object_get(arguments->notes, key);
    if (list == NULL) {
        list = json_array();
        if (list == NULL || json_object_set_new(arguments->notes, key, list) != 0)
            return error_set(EXIT_OTHER, "cannot convert: out of memory");
    }
    if (json_array_append_new(list, json_string(value)) != 0)
        return error_set(EXIT_OTHER, "cannot convert: out of memory");
    return EXIT_OK;
}
