/* libFuzzer target: a fuel_provenance as fuel-reproduce reads it before making anything, parsed
   under its size cap: its created time and its inputs walked one entry at a time (names that must stay plain file names, or
   for fuel pack relative paths whose only ".." lead them; sizes, sha256s). */
#include "reproduce/reproduce_steps.h"
#include "common/base/error.h"
#include "common/base/provenance_inputs.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

/* Whether NAME, accepted as a relative name, climbs only with its leading "../". */
static bool climbs_only_first(const char *name)
{
    while (strncmp(name, "../", 3) == 0)
        name += 3;
    return name[0] != '/' && name[0] != '\0' && strstr(name, "/../") == NULL &&
           strncmp(name, "../", 3) != 0 && strcmp(name, "..") != 0 && strstr(name, "//") == NULL &&
           strncmp(name, "./", 2) != 0 && strstr(name, "/./") == NULL;
}

static size_t inputs_read(struct provenance_inputs inputs, bool relative_names)
{
    struct reproduce_outcome outcome = {0};
    size_t total = 0;
    if (reproduce_inputs_read(&inputs, "fuzz", relative_names, &outcome) == EXIT_OK)
        for (size_t index = 0; index < outcome.input_count; index++) {
            const char *name = outcome.inputs[index].name;
            bool plain = strchr(name, '/') == NULL && strcmp(name, "..") != 0;
            if (!(relative_names ? climbs_only_first(name) : plain) ||
                strlen(outcome.inputs[index].sha256) != 64)
                __builtin_trap();
            total += strlen(name);
        }
    error_clear();
    reproduce_outcome_free(&outcome);
    return total;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    char *text = malloc(size + 1);
    if (text == NULL)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    struct provenance_inputs inputs;
    json_t *provenance = provenance_head_parse(text, 0, NULL, &inputs);
    const char *created = json_string_value(json_object_get(provenance, "created"));
    int64_t seconds = reproduce_created_seconds(created);
    size_t total = inputs_read(inputs, false) + inputs_read(inputs, true);
    json_decref(provenance);
    free(text);
    return total == (size_t)-1 && seconds == -2;
}
