/* fuel-list: every dataset, the state of its raw files and where its converted file is found. */
#include "cards/card.h"
#include "common/download/checksum_list.h"
#include "common/base/config.h"
#include "s3/s3_data_path.h"
#include "common/base/error.h"
#include "cmd/fault_guard.h"
#include "common/base/input_verdict.h"
#include "common/h5py/provenance.h"
#include "common/base/progress.h"
#include "common/base/staging.h"
#include "common/download/raw_file.h"
#include "common/formats/gzip/inflated_digest.h"
#include "downloaders/dataset_registry.h"
#include "converters/conversion.h"
#include "converters/extra.h"
#include "commands.h"
#include "dataset_arguments.h"
#include "table.h"
#include "usage.h"

#include <dirent.h>
#include <inttypes.h>
#include <jansson.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

struct list_options {
    const char *directory, *checksums_path;
    bool as_json, verify;
};

static const struct command_option options[] = {
    {.long_name = "json", .kind = OPTION_FLAG, .offset = offsetof(struct list_options, as_json),
     .help = "print a JSON array, one object per dataset"},
    {.long_name = "verify", .kind = OPTION_FLAG, .offset = offsetof(struct list_options, verify),
     .help = "hash the raw files present and compare them with the published checksums"},
    {.long_name = "checksums", .kind = OPTION_STRING,
     .offset = offsetof(struct list_options, checksums_path), .argument = "FILE",
     .completion = COMPLETE_FILE,
     .help = "md5sum/sha256sum lines replacing the published checksums (and sizes)"},
    {.short_name = 'd', .long_name = "directory", .kind = OPTION_STRING,
     .offset = offsetof(struct list_options, directory), .argument = "DIR",
     .completion = COMPLETE_DIRECTORY,
     .help = "look for the raw files in DIR (default: the first data path directory holding "
             "each file)"},
};

const struct command_line list_command_line = {
    .description =
        "Lists every dataset: its raw files and their state (missing, partial, present, wrong size,\n"
        "or with --verify verified or corrupt), and its converted file as found in the data path\n"
        "(FUEL_DATA_PATH or data_path in ~/.fuelrc), with size and creation time.",
    .options = options,
    .option_count = sizeof options / sizeof options[0],
    .options_size = sizeof(struct list_options),
};

struct list_request {
    const char *program;
    const char *directory, *checksums_path;
    bool as_json, verify;
    struct fuel_config config;
    struct checksum_list checksums;
    struct extra_converters extras;
};

/* The directory of the data path holding NAME or NAME.part, "" when none does. */
static void raw_directory(const struct list_request *request, const char *name, char *directory,
                          size_t size)
{
    if (request->directory != NULL) {
        snprintf(directory, size, "%s", request->directory);
        return;
    }
    directory[0] = '\0';
    for (size_t index = 0; index < request->config.data_path.count && !directory[0]; index++) {
        const char *candidate = request->config.data_path.items[index];
        char path[PATH_MAX];
        struct stat status;
        for (int partial = 0; partial < 2 && !directory[0]; partial++)
            if (snprintf(path, sizeof path, "%s/%s%s", candidate, name,
                         partial ? ".part" : "") < (int)sizeof path &&
                stat(path, &status) == 0)
                snprintf(directory, size, "%s", candidate);
    }
}

static json_t *raw_file_json(const struct list_request *request, const struct dataset_file *entry)
{
    char directory[PATH_MAX], path[PATH_MAX * 2];
    struct raw_file file = {.state = RAW_MISSING};
    const char *replacement = checksum_list_find(&request->checksums, entry->name);
    uint64_t size = replacement != NULL ? 0 : entry->size;
    /* A checksum given replaces the published size and content too. */
    struct raw_file_expectation expected = {
        .size = size,
        .checksum = replacement != NULL ? replacement : entry->checksum,
        .content_size = replacement != NULL ? 0 : entry->content_size,
        .content_sha256 = replacement != NULL ? NULL : entry->content_sha256,
        .content_digest = inflated_digest,
    };
    raw_directory(request, entry->name, directory, sizeof directory);
    if (directory[0] &&
        raw_file_inspect(directory, entry->name, &expected, request->verify, &file) != EXIT_OK)
        return NULL;
    snprintf(path, sizeof path, "%s/%s%s", directory, entry->name,
             file.state == RAW_PARTIAL || file.part ? ".part" : "");
    json_t *object = json_pack("{s:s, s:s, s:I}", "name", entry->name, "state",
                               raw_file_state_name(file.state), "expected_size",
                               (json_int_t)size);
    json_object_set_new(object, "path", file.state == RAW_MISSING ? json_null() : json_string(path));
    json_object_set_new(object, "size", file.state == RAW_MISSING || file.kind != NULL
                                            ? json_null()
                                            : json_integer((json_int_t)file.size));
    if (file.kind != NULL)
        json_object_set_new(object, "kind", json_string(file.kind));
    return object;
}

