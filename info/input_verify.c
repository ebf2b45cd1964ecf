/* Verifies a converted file's raw inputs against the sizes and sha256 its provenance recorded. */
#include "input_verify.h"

#include "common/base/error.h"
#include "common/base/input_file.h"
#include "common/base/input_find.h"
#include "common/base/provenance_inputs.h"

#include <jansson.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *input_state_name(enum input_state state)
{
    static const char *const names[] = {"matching", "different", "missing", "not a regular file"};
    return names[state];
}

void input_reports_free(struct input_reports *reports)
{
    for (size_t index = 0; index < reports->count; index++) {
        free(reports->items[index].name);
        free(reports->items[index].path);
    }
    free(reports->items);
    reports->items = NULL;
    reports->count = 0;
}

static int input_report_fill(struct input_report *report, json_t *entry,
                             const char *file_path, const char *const *directories, size_t count)
{
    const char *name = json_string_value(json_object_get(entry, "name"));
    const char *sha256 = json_string_value(json_object_get(entry, "sha256"));
    json_t *size = json_object_get(entry, "size");
    if (name == NULL || sha256 == NULL || !json_is_integer(size) || json_integer_value(size) < 0 ||
        name[0] == '\0' || strlen(name) >= PATH_MAX / 2 || strlen(sha256) >= HASH_HEX_SIZE)
        return error_set(EXIT_CORRUPT_INPUT, "malformed provenance inputs: %s", file_path);
    if ((report->name = strdup(name)) == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    snprintf(report->recorded_sha256, sizeof report->recorded_sha256, "%s", sha256);
    report->recorded_size = (uint64_t)json_integer_value(size);
    struct input_wanted wanted = {name, report->recorded_size, report->recorded_sha256};
    struct input_search search;
    int result = input_find(&wanted, directories, count, &search);
    report->state = INPUT_MISSING;
    struct stat status;
    if (result == EXIT_OK && search.state == INPUT_SEARCH_NOT_FOUND &&
        input_find_occupied(&wanted, directories, count, search.path, &status)) {
        report->state = INPUT_NOT_REGULAR;
        report->kind = input_kind_name(status.st_mode);
        report->path = strdup(search.path);
        return report->path != NULL ? EXIT_OK : error_set(EXIT_OTHER, "out of memory");
    }
    if (result != EXIT_OK || search.state == INPUT_SEARCH_NOT_FOUND)
        return result;
    if ((report->path = strdup(search.path)) == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    report->size = search.state == INPUT_SEARCH_FOUND ? report->recorded_size : search.size;
    snprintf(report->sha256, sizeof report->sha256, "%s",
             search.state == INPUT_SEARCH_FOUND ? report->recorded_sha256 : search.sha256);
    report->state = search.state == INPUT_SEARCH_FOUND ? INPUT_MATCHING : INPUT_DIFFERENT;
    return EXIT_OK;
}

/* Room in REPORTS for one more item, zeroed; false when out of memory. */
static bool report_room(struct input_reports *reports, size_t *capacity)
{
    if (reports->count < *capacity)
        return true;
    size_t grown = *capacity > 0 ? *capacity * 2 : 16;
    struct input_report *items = realloc(reports->items, (grown + 1) * sizeof *items);
    if (items == NULL)
        return false;
    memset(items + *capacity, 0, (grown + 1 - *capacity) * sizeof *items);
    reports->items = items;
    *capacity = grown;
    return true;
}

int input_verify(const char *provenance_json, const char *file_path,
                 const char *const *directories, size_t count, struct input_reports *reports)
{
    struct provenance_inputs inputs;
    json_t *provenance = provenance_head_parse(provenance_json, 0, NULL, &inputs), *entry;
    int result = inputs.text != NULL || json_is_array(json_object_get(provenance, "inputs"))
                     ? EXIT_OK
                     : error_set(EXIT_CORRUPT_INPUT, "no inputs list in the provenance: %s",
                                 file_path);
    size_t capacity = 0;
    json_error_t failure;
    for (int read = 1; result == EXIT_OK && read == 1;) {
        json_t *listed = json_object_get(provenance, "inputs"); /* when not walked */
        if (inputs.text == NULL) {
            entry = json_incref(json_array_get(listed, reports->count));
            read = entry != NULL;
        } else if ((read = provenance_inputs_next(&inputs, &entry, &failure)) < 0)
            result = error_set(EXIT_CORRUPT_INPUT, "malformed provenance: %s: %s", file_path,
                               failure.text);
        if (result == EXIT_OK && read == 1 && !report_room(reports, &capacity))
            result = error_set(EXIT_OTHER, "out of memory");
        else if (result == EXIT_OK && read == 1)
            result = input_report_fill(&reports->items[reports->count++], entry, file_path,
                                       directories, count);
        json_decref(entry);
    }
    json_decref(provenance);
    return result;
}

const char **input_directories_list(const struct input_directories *given, char *beside,
                                    const struct fuel_config *config, size_t *count)
{
    const char **list = calloc(given->directory_count + config->data_path.count +
                                   given->recorded_count + 1,
                               sizeof *list);
    *count = 0;
    for (size_t index = 0; list != NULL && index < given->directory_count; index++)
        list[(*count)++] = given->directories[index];
    if (list != NULL)
        list[(*count)++] = dirname(beside);
    for (size_t index = 0; list != NULL && index < config->data_path.count; index++)
        list[(*count)++] = config->data_path.items[index];
    for (size_t index = 0; list != NULL && index < given->recorded_count; index++)
        list[(*count)++] = given->recorded[index];
    return list;
}

int input_reports_outcome(const char *file, const struct input_reports *reports)
{
    size_t counts[4] = {0};
    const struct input_report *occupied = NULL;
    for (size_t index = 0; index < reports->count; index++) {
        counts[reports->items[index].state]++;
        if (occupied == NULL && reports->items[index].state == INPUT_NOT_REGULAR)
            occupied = &reports->items[index];
    }
    if (counts[INPUT_DIFFERENT] > 0)
        return error_set(EXIT_CHECKSUM, "inputs differ from the provenance: %s: %zu different, "
                         "%zu missing", file, counts[INPUT_DIFFERENT], counts[INPUT_MISSING]);
    if (occupied != NULL)
        return error_set(EXIT_CORRUPT_INPUT, "not a regular file: %s: exists but is %s",
                         occupied->path, occupied->kind);
    if (counts[INPUT_MISSING] > 0)
        return error_set(EXIT_MISSING_INPUT, "inputs not found: %s: %zu missing", file,
                         counts[INPUT_MISSING]);
    return EXIT_OK;
}

json_t *input_report_json(const struct input_report *input)
{
    json_t *entry = json_pack("{s:s, s:s, s:I, s:s}", "name", input->name, "state",
                              input_state_name(input->state), "recorded_size",
                              (json_int_t)input->recorded_size, "recorded_sha256",
                              input->recorded_sha256);
    if (input->state == INPUT_NOT_REGULAR) {
        json_object_set_new(entry, "path", json_string(input->path));
        json_object_set_new(entry, "kind", json_string(input->kind));
    } else if (input->path != NULL) {
        json_object_set_new(entry, "path", json_string(input->path));
        json_object_set_new(entry, "size", json_integer((json_int_t)input->size));
        json_object_set_new(entry, "sha256", json_string(input->sha256));
    }
    return entry;
}
