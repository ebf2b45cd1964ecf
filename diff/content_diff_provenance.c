/* The provenance section of the content diff, listed but not counted: the fuel_provenance entries
   (the command as typed, each input by name, each library, the creation time, any other entry)
   and the other string root attributes that differ. */
#include "content_diff_steps.h"

#include "common/base/error.h"
#include "common/base/provenance_inputs.h"

#include <stdio.h>

#include <stdlib.h>
#include <string.h>

/* The most inputs compared by name (each name looked up in the other list); longer lists are
   walked side by side, their difference one line. */
#define DIFF_INPUTS_BY_NAME 4096

static const char *const main_keys[] = {"argv", "inputs", "libraries", "created"};

/* VALUE as text: a string as it is, anything else as compact JSON; NULL for no value. */
static char *value_text(json_t *value)
{
    if (value == NULL)
        return NULL;
    if (json_is_string(value))
        return strdup(json_string_value(value));
    return json_dumps(value, JSON_COMPACT | JSON_ENCODE_ANY);
}

/* Adds the difference between LEFT and RIGHT (either may be NULL) unless they are equal. */
static int values_compare(struct content_diff_report *report, const char *key, const char *name,
                          const char *property, json_t *left, json_t *right)
{
    if (left == NULL && right == NULL)
        return EXIT_OK;
    if (left != NULL && right != NULL && json_equal(left, right))
        return EXIT_OK;
    char *texts[2] = {value_text(left), value_text(right)};
    int result = (left != NULL && texts[0] == NULL) || (right != NULL && texts[1] == NULL)
                     ? error_set(EXIT_OTHER, "cannot compare: out of memory")
                     : diff_provenance_add(report, key, name, property, texts[0], texts[1]);
    free(texts[0]);
    free(texts[1]);
    return result;
}

/* The argv joined with spaces, as typed; another value as text. */
static json_t *command_of(json_t *argv)
{
    if (!json_is_array(argv))
        return json_incref(argv);
    size_t length = 1, index;
    json_t *word;
    json_array_foreach(argv, index, word)
        length += strlen(json_is_string(word) ? json_string_value(word) : "?") + 1;
    char *text = calloc(1, length);
    json_array_foreach(argv, index, word)
        if (text != NULL) {
            if (index > 0)
                strcat(text, " ");
            strcat(text, json_is_string(word) ? json_string_value(word) : "?");
        }
    json_t *joined = text != NULL ? json_string(text) : NULL;
    free(text);
    return joined;
}

static int command_compare(struct content_diff_report *report, json_t *left, json_t *right)
{
    json_t *commands[2] = {command_of(json_object_get(left, "argv")),
                           command_of(json_object_get(right, "argv"))};
    int result = values_compare(report, "command", NULL, NULL, commands[0], commands[1]);
    json_decref(commands[0]);
    json_decref(commands[1]);
    return result;
}

static json_t *input_named(json_t *inputs, const char *name)
{
    size_t index;
    json_t *input;
    json_array_foreach(inputs, index, input) {
        const char *found = json_string_value(json_object_get(input, "name"));
        if (found != NULL && strcmp(found, name) == 0)
            return input;
    }
    return NULL;
}

/* Each property of two inputs of one name; an input one side lacks, whole. */
static int input_compare(struct content_diff_report *report, const char *name, json_t *left,
                         json_t *right)
{
    if (left == NULL || right == NULL)
        return values_compare(report, "inputs", name, NULL, left, right);
    const char *key;
    json_t *value;
    int result = EXIT_OK;
    json_object_foreach(left, key, value)
        if (result == EXIT_OK && strcmp(key, "name") != 0)
            result = values_compare(report, "inputs", name, key, value,
                                    json_object_get(right, key));
    json_object_foreach(right, key, value)
        if (result == EXIT_OK && json_object_get(left, key) == NULL)
            result = values_compare(report, "inputs", name, key, NULL, value);
    return result;
}

