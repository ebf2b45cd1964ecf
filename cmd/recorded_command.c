/* Reads the argv a file's provenance records into the fuel command it ran and its arguments. */
#include "recorded_command.h"

#include "common/base/error.h"
#include "downloaders/dataset_registry.h"

#include <stdlib.h>
#include <string.h>

static int argv_copy(json_t *argv, struct recorded_command *recorded)
{
    size_t count = json_array_size(argv), index;
    json_t *word;
    if (!json_is_array(argv) || count == 0 || count > 4096)
        return error_set(EXIT_CORRUPT_INPUT, "no argv: a list of 1 to 4096 strings");
    json_array_foreach(argv, index, word)
        if (!json_is_string(word))
            return error_set(EXIT_CORRUPT_INPUT, "argv holds a %s, not a string",
                             json_is_null(word) ? "null" : "non-string value");
    recorded->argv = calloc(count + 1, sizeof *recorded->argv);
    if (recorded->argv == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    json_array_foreach(argv, index, word) {
        if ((recorded->argv[index] = strdup(json_string_value(word))) == NULL)
            return error_set(EXIT_OTHER, "out of memory");
        recorded->argc = (int)index + 1;
    }
    return EXIT_OK;
}

/* "fuel convert ..." and "fuel-convert ..." (argv[0] as typed, a path or not). */
static void command_name(struct recorded_command *recorded)
{
    const char *slash = strrchr(recorded->argv[0], '/');
    const char *program = slash != NULL ? slash + 1 : recorded->argv[0], *name = NULL;
    if (strcmp(program, "fuel") == 0 && recorded->argc > 1) {
        name = recorded->argv[1];
        recorded->offset = 1;
    } else if (strncmp(program, "fuel-", 5) == 0) {
        name = program + 5;
    }
    if (name != NULL && strlen(name) < sizeof recorded->name)
        strcpy(recorded->name, name);
    const struct command *command = recorded->name[0] != '\0' ? command_find(recorded->name)
                                                              : NULL;
    recorded->command = command != NULL && command->summary != NULL ? command : NULL;
}

int recorded_command_read(const char *provenance_text, struct recorded_command *recorded)
{
    *recorded = (struct recorded_command){0};
    json_error_t failure;
    recorded->text = provenance_text;
    recorded->provenance = provenance_head_parse(provenance_text, JSON_REJECT_DUPLICATES, &failure,
                                                 &recorded->inputs);
    if (!json_is_object(recorded->provenance))
        return error_set(EXIT_CORRUPT_INPUT, "not a JSON object: %s",
                         recorded->provenance == NULL ? failure.text : "another JSON value");
    struct provenance_inputs first = recorded->inputs;
    if (provenance_inputs_next(&first, &recorded->first_input, &failure) < 0)
        return error_set(EXIT_CORRUPT_INPUT, "not a JSON object: %s", failure.text);
    int result = argv_copy(json_object_get(recorded->provenance, "argv"), recorded);
    if (result == EXIT_OK)
        command_name(recorded);
    return result;
}

const struct dataset *recorded_command_dataset(const struct recorded_command *recorded)
{
    if (recorded->command == NULL || recorded->command->line->dataset == DATASET_NONE)
        return NULL;
    const char *positionals[2];
    bool help;
    int offset = recorded->offset + 1;
    size_t count = command_positionals(recorded->command->line, recorded->argc - offset,
                                       recorded->argv + offset, positionals, &help);
    const struct dataset *record = NULL;
    if (count > 0 && dataset_find(positionals[0],
                                  count > 1 && dataset_has_formats(positionals[0])
                                      ? positionals[1]
                                      : NULL,
                                  &record) != DATASET_FOUND)
        record = NULL;
    return record;
}

void recorded_command_free(struct recorded_command *recorded)
{
    for (int index = 0; recorded->argv != NULL && index < recorded->argc; index++)
        free(recorded->argv[index]);
    free(recorded->argv);
    json_decref(recorded->provenance);
    json_decref(recorded->first_input);
    *recorded = (struct recorded_command){0};
}
