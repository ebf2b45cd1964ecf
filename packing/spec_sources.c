/* The `sources` of fuel pack's spec: each source's keys and its `from` entries (files by their
   extension, {images|classes|arrays: DIR} mappings). */
#include "spec_reading.h"

#include "common/base/error.h"
#include "common/base/suggest.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const DTYPES[] = {"bool",   "int8",   "int16",   "int32",   "int64",  "uint8",
                                     "uint16", "uint32", "uint64",  "float32", "float64"};
enum { DTYPE_COUNT = sizeof DTYPES / sizeof DTYPES[0] };

static const char FROM_KINDS[] =
    "FILE.npy, FILE.npz:MEMBER, FILE.csv, FILE.tsv, FILE.h5:/DATASET, {images: DIR}, "
    "{classes: DIR} or {arrays: DIR}";

static bool ends_with(const char *text, const char *ending)
{
    size_t length = strlen(text), end = strlen(ending);
    return length > end && strcmp(text + length - end, ending) == 0;
}

/* FILE.npz:MEMBER or FILE.h5:/DATASET: the file's path and what follows the colon. */
static int split_member(struct spec_reading *reading, const char *text, const char *colon,
                        struct pack_input *input)
{
    char *file = strndup(text, (size_t)(colon - text));
    int result = file == NULL ? error_set(EXIT_OTHER, "out of memory")
                              : spec_path(reading, file, &input->path);
    free(file);
    return result == EXIT_OK ? spec_copy(colon + 1, &input->member) : result;
}

static const char *member_colon(const char *text, const char *const *endings, size_t count)
{
    for (size_t index = 0; index < count; index++) {
        const char *found = strstr(text, endings[index]);
        if (found != NULL && found != text)
            return found + strlen(endings[index]) - 1;
    }
    return NULL;
}

static int file_input(struct spec_reading *reading, const yaml_node_t *node, const char *text,
                      struct pack_input *input)
{
    static const char *const npz[] = {".npz:"}, *const hdf5[] = {".h5:", ".hdf5:", ".hdf:"};
    const char *colon;
    if ((colon = member_colon(text, npz, 1)) != NULL && colon[1] != '\0') {
        input->kind = INPUT_NPZ;
        return split_member(reading, text, colon, input);
    }
    if ((colon = member_colon(text, hdf5, 3)) != NULL && colon[1] != '\0') {
        input->kind = INPUT_HDF5;
        return split_member(reading, text, colon, input);
    }
    if (ends_with(text, ".npz") || ends_with(text, ".npz:") || ends_with(text, ".h5") ||
        ends_with(text, ".hdf5") || ends_with(text, ".hdf") || ends_with(text, ":"))
        return spec_malformed(reading, spec_line(node), "from: '%s' names a file of arrays: add "
                              "the member, FILE.npz:MEMBER or FILE.h5:/DATASET", text);
    if (ends_with(text, ".npy"))
        input->kind = INPUT_NPY;
    else if (ends_with(text, ".csv"))
        input->kind = INPUT_CSV;
    else if (ends_with(text, ".tsv"))
        input->kind = INPUT_TSV;
    else
        return spec_malformed(reading, spec_line(node), "from: cannot tell what '%s' is: give %s",
                              text, FROM_KINDS);
    return spec_path(reading, text, &input->path);
}

static int folder_input(struct spec_reading *reading, const yaml_node_t *node,
                        struct pack_input *input)
{
    static const char *const kinds[] = {"images", "classes", "arrays"};
    if (node->data.mapping.pairs.top - node->data.mapping.pairs.start != 1)
        return spec_malformed(reading, spec_line(node), "from: a folder entry is one of "
                              "{images: DIR}, {classes: DIR} and {arrays: DIR}");
    const yaml_node_pair_t *pair = node->data.mapping.pairs.start;
    const char *name, *text;
    size_t line;
    yaml_node_t *value;
    int result = spec_key(reading, pair->key, "from", kinds, 3, &name, &line);
    if (result == EXIT_OK)
        result = spec_visit(reading, pair->value, &value);
    if (result == EXIT_OK)
        result = spec_text(reading, value, name, &text);
    if (result != EXIT_OK)
        return result;
    input->kind = strcmp(name, "images") == 0    ? INPUT_IMAGES
                  : strcmp(name, "classes") == 0 ? INPUT_CLASSES
                                                 : INPUT_ARRAYS;
    char shown[4200];
    snprintf(shown, sizeof shown, "{%s: %s}", name, text);
    free(input->shown);
    result = spec_copy(shown, &input->shown);
    return result == EXIT_OK ? spec_path(reading, text, &input->path) : result;
}