/* The inputs of both lists, by name: the left's in order, then those only the right has. */
static int inputs_each_compare(struct content_diff_report *report, json_t *const lists[2])
{
    int result = EXIT_OK;
    for (int side = 0; side < 2; side++) {
        size_t index;
        json_t *input;
        json_array_foreach(lists[side], index, input) {
            const char *name = json_string_value(json_object_get(input, "name"));
            if (result != EXIT_OK || name == NULL ||
                (side == 1 && input_named(lists[0], name) != NULL))
                continue;
            json_t *other = input_named(lists[1 - side], name);
            result = side == 0 ? input_compare(report, name, input, other)
                               : input_compare(report, name, NULL, input);
        }
    }
    return result;
}

/* ENTRY's KEY, EMPTY when ENTRY has none (a file without provenance lists nothing). */
static json_t *entry_or(json_t *entry, const char *key, json_t *empty)
{
    json_t *value = json_object_get(entry, key);
    return value != NULL ? value : empty;
}

static int inputs_compare(struct content_diff_report *report, json_t *left, json_t *right)
{
    json_t *empty = json_array();
    json_t *lists[2] = {entry_or(left, "inputs", empty), entry_or(right, "inputs", empty)};
    int result = EXIT_OK;
    if (!json_is_array(lists[0]) || !json_is_array(lists[1]))
        result = values_compare(report, "inputs", NULL, NULL, json_object_get(left, "inputs"),
                                json_object_get(right, "inputs"));
    else
        result = inputs_each_compare(report, lists);
    json_decref(empty);
    return result;
}

/* The members of both objects, by name: the left's in order, then those only the right has. */
static int members_each_compare(struct content_diff_report *report, const char *key,
                                json_t *const objects[2])
{
    const char *name;
    json_t *value;
    int result = EXIT_OK;
    json_object_foreach(objects[0], name, value)
        if (result == EXIT_OK)
            result = values_compare(report, key, name, NULL, value,
                                    json_object_get(objects[1], name));
    json_object_foreach(objects[1], name, value)
        if (result == EXIT_OK && json_object_get(objects[0], name) == NULL)
            result = values_compare(report, key, name, NULL, NULL, value);
    return result;
}

/* Each member of the objects KEY of LEFT and RIGHT, by name; values of another type whole. */
static int members_compare(struct content_diff_report *report, const char *key, json_t *left,
                           json_t *right)
{
    json_t *empty = json_object();
    json_t *objects[2] = {entry_or(left, key, empty), entry_or(right, key, empty)};
    int result = !json_is_object(objects[0]) || !json_is_object(objects[1])
                     ? values_compare(report, key, NULL, NULL, json_object_get(left, key),
                                      json_object_get(right, key))
                     : members_each_compare(report, key, objects);
    json_decref(empty);
    return result;
}

static bool main_key(const char *key)
{
    for (size_t index = 0; index < sizeof main_keys / sizeof main_keys[0]; index++)
        if (strcmp(key, main_keys[index]) == 0)
            return true;
    return false;
}

static int other_entries_compare(struct content_diff_report *report, json_t *left, json_t *right)
{
    const char *key;
    json_t *value;
    int result = EXIT_OK;
    json_object_foreach(left, key, value)
        if (result == EXIT_OK && !main_key(key))
            result = values_compare(report, key, NULL, NULL, value, json_object_get(right, key));
    json_object_foreach(right, key, value)
        if (result == EXIT_OK && !main_key(key) && json_object_get(left, key) == NULL)
            result = values_compare(report, key, NULL, NULL, NULL, value);
    return result;
}

static int entries_compare(struct content_diff_report *report, json_t *left, json_t *right)
{
    int result = command_compare(report, left, right);
    if (result == EXIT_OK)
        result = inputs_compare(report, left, right);
    if (result == EXIT_OK)
        result = members_compare(report, "libraries", left, right);
    if (result == EXIT_OK)
        result = values_compare(report, "created", NULL, NULL, json_object_get(left, "created"),
                                json_object_get(right, "created"));
    if (result == EXIT_OK)
        result = other_entries_compare(report, left, right);
    return result;
}

