/* fuel-info --check and --verify-inputs: prints the checker's violations and the inputs' states. */
#include "info_check.h"

#include "common/base/config.h"
#include "common/base/error.h"
#include "common/h5py/h5py_check.h"
#include "info/input_verify.h"
#include "info_published.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int invariants_report(const struct h5py_file *file, json_t *report)
{
    struct h5py_violations violations = {0};
    int result = h5py_check(file, &violations);
    json_t *lines = json_array();
    for (size_t index = 0; result == EXIT_OK && index < violations.count; index++) {
        if (report != NULL)
            json_array_append_new(lines, json_string(violations.lines[index]));
        else
            printf("%s: %s\n", file->path, violations.lines[index]);
    }
    if (report != NULL)
        json_object_set_new(report, "violations", lines);
    else
        json_decref(lines);
    if (result == EXIT_OK && violations.count > 0)
        result = error_set(EXIT_CORRUPT_INPUT, "check failed: %s: %zu violation%s", file->path,
                           violations.count, violations.count == 1 ? "" : "s");
    else if (result == EXIT_OK && report == NULL)
        printf("%s: ok\n", file->path);
    h5py_violations_free(&violations);
    return result;
}

static void input_report_print(const struct h5py_file *file, const struct input_report *input)
{
    printf("%s: input %s: %s", file->path, input->name, input_state_name(input->state));
    if (input->state == INPUT_MISSING)
        printf(": neither beside the file nor in the data path\n");
    else if (input->state == INPUT_MATCHING)
        printf(": %s\n", input->path);
    else
        printf(": %s: %llu bytes, sha256 %s; recorded %llu bytes, sha256 %s\n", input->path,
               (unsigned long long)input->size, input->sha256,
               (unsigned long long)input->recorded_size, input->recorded_sha256);
}

static json_t *input_report_json(const struct input_report *input)
{
    json_t *entry = json_pack("{s:s, s:s, s:I, s:s}", "name", input->name, "state",
                              input_state_name(input->state), "recorded_size",
                              (json_int_t)input->recorded_size, "recorded_sha256",
                              input->recorded_sha256);
    if (input->path != NULL) {
        json_object_set_new(entry, "path", json_string(input->path));
        json_object_set_new(entry, "size", json_integer((json_int_t)input->size));
        json_object_set_new(entry, "sha256", json_string(input->sha256));
    }
    return entry;
}

/* The exit code of the inputs' states: a difference first, then a missing file. */
static int inputs_outcome(const struct h5py_file *file, const struct input_reports *reports)
{
    size_t counts[3] = {0};
    for (size_t index = 0; index < reports->count; index++)
        counts[reports->items[index].state]++;
    if (counts[INPUT_DIFFERENT] > 0)
        return error_set(EXIT_CHECKSUM, "inputs differ from the provenance: %s: %zu different, "
                         "%zu missing", file->path, counts[INPUT_DIFFERENT], counts[INPUT_MISSING]);
    if (counts[INPUT_MISSING] > 0)
        return error_set(EXIT_MISSING_INPUT, "inputs not found: %s: %zu missing", file->path,
                         counts[INPUT_MISSING]);
    return EXIT_OK;
}

/* Puts the -d DIRECTORIES of REQUEST before CONFIG's data path, where the inputs are looked for. */
static int directories_prepend(struct fuel_config *config,
                               const struct info_check_request *request)
{
    if (request->directory_count == 0)
        return EXIT_OK;
    size_t count = request->directory_count + config->data_path.count;
    char **items = calloc(count, sizeof *items);
    if (items == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    for (size_t index = 0; index < request->directory_count; index++)
        if ((items[index] = strdup(request->directories[index])) == NULL) {
            while (index > 0)
                free(items[--index]);
            free(items);
            return error_set(EXIT_OTHER, "out of memory");
        }
    for (size_t index = 0; index < config->data_path.count; index++)
        items[request->directory_count + index] = config->data_path.items[index];
    free(config->data_path.items);
    config->data_path.items = items;
    config->data_path.count = count;
    return EXIT_OK;
}

/* Inputs found as recorded: the verdict fuel-info gives on them (info_published.h), the same
   line. */
static void verdict_report(const struct h5py_file *file, json_t *report)
{
    if (report != NULL) {
        json_t *verdict = info_inputs_json(file);
        json_t *published = json_object_get(verdict, "published");
        json_object_set(report, "published", published != NULL ? published : json_null());
        json_decref(verdict);
        return;
    }
    char *line = info_inputs_line(file);
    if (line != NULL)
        printf("%s: %s\n", file->path, line);
    free(line);
}

static int inputs_report(const struct h5py_file *file, const struct info_check_request *request,
                         json_t *report)
{
    const char *provenance = h5py_file_attribute(file, "fuel_provenance");
    if (provenance == NULL)
        return error_set(EXIT_CORRUPT_INPUT, "cannot verify inputs: %s: no fuel_provenance "
                         "attribute", file->path);
    struct fuel_config config = {0};
    struct input_reports reports = {0};
    int result = config_load(&config);
    if (result == EXIT_OK)
        result = directories_prepend(&config, request);
    if (result == EXIT_OK)
        result = input_verify(provenance, file->path, &config, &reports);
    json_t *inputs = json_array();
    for (size_t index = 0; result == EXIT_OK && index < reports.count; index++) {
        if (report != NULL)
            json_array_append_new(inputs, input_report_json(&reports.items[index]));
        else
            input_report_print(file, &reports.items[index]);
    }
    if (report != NULL)
        json_object_set_new(report, "inputs", inputs);
    else
        json_decref(inputs);
    if (result == EXIT_OK)
        result = inputs_outcome(file, &reports);
    if (result == EXIT_OK)
        verdict_report(file, report);
    input_reports_free(&reports);
    config_free(&config);
    return result;
}

int info_check_file(const struct h5py_file *file, const struct info_check_request *request,
                    json_t *report)
{
    int result = request->invariants ? invariants_report(file, report) : EXIT_OK;
    if (request->inputs) {
        /* Both reports are printed; the invariants' failure is the one returned. */
        char message[4096];
        int code = error_code();
        snprintf(message, sizeof message, "%s", error_message());
        int inputs_result = inputs_report(file, request, report);
        if (result != EXIT_OK)
            error_set(code, "%s", message);
        else
            result = inputs_result;
    }
    return result;
}