/* The creation time in PATH's provenance; HDF5 faulting on a damaged file is exit 4, one line. */
static json_t *created_json(const struct list_request *request, const char *path)
{
    fault_guard_set(request->program, path);
    char *created = provenance_file_created(path);
    fault_guard_clear();
    json_t *value = created != NULL ? json_string(created) : json_null();
    free(created);
    return value;
}

/* The stagings .fuel-staging-NAME.XXXXXX that killed conversions left in the data path
   (fuel-clean(1)). */
static json_t *leftovers_json(const struct list_request *request, const char *name)
{
    json_t *leftovers = json_array();
    for (size_t index = 0; index < request->config.data_path.count; index++) {
        const char *directory = request->config.data_path.items[index];
        DIR *listing = opendir(directory);
        for (struct dirent *entry; listing != NULL && (entry = readdir(listing)) != NULL;) {
            char path[PATH_MAX];
            if (staging_is_name_of(entry->d_name, name) &&
                snprintf(path, sizeof path, "%s/%s", directory, entry->d_name) < (int)sizeof path)
                json_array_append_new(leftovers, json_string(path));
        }
        if (listing != NULL)
            closedir(listing);
    }
    return leftovers;
}

/* Where the file NAME is found in the data path, with its size and creation time, and the
   leftovers of killed conversions into it. */
static json_t *converted_file_json(const struct list_request *request, const char *name)
{
    char path[PATH_MAX];
    struct stat status = {0};
    uint64_t object_size;
    int code = data_path_search(&request->config, name, path, sizeof path, &object_size);
    if (code != EXIT_OK && code != EXIT_MISSING_INPUT)
        return NULL;
    bool stored = code == EXIT_OK && data_path_entry_is_store(path);
    json_t *object = json_pack("{s:s, s:o}", "name", name, "leftovers",
                               leftovers_json(request, name));
    if (code != EXIT_OK || (!stored && stat(path, &status) != 0)) {
        error_clear();
        json_object_set_new(object, "path", json_null());
        return object;
    }
    json_object_set_new(object, "path", json_string(path));
    json_object_set_new(object, "size", json_integer(stored ? (json_int_t)object_size
                                                            : (json_int_t)status.st_size));
    /* An object's provenance is read only from its local copy (fuel cache, fuel info). */
    json_object_set_new(object, "created", stored ? json_null() : created_json(request, path));
    return object;
}

static json_t *converted_json(const struct list_request *request, const struct dataset *dataset)
{
    struct conversion_request defaults;
    conversion_request_init(&defaults, dataset);
    char name[256];
    conversion_output_name(&defaults, name, sizeof name);
    return converted_file_json(request, name);
}

/* The converted file of dataset NAME: its built-in converter's output, NAME.hdf5 for an extra
   converter, null without a converter. */
static json_t *dataset_converted_json(const struct list_request *request, const char *name,
                                      const char *variant, const struct dataset *dataset)
{
    if (dataset != NULL && dataset_converts(dataset))
        return converted_json(request, dataset);
    if (variant != NULL || extra_converter_find(&request->extras, name) == NULL)
        return json_null();
    char file[256];
    snprintf(file, sizeof file, "%s.hdf5", name);
    return converted_file_json(request, file);
}

static const char *string_of(json_t *object, const char *key)
{
    const char *text = json_string_value(json_object_get(object, key));
    return text != NULL ? text : "";
}

/* One raw file's evidence (input_verdict.h) from its JSON: its state, and when --checksums
   replaced the published checksum, that it was not checked against the published one. */
