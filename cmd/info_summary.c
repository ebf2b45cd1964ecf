/* fuel-info's one line per file when given several: name, dataset, split counts, dtypes,
   creation time and whether it is a fixture; or their JSON objects. */
#include "info_summary.h"

#include "common/base/provenance_inputs.h"
#include "info/info_fixture.h"
#include "info_text.h"

#include <ctype.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The dataset named by fuel_convert_command, e.g. "mnist" or "svhn 2": the first word that is
   no option nor an option's value after the program (and after "convert" for "fuel convert"). */
static char *dataset_of(const struct h5py_file *file)
{
    const char *command = h5py_file_attribute(file, "fuel_convert_command");
    char *words = command != NULL ? strdup(command) : NULL, *saved = NULL, *dataset = NULL;
    char *word = words != NULL ? strtok_r(words, " ", &saved) : NULL;
    bool skip_value = false, after_fuel = word != NULL && strcmp(word, "fuel") == 0;
    if (after_fuel)
        word = strtok_r(NULL, " ", &saved);
    while (word != NULL && (word = strtok_r(NULL, " ", &saved)) != NULL) {
        bool option = word[0] == '-';
        if (!option && !skip_value && dataset == NULL)
            dataset = strdup(word);
        else if (!option && !skip_value && dataset != NULL && isdigit((unsigned char)word[0])) {
            char *longer = cell_text("%s %s", dataset, word);
            free(dataset);
            dataset = longer;
            break;
        } else if (!option && !skip_value)
            break;
        skip_value = option && strchr(word, '=') == NULL;
    }
    free(words);
    return dataset != NULL ? dataset : strdup("-");
}

/* The examples of SPLIT: the count of its first available row (a split's sources are equal). */
static uint64_t split_length(const struct h5py_file *file, const char *split)
{
    for (size_t index = 0; index < file->row_count; index++)
        if (file->rows[index].available && strcmp(file->rows[index].split, split) == 0)
            return h5py_split_row_count(&file->rows[index]);
    return 0;
}

/* The provenance's "created", NULL when there is none. */
static char *created_of(const struct h5py_file *file)
{
    struct provenance_inputs inputs;
    json_t *provenance = provenance_head_parse(attribute_or_not_available(file, "fuel_provenance"),
                                               0, NULL, &inputs);
    const char *created = json_string_value(json_object_get(provenance, "created"));
    char *text = created != NULL ? strdup(created) : NULL;
    json_decref(provenance);
    return text;
}

static char *splits_text(const struct h5py_file *file)
{
    char *text = strdup("");
    for (size_t index = 0; index < file->split_count && text != NULL; index++) {
        char *longer = cell_text("%s%s%s %" PRIu64, text, index > 0 ? ", " : "",
                                 file->splits[index], split_length(file, file->splits[index]));
        free(text);
        text = longer;
    }
    return text;
}

/* "features uint8, targets uint8": each source present and its dtype. */
static char *dtypes_text(const struct h5py_file *file)
{
    char *text = strdup("");
    for (size_t index = 0; index < file->source_count && text != NULL; index++) {
        const struct h5py_file_source *source = &file->sources[index];
        if (!source->present)
            continue;
        char *longer = cell_text("%s%s%s %s", text, text[0] != '\0' ? ", " : "", source->name,
                                 source->dtype);
        free(text);
        text = longer;
    }
    return text;
}

json_t *info_summary_json(const struct h5py_file *file, const struct info_digest *digest)
{
    json_t *splits = json_object(), *dtypes = json_object();
    for (size_t index = 0; index < file->split_count; index++)
        json_object_set_new(splits, file->splits[index],
                            json_integer((json_int_t)split_length(file, file->splits[index])));
    for (size_t index = 0; index < file->source_count; index++)
        if (file->sources[index].present)
            json_object_set_new(dtypes, file->sources[index].name,
                                json_string(file->sources[index].dtype));
    char *dataset = dataset_of(file), *created = created_of(file);
    json_t *summary = json_pack("{s:s, s:s, s:s?, s:o, s:o, s:s?, s:s?, s:b}", "file",
                                file->path, "name", basename(file->path), "dataset", dataset,
                                "splits", splits, "dtypes", dtypes, "content_digest",
                                info_digest_whole(digest), "created", created, "fixture",
                                info_is_fixture(file));
    free(dataset);
    free(created);
    return summary;
}

int info_summary_add(struct table *table, const struct h5py_file *file,
                     const struct info_digest *digest)
{
    char *created = created_of(file);
    const char *whole = info_digest_whole(digest);
    char *cells[] = {strdup(basename(file->path)), dataset_of(file), splits_text(file),
                     dtypes_text(file),
                     whole != NULL ? strndup(whole, INFO_SUMMARY_DIGEST_DIGITS) : strdup("-"),
                     strdup(created != NULL ? created : "-"),
                     strdup(info_is_fixture(file) ? "fixture" : "")};
    free(created);
    return table_add(table, cells);
}
