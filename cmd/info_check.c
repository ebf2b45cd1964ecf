/* fuel-info --check and --verify-inputs: prints the checker's violations and the inputs' states. */
#include "info_check.h"

#include "common/base/config.h"
#include "common/base/error.h"
#include "common/h5py/h5py_check.h"
#include "info/input_verify.h"
#include "info_published.h"
#include "recorded_directories.h"

#include <libgen.h>
#include <limits.h>
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

/* How many of the first inputs of one state a summary names. */
enum { INPUTS_NAMED = 3 };

/* A different input's details: where it was found, its bytes and sha256 (not computed for a
   file of another size), and what the file records. */
static void different_print(const struct input_report *input)
{
    printf(" (%s: %llu bytes", input->path, (unsigned long long)input->size);
    if (input->sha256[0] != '\0')
        printf(", sha256 %s", input->sha256);
    printf("; recorded %llu bytes, sha256 %s)", (unsigned long long)input->recorded_size,
           input->recorded_sha256);
}

/* The folders the first inputs of STATE were found in, each once. */
static void found_folders_print(const struct input_reports *reports, enum input_state state)
{
    char folders[INPUTS_NAMED][PATH_MAX];
    size_t count = 0;
    for (size_t index = 0; index < reports->count && count < INPUTS_NAMED; index++) {
        if (reports->items[index].state != state)
            continue;
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s", reports->items[index].path);
        const char *folder = dirname(path);
        bool seen = false;
        for (size_t known = 0; known < count; known++)
            seen = seen || strcmp(folders[known], folder) == 0;
        if (!seen)
            snprintf(folders[count++], PATH_MAX, "%s", folder);
    }
    printf(": found in");
    for (size_t index = 0; index < count; index++)
        printf("%s %s", index > 0 ? "," : "", folders[index]);
}

/* The found inputs of STATE (matching, different or not a regular file) in one line: how many,
   the first few names (a different one with its details, another with what stands there), where
   they were found; --json lists every one. */
static void found_print(const struct h5py_file *file, const struct input_reports *reports,
                        enum input_state state)
{
    size_t total = 0, named = 0;
    for (size_t index = 0; index < reports->count; index++)
        total += reports->items[index].state == state;
    if (total == 0)
        return;
    printf("%s: %zu of %zu inputs %s:", file->path, total, reports->count,
           input_state_name(state));
    for (size_t index = 0; index < reports->count && named < INPUTS_NAMED; index++) {
        const struct input_report *input = &reports->items[index];
        if (input->state != state)
            continue;
        printf("%s %s", named++ > 0 ? "," : "", input->name);
        if (state == INPUT_DIFFERENT)
            different_print(input);
        if (state == INPUT_NOT_REGULAR)
            printf(" (%s: exists but is %s)", input->path, input->kind);
    }
    if (total > named)
        printf(", ...");
    if (state == INPUT_MATCHING)
        found_folders_print(reports, state);
    if (total > named)
        printf("; --json lists every input");
    putchar('\n');
}

/* The missing inputs in one line: how many, the first few names, where fuel looked, and the
   folders the file records. */
static void missing_print(const struct h5py_file *file, const struct input_reports *reports,
                          const struct info_check_request *request,
                          const struct recorded_directories *folders)
{
    size_t missing = 0;
    for (size_t index = 0; index < reports->count; index++)
        missing += reports->items[index].state == INPUT_MISSING;
    if (missing == 0)
        return;
    printf("%s: %zu of %zu inputs missing:", file->path, missing, reports->count);
    size_t named = 0;
    for (size_t index = 0; index < reports->count && named <= INPUTS_NAMED; index++) {
        if (reports->items[index].state != INPUT_MISSING)
            continue;
        if (named < INPUTS_NAMED)
            printf("%s %s", named > 0 ? "," : "", reports->items[index].name);
        else
            printf(", ...");
        named++;
    }
    printf(": not %sbeside the file nor in the data path%s",
           request->directory_count > 0 ? "in -d, " : "", request->recorded_directories
                                                            ? " nor in the folders it records"
                                                            : "");
    if (!request->recorded_directories)
        recorded_directories_hint(stdout, folders);
    putchar('\n');
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
    struct recorded_directories folders;
    recorded_directories_read(provenance, &folders);
    char beside[PATH_MAX];
    snprintf(beside, sizeof beside, "%s", file->path);
    struct input_directories given = {
        request->directories, request->directory_count,
        request->recorded_directories ? (const char *const *)folders.items : NULL,
        request->recorded_directories ? folders.count : 0};
    const char **directories = NULL;
    size_t count = 0;
    int result = config_load(&config);
    if (result == EXIT_OK &&
        (directories = input_directories_list(&given, beside, &config, &count)) == NULL)
        result = error_set(EXIT_OTHER, "out of memory");
    if (result == EXIT_OK)
        result = input_verify(provenance, file->path, directories, count, &reports);
    json_t *inputs = json_array(), *recorded = json_array();
    for (size_t index = 0; result == EXIT_OK && report != NULL && index < reports.count; index++)
        json_array_append_new(inputs, input_report_json(&reports.items[index]));
    if (result == EXIT_OK && report == NULL) {
        found_print(file, &reports, INPUT_MATCHING);
        found_print(file, &reports, INPUT_DIFFERENT);
        found_print(file, &reports, INPUT_NOT_REGULAR);
    }
    for (size_t index = 0; index < folders.count; index++)
        json_array_append_new(recorded, json_string(folders.items[index]));
    if (result == EXIT_OK && !request->recorded_directories)
        recorded_directories_drop_searched(&folders, directories, count);
    if (result == EXIT_OK && report == NULL)
        missing_print(file, &reports, request, &folders);
    if (report != NULL) {
        json_object_set_new(report, "inputs", inputs);
        json_object_set_new(report, "recorded_directories", recorded);
    } else {
        json_decref(inputs);
        json_decref(recorded);
    }
    if (result == EXIT_OK)
        result = input_reports_outcome(file->path, &reports);
    if (result == EXIT_OK)
        verdict_report(file, report);
    input_reports_free(&reports);
    recorded_directories_free(&folders);
    free(directories);
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