static void file_evidence(const struct list_request *request, const struct dataset_file *entry,
                          json_t *file, struct input_evidence *evidence, char *reason,
                          size_t size)
{
    const char *state = string_of(file, "state");
    *evidence = (struct input_evidence){entry->name, INPUT_VERDICT_NOT, reason};
    const char *replacement = checksum_list_find(&request->checksums, entry->name);
    if (strcmp(state, "wrong size") == 0)
        snprintf(reason, size, "%" JSON_INTEGER_FORMAT " bytes, published %" PRIu64,
                 json_integer_value(json_object_get(file, "size")), entry->size);
    else if (strcmp(state, "corrupt") == 0)
        snprintf(reason, size, "other bytes than published");
    else if (strcmp(state, "verified by content") == 0)
        *evidence = (struct input_evidence){entry->name, INPUT_VERDICT_CONTENT, NULL};
    else if (entry->checksum == NULL)
        *evidence = (struct input_evidence){entry->name, INPUT_VERDICT_UNKNOWN,
                                            "no published checksum"};
    else if (replacement != NULL && strcasecmp(replacement, entry->checksum) != 0)
        snprintf(reason, size, "%s %s, published %s", strlen(replacement) == 32 ? "md5" : "sha256",
                 replacement, entry->checksum);
    else
        *evidence = (struct input_evidence){entry->name, INPUT_VERDICT_FILES, NULL};
}

/* With --verify and every raw file there: the verdict on them, its value and its sentence. */
static void verdict_add(const struct list_request *request, const struct dataset *dataset,
                        json_t *object, json_t *files)
{
    json_t *value = json_null(), *sentence = json_null();
    struct input_evidence *evidence = calloc(dataset->file_count + 1, sizeof *evidence);
    char (*reasons)[192] = calloc(dataset->file_count + 1, sizeof *reasons);
    bool whole = request->verify && evidence != NULL && reasons != NULL;
    for (size_t index = 0; whole && index < dataset->file_count; index++) {
        json_t *file = json_array_get(files, index);
        const char *state = string_of(file, "state");
        whole = strcmp(state, "missing") != 0 && strcmp(state, "partial") != 0 &&
                strcmp(state, "not a regular file") != 0;
        file_evidence(request, &dataset->files[index], file, &evidence[index], reasons[index],
                      sizeof reasons[index]);
    }
    char label[160];
    char *text = NULL;
    if (whole) {
        dataset_label(dataset, label, sizeof label);
        value = json_string(
            input_verdict_value(input_verdict_combine(evidence, dataset->file_count)));
        text = input_verdict_sentence(label, evidence, dataset->file_count);
        sentence = text != NULL ? json_string(text) : json_null();
    }
    json_object_set_new(object, "published", value);
    json_object_set_new(object, "published_inputs", sentence);
    free(text);
    free(evidence);
    free(reasons);
}

static json_t *dataset_json(const struct list_request *request, const char *name,
                            const char *variant, const char *summary,
                            const struct dataset *dataset)
{
    json_t *files = json_array();
    for (size_t index = 0; dataset != NULL && index < dataset->file_count; index++) {
        json_t *file = raw_file_json(request, &dataset->files[index]);
        if (file == NULL) {
            json_decref(files);
            return NULL;
        }
        json_array_append_new(files, file);
    }
    const struct dataset_card *card = card_find(name);
    json_t *object = json_pack("{s:s, s:s?, s:s, s:o, s:o, s:o}", "name", name, "variant",
                               variant, "summary", summary, "files", files, "converted",
                               dataset_converted_json(request, name, variant, dataset), "card",
                               card != NULL ? card_json(card) : json_null());
    if (object != NULL && dataset != NULL)
        verdict_add(request, dataset, object, files);
    return object;
}

/* Every dataset (built-in, then extra), then the extra converters no dataset matches. */
static int datasets_json(const struct list_request *request, json_t *datasets)
{
    const struct dataset *const *list = dataset_list();
    for (size_t index = 0; list[index] != NULL; index++) {
        json_t *dataset = dataset_json(request, list[index]->name, list[index]->variant,
                                       list[index]->summary, list[index]);
        if (dataset == NULL)
            return error_code() != EXIT_OK ? error_code() : EXIT_OTHER;
        json_array_append_new(datasets, dataset);
    }
    for (size_t index = 0; index < request->extras.count; index++) {
        const struct extra_converter *extra = &request->extras.items[index];
        const struct dataset *dataset;
        if (dataset_find(extra->name, NULL, &dataset) == DATASET_UNKNOWN)
            json_array_append_new(datasets,
                                  dataset_json(request, extra->name, NULL, extra->path, NULL));
    }
    return EXIT_OK;
}

/* A raw file: name, state, path, and how far a partial or wrong-sized file is, or what stands
   at its name. */
