/* libFuzzer target: a fuel_provenance as fuel-reproduce reads it before making anything: its
   created time and its inputs (names that must stay plain file names, sizes, sha256s). */
#include "converters/reproduce_parts.h"
#include "common/base/error.h"

#include <jansson.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    json_t *provenance = json_loadb((const char *)data, size, 0, NULL);
    const char *created = json_string_value(json_object_get(provenance, "created"));
    int64_t seconds = reproduce_created_seconds(created);
    struct reproduce_outcome outcome = {0};
    size_t total = 0;
    if (reproduce_inputs_read(provenance, "fuzz", &outcome) == EXIT_OK)
        for (size_t index = 0; index < outcome.input_count; index++) {
            const char *name = outcome.inputs[index].name;
            if (strchr(name, '/') != NULL || strcmp(name, "..") == 0 ||
                strlen(outcome.inputs[index].sha256) != 64)
                __builtin_trap();
            total += strlen(name);
        }
    error_clear();
    reproduce_outcome_free(&outcome);
    json_decref(provenance);
    return total == (size_t)-1 && seconds == -2;
}