static int input_read(struct spec_reading *reading, const yaml_node_t *node,
                      struct pack_input *input)
{
    int result;
    input->line = spec_line(node);
    if (node->type == YAML_MAPPING_NODE)
        return folder_input(reading, node, input);
    const char *text;
    result = spec_text(reading, node, "from", &text);
    if (result == EXIT_OK)
        result = spec_copy(text, &input->shown);
    return result == EXIT_OK ? file_input(reading, node, text, input) : result;
}

static int from_read(struct spec_reading *reading, const yaml_node_t *node,
                     struct pack_source *source)
{
    bool list = node->type == YAML_SEQUENCE_NODE;
    size_t count = list ? (size_t)(node->data.sequence.items.top - node->data.sequence.items.start)
                        : 1;
    if (count == 0 || count > PACK_MAX_INPUTS)
        return spec_malformed(reading, spec_line(node), "from of %s: from 1 to %d entries",
                              source->name, PACK_MAX_INPUTS);
    source->inputs = calloc(count, sizeof *source->inputs);
    if (source->inputs == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    int result = EXIT_OK;
    for (size_t index = 0; index < count && result == EXIT_OK; index++) {
        yaml_node_t *entry = (yaml_node_t *)node;
        source->input_count++;
        if (list)
            result = spec_visit(reading, node->data.sequence.items.start[index], &entry);
        if (result == EXIT_OK)
            result = input_read(reading, entry, &source->inputs[index]);
    }
    return result;
}

static int dtype_read(struct spec_reading *reading, const yaml_node_t *node,
                      struct pack_source *source)
{
    const char *text;
    int result = spec_text(reading, node, "dtype", &text);
    if (result != EXIT_OK)
        return result;
    if (element_type_from_dtype(text, &source->dtype)) {
        source->has_dtype = true;
        return EXIT_OK;
    }
    struct suggestion suggestion;
    suggestion_begin(&suggestion, text);
    for (size_t index = 0; index < DTYPE_COUNT; index++)
        suggestion_offer(&suggestion, DTYPES[index]);
    char ending[300], names[256];
    names_join(names, sizeof names, DTYPES, DTYPE_COUNT);
    if (!suggestion_text(&suggestion, ending, sizeof ending))
        snprintf(ending, sizeof ending, "one of %s", names);
    return spec_malformed(reading, spec_line(node), "dtype of %s: unknown dtype '%s'; %s",
                          source->name, text, ending);
}

static int scale_read(struct spec_reading *reading, const yaml_node_t *node,
                      struct pack_source *source)
{
    const char *text;
    int result = spec_text(reading, node, "scale", &text);
    if (result != EXIT_OK)
        return result;
    char *end;
    source->scale = strtod(text, &end);
    if (*end != '\0' || end == text || !isfinite(source->scale))
        return spec_malformed(reading, spec_line(node), "scale of %s: expected a number, found '%s'",
                              source->name, text);
    source->has_scale = true;
    return EXIT_OK;
}

/* `splits: [train, test]`: the splits the source is available in. */
static int availability_read(struct spec_reading *reading, const yaml_node_t *node,
                             struct pack_source *source)
{
    const struct pack_spec *spec = reading->spec;
    char **names = NULL;
    size_t count = 0;
    int result = spec_text_list(reading, node, "splits", PACK_MAX_SPLITS, &names, &count);
    for (size_t split = 0; split < PACK_MAX_SPLITS; split++)
        source->available[split] = false;
    for (size_t index = 0; index < count && result == EXIT_OK; index++) {
        size_t split = pack_spec_split_index(spec, names[index]);
        if (split < spec->split_count) {
            source->available[split] = true;
            continue;
        }
        struct suggestion suggestion;
        suggestion_begin(&suggestion, names[index]);
        for (size_t other = 0; other < spec->split_count; other++)
            suggestion_offer(&suggestion, spec->splits[other].name);
        char ending[256];
        if (!suggestion_text(&suggestion, ending, sizeof ending))
            snprintf(ending, sizeof ending, "no such split");
        result = spec_malformed(reading, spec_line(node), "splits of %s: unknown split '%s'; %s",
                                source->name, names[index], ending);
    }
    for (size_t index = 0; index < count; index++)
        free(names[index]);
    free(names);
    return result;
}

static int source_entry(struct spec_reading *reading, int key, int value,
                        struct pack_source *source)
{
    static const char *const keys[] = {"axes", "from", "splits", "dtype", "scale", "comment",
                                       "columns"};
    char where[320];
    const char *name, *text;
    size_t line;
    yaml_node_t *node;
    snprintf(where, sizeof where, "source %s", source->name);
    int result = spec_key(reading, key, where, keys, 7, &name, &line);
    if (result == EXIT_OK)
        result = spec_visit(reading, value, &node);
    if (result != EXIT_OK)
        return result;
    if (strcmp(name, "axes") == 0)
        return spec_text_list(reading, node, "axes", H5PY_MAX_RANK + 1, &source->axes,
                              &source->axis_count);
    if (strcmp(name, "columns") == 0)
        return spec_text_list(reading, node, "columns", PACK_MAX_COLUMNS, &source->columns,
                              &source->column_count);
    if (strcmp(name, "from") == 0)
        return from_read(reading, node, source);
    if (strcmp(name, "splits") == 0)
        return availability_read(reading, node, source);
    if (strcmp(name, "dtype") == 0)
        return dtype_read(reading, node, source);
    if (strcmp(name, "scale") == 0)
        return scale_read(reading, node, source);
    result = spec_text(reading, node, "comment", &text);
    return result == EXIT_OK ? spec_copy(text, &source->comment) : result;
}

static int source_check(struct spec_reading *reading, const struct pack_source *source)
{
    if (source->inputs == NULL)
        return spec_malformed(reading, source->line, "source %s: from missing", source->name);
    bool float_type = source->has_dtype &&
                      (source->dtype == ELEMENT_FLOAT32 || source->dtype == ELEMENT_FLOAT64);
    if (source->has_scale && !float_type)
        return spec_malformed(reading, source->line, "source %s: scale needs dtype float32 or "
                              "float64", source->name);
    bool anywhere = false, tables = false;
    for (size_t split = 0; split < reading->spec->split_count; split++)
        anywhere |= source->available[split];
    if (!anywhere)
        return spec_malformed(reading, source->line, "source %s: in no split", source->name);
    for (size_t index = 0; index < source->input_count; index++)
        tables |= source->inputs[index].kind == INPUT_CSV || source->inputs[index].kind == INPUT_TSV;
    if (source->columns != NULL && !tables)
        return spec_malformed(reading, source->line, "source %s: columns are for CSV and TSV "
                              "inputs", source->name);
    return EXIT_OK;
}

static int source_read(struct spec_reading *reading, int key, int value,
                       struct pack_source *source)
{
    const char *name;
    yaml_node_t *node;
    int result = spec_visit(reading, key, &node);
    if (result == EXIT_OK)
        result = spec_text(reading, node, "source name", &name);
    if (result != EXIT_OK)
        return result;
    source->line = spec_line(node);
    if (strchr(name, '/') != NULL || strcmp(name, ".") == 0 || strlen(name) > 200)
        return spec_malformed(reading, source->line, "source name '%s': at most 200 characters, "
                              "no '/'", name);
    if ((result = spec_copy(name, &source->name)) != EXIT_OK ||
        (result = spec_visit(reading, value, &node)) != EXIT_OK ||
        (result = spec_mapping(reading, node, source->name)) != EXIT_OK)
        return result;
    for (size_t split = 0; split < PACK_MAX_SPLITS; split++)
        source->available[split] = true;
    for (yaml_node_pair_t *pair = node->data.mapping.pairs.start;
         pair < node->data.mapping.pairs.top && result == EXIT_OK; pair++)
        result = source_entry(reading, pair->key, pair->value, source);
    return result == EXIT_OK ? source_check(reading, source) : result;
}

int spec_sources_read(struct spec_reading *reading, const yaml_node_t *node)
{
    struct pack_spec *spec = reading->spec;
    int result = spec_mapping(reading, node, "sources");
    for (yaml_node_pair_t *pair = node->data.mapping.pairs.start;
         result == EXIT_OK && pair < node->data.mapping.pairs.top; pair++) {
        if (spec->source_count == PACK_MAX_SOURCES)
            return spec_malformed(reading, spec_line(node), "more than %d sources",
                                  PACK_MAX_SOURCES);
        struct pack_source *source = &spec->sources[spec->source_count++];
        result = source_read(reading, pair->key, pair->value, source);
        for (size_t other = 0; result == EXIT_OK && other + 1 < spec->source_count; other++)
            if (strcmp(spec->sources[other].name, source->name) == 0)
                return spec_malformed(reading, source->line, "source %s named twice",
                                      source->name);
    }
    if (result == EXIT_OK && spec->source_count == 0)
        return spec_malformed(reading, spec_line(node), "sources: none given");
    for (size_t split = 0; split < spec->split_count && result == EXIT_OK; split++) {
        bool used = false;
        for (size_t index = 0; index < spec->source_count; index++)
            used |= spec->sources[index].available[split];
        if (!used)
            return spec_malformed(reading, spec->splits[split].line, "split %s: no source is in "
                                  "it", spec->splits[split].name);
    }
    return result;
}