static int file_row_add(struct table *table, json_t *file)
{
    const char *state = string_of(file, "state");
    char extent[96] = "";
    json_int_t size = json_integer_value(json_object_get(file, "size"));
    json_int_t expected = json_integer_value(json_object_get(file, "expected_size"));
    bool partial = strcmp(state, "partial") == 0;
    if ((partial || strcmp(state, "wrong size") == 0) && expected > 0)
        snprintf(extent, sizeof extent, "%" JSON_INTEGER_FORMAT " of %" JSON_INTEGER_FORMAT
                 " bytes", size, expected);
    else if (partial)
        snprintf(extent, sizeof extent, "%" JSON_INTEGER_FORMAT " bytes so far", size);
    else if (json_object_get(file, "kind") != NULL)
        snprintf(extent, sizeof extent, "exists but is %s", string_of(file, "kind"));
    return table_add_texts(table, (const char *[]){string_of(file, "name"), state,
                                                   string_of(file, "path"), extent, ""});
}

/* The converted file's leftovers, then where it is, its size and creation time. */
static int converted_rows_add(struct table *table, json_t *converted)
{
    const char *name = string_of(converted, "name");
    size_t index;
    json_t *leftover;
    int result = EXIT_OK;
    json_array_foreach(json_object_get(converted, "leftovers"), index, leftover)
        if (result == EXIT_OK)
            result = table_add_texts(table, (const char *[]){
                name, "leftover", json_string_value(leftover),
                "(left by a killed conversion; fuel clean removes it)", ""});
    json_t *path = json_object_get(converted, "path");
    if (result != EXIT_OK || !json_is_string(path))
        return result != EXIT_OK ? result
                                 : table_add_texts(table, (const char *[]){
                                       name, "not in the data path", "", "", ""});
    char size[32], created[96];
    progress_format_size(size, sizeof size,
                         (double)json_integer_value(json_object_get(converted, "size")));
    json_t *time = json_object_get(converted, "created");
    snprintf(created, sizeof created, "created %s",
             json_is_string(time) ? json_string_value(time) : "unknown");
    return table_add_texts(table, (const char *[]){name, "converted", json_string_value(path),
                                                   size, created});
}

/* Each dataset's line, then its files and converted file in columns. */
static int datasets_print(json_t *datasets)
{
    static const size_t widths[] = {31, 10, 0, 0, 0};
    size_t index, file_index;
    json_t *dataset, *file;
    int result = EXIT_OK;
    json_array_foreach(datasets, index, dataset) {
        struct table table = {.indent = 4, .columns = 5, .minimum_widths = widths};
        json_t *variant = json_object_get(dataset, "variant");
        printf("%s%s%s  %s\n", string_of(dataset, "name"), json_is_string(variant) ? " " : "",
               json_is_string(variant) ? json_string_value(variant) : "",
               string_of(dataset, "summary"));
        json_array_foreach(json_object_get(dataset, "files"), file_index, file)
            if (result == EXIT_OK)
                result = file_row_add(&table, file);
        json_t *converted = json_object_get(dataset, "converted");
        if (result == EXIT_OK && json_is_object(converted))
            result = converted_rows_add(&table, converted);
        result = table_finish(&table, "", result);
        json_t *sentence = json_object_get(dataset, "published_inputs");
        if (result == EXIT_OK && json_is_string(sentence))
            printf("    %s\n", json_string_value(sentence));
    }
    return result;
}

static int list_run(struct list_request *request)
{
    json_t *datasets = json_array();
    int result = config_load(&request->config);
    if (result == EXIT_OK)
        result = dataset_registry_load(request->config.extra_downloaders.items,
                                       request->config.extra_downloaders.count);
    if (result == EXIT_OK)
        result = extra_converters_find(&request->extras, request->config.extra_converters.items,
                                       request->config.extra_converters.count);
    if (result == EXIT_OK && request->checksums_path != NULL)
        result = checksum_list_load(&request->checksums, request->checksums_path);
    if (result == EXIT_OK)
        result = datasets_json(request, datasets);
    if (result == EXIT_OK && request->as_json) {
        result = json_dumpf(datasets, stdout, JSON_INDENT(2)) == 0 ? EXIT_OK : EXIT_WRITE;
        putchar('\n');
    } else if (result == EXIT_OK) {
        result = datasets_print(datasets);
    }
    if (result == EXIT_OK && (fflush(stdout) != 0 || ferror(stdout)))
        result = error_set(EXIT_WRITE, "cannot write: standard output");
    json_decref(datasets);
    checksum_list_free(&request->checksums);
    dataset_registry_free();
    extra_converters_free(&request->extras);
    config_free(&request->config);
    return result;
}

int list_body(const struct command_run *run)
{
    const struct list_options *options = run->options;
    struct list_request request = {.program = run->program, .directory = options->directory,
                                   .checksums_path = options->checksums_path,
                                   .as_json = options->as_json, .verify = options->verify};
    return list_run(&request);
}
