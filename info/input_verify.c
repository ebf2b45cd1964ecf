/* Verifies a converted file's raw inputs against the sizes and sha256 its provenance recorded. */
#include "input_verify.h"

#include "common/base/error.h"
#include "common/base/provenance_text.h"

#include <jansson.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *input_state_name(enum input_state state)
{
    static const char *const names[] = {"matching", "different", "missing"};
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

static bool is_regular_file(const char *path)
{
    struct stat status;
    return stat(path, &status) == 0 && S_ISREG(status.st_mode);
}

/* Where NAME is: beside FILE_PATH, else the first data path directory holding it; NULL if none. */
static char *input_locate(const char *name, const char *file_path, const struct fuel_config *config)
{
    char path[PATH_MAX], *copy = strdup(file_path);
    if (copy == NULL)
        return NULL;
    int length = snprintf(path, sizeof path, "%s/%s", dirname(copy), name);
    free(copy);
    if (length > 0 && (size_t)length < sizeof path && is_regular_file(path))
        return strdup(path);
    if (data_path_find(config, name, path, sizeof path) == EXIT_OK && is_regular_file(path))
        return strdup(path);
    error_clear();
    return NULL;
}

static int input_report_fill(struct input_report *report, json_t *entry,
                             const char *file_path, const struct fuel_config *config)
{
    const char *name = json_string_value(json_object_get(entry, "name"));
    const char *sha256 = json_string_value(json_object_get(entry, "sha256"));
    json_t *size = json_object_get(entry, "size");
    if (name == NULL || sha256 == NULL || !json_is_integer(size) || strchr(name, '/') != NULL ||
        strlen(sha256) >= HASH_HEX_SIZE)
        return error_set(EXIT_CORRUPT_INPUT, "malformed provenance inputs: %s", file_path);
    if ((report->name = strdup(name)) == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    snprintf(report->recorded_sha256, sizeof report->recorded_sha256, "%s", sha256);
    report->recorded_size = (uint64_t)json_integer_value(size);
    report->path = input_locate(name, file_path, config);
    report->state = INPUT_MISSING;
    if (report->path == NULL)
        return EXIT_OK;
    int result = hash_file(report->path, HASH_SHA256, report->sha256, &report->size);
    if (result != EXIT_OK)
        return result;
    report->state = report->size == report->recorded_size &&
                            strcmp(report->sha256, report->recorded_sha256) == 0
                        ? INPUT_MATCHING
                        : INPUT_DIFFERENT;
    return EXIT_OK;
}

int input_verify(const char *provenance_json, const char *file_path,
                 const struct fuel_config *config, struct input_reports *reports)
{
    json_t *provenance = provenance_text_parse(provenance_json, 0, NULL);
    json_t *inputs = json_object_get(provenance, "inputs");
    int result = json_is_array(inputs) ? EXIT_OK
                 : error_set(EXIT_CORRUPT_INPUT, "no inputs list in the provenance: %s",
                             file_path);
    if (result == EXIT_OK &&
        (reports->items = calloc(json_array_size(inputs) + 1, sizeof *reports->items)) == NULL)
        result = error_set(EXIT_OTHER, "out of memory");
    for (size_t index = 0; result == EXIT_OK && index < json_array_size(inputs); index++) {
        result = input_report_fill(&reports->items[index], json_array_get(inputs, index),
                                   file_path, config);
        reports->count = index + 1;
    }
    json_decref(provenance);
    return result;
}