static int attributes_compare(struct content_diff_report *report, const struct h5py_file *left,
                              const struct h5py_file *right)
{
    const struct h5py_file *files[2] = {left, right};
    int result = EXIT_OK;
    for (int side = 0; side < 2 && result == EXIT_OK; side++)
        for (size_t index = 0; result == EXIT_OK && index < files[side]->attribute_count; index++) {
            const struct h5py_attribute *attribute = &files[side]->attributes[index];
            const char *other = h5py_file_attribute(files[1 - side], attribute->name);
            if (strcmp(attribute->name, "fuel_provenance") == 0 || (side == 1 && other != NULL) ||
                (other != NULL && strcmp(other, attribute->value) == 0))
                continue;
            result = diff_provenance_add(report, "attribute", attribute->name, NULL,
                                         side == 0 ? attribute->value : other,
                                         side == 0 ? other : attribute->value);
        }
    return result;
}

/* The parsed fuel_provenance of FILE, an empty object when it has none, its inputs list cut to
   DIFF_INPUTS_BY_NAME entries of *INPUTS; NULL when it is not a JSON object (its text is then
   compared whole). */
static json_t *provenance_parse(const struct h5py_file *file, size_t *inputs)
{
    const char *text = h5py_file_attribute(file, "fuel_provenance");
    *inputs = 0;
    json_t *parsed = text != NULL ? provenance_bounded_parse(text, 0, NULL, DIFF_INPUTS_BY_NAME,
                                                             inputs, NULL, NULL)
                                  : json_object();
    if (parsed != NULL && !json_is_object(parsed)) {
        json_decref(parsed);
        return NULL;
    }
    return parsed;
}

/* Two lists, one longer than DIFF_INPUTS_BY_NAME, walked side by side: one line when they
   differ, and their entries taken out of PARSED (compared by name no more). */
static int long_inputs_compare(struct content_diff_report *report, json_t *const parsed[2],
                               const char *const texts[2], const size_t inputs[2])
{
    json_object_del(parsed[0], "inputs");
    json_object_del(parsed[1], "inputs");
    if (provenance_inputs_equal(texts[0], texts[1]))
        return EXIT_OK;
    char counts[2][48];
    snprintf(counts[0], sizeof counts[0], "%zu entries", inputs[0]);
    snprintf(counts[1], sizeof counts[1], "%zu %sentries", inputs[1],
             inputs[0] == inputs[1] ? "other " : "");
    return diff_provenance_add(report, "inputs", NULL, NULL, counts[0], counts[1]);
}

int diff_provenance(struct content_diff_report *report, const struct h5py_file *left,
                    const struct h5py_file *right)
{
    size_t inputs[2];
    json_t *parsed[2] = {provenance_parse(left, &inputs[0]), provenance_parse(right, &inputs[1])};
    const char *texts[2] = {h5py_file_attribute(left, "fuel_provenance"),
                            h5py_file_attribute(right, "fuel_provenance")};
    int result = EXIT_OK;
    if (parsed[0] != NULL && parsed[1] != NULL &&
        (inputs[0] > DIFF_INPUTS_BY_NAME || inputs[1] > DIFF_INPUTS_BY_NAME))
        result = long_inputs_compare(report, parsed, texts, inputs);
    if (result == EXIT_OK && parsed[0] != NULL && parsed[1] != NULL)
        result = entries_compare(report, parsed[0], parsed[1]);
    else if ((texts[0] == NULL) != (texts[1] == NULL) ||
             (texts[0] != NULL && strcmp(texts[0], texts[1]) != 0))
        result = diff_provenance_add(report, "fuel_provenance", NULL, NULL, texts[0], texts[1]);
    if (result == EXIT_OK)
        result = attributes_compare(report, left, right);
    json_decref(parsed[0]);
    json_decref(parsed[1]);
    return result;
}
