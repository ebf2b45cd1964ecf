/* Reads fuel pack's YAML spec with libyaml: the file, its top level and its splits, with one-line
   errors naming the line and, for an unknown key, the closest valid one. */
#include "spec_reading.h"
#include "common/base/input_file.h"

#include "common/base/error.h"
#include "common/base/suggest.h"
#include "packing/yaml_bounds.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int spec_malformed(const struct spec_reading *reading, size_t line, const char *format, ...)
{
    char why[1024];
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(why, sizeof why, format, arguments);
    va_end(arguments);
    return error_set(EXIT_USAGE, "malformed spec: %s:%zu: %s", reading->spec->path, line, why);
}

size_t spec_line(const yaml_node_t *node)
{
    return node->start_mark.line + 1;
}

int spec_visit(struct spec_reading *reading, int index, yaml_node_t **node)
{
    *node = yaml_document_get_node(&reading->document, index);
    if (*node == NULL)
        return spec_malformed(reading, 1, "no value");
    size_t number = (size_t)(index - 1);
    if (reading->visited[number])
        return spec_malformed(reading, spec_line(*node), "aliases are not supported");
    reading->visited[number] = 1;
    return EXIT_OK;
}

static bool scalar_is_null(const yaml_node_t *node)
{
    const char *value = (const char *)node->data.scalar.value;
    return node->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
           (value[0] == '\0' || strcmp(value, "~") == 0 || strcmp(value, "null") == 0);
}

static const char *node_kind(const yaml_node_t *node)
{
    return node->type == YAML_MAPPING_NODE    ? "a mapping"
           : node->type == YAML_SEQUENCE_NODE ? "a list"
                                              : "a value";
}

int spec_text(const struct spec_reading *reading, const yaml_node_t *node, const char *what,
              const char **text)
{
    if (node->type != YAML_SCALAR_NODE)
        return spec_malformed(reading, spec_line(node), "%s: expected a value, found %s", what,
                              node_kind(node));
    if (scalar_is_null(node))
        return spec_malformed(reading, spec_line(node), "%s: no value", what);
    if (memchr(node->data.scalar.value, '\0', node->data.scalar.length) != NULL)
        return spec_malformed(reading, spec_line(node), "%s: contains a NUL character", what);
    *text = (const char *)node->data.scalar.value;
    return EXIT_OK;
}

int spec_mapping(const struct spec_reading *reading, const yaml_node_t *node, const char *what)
{
    if (node->type != YAML_MAPPING_NODE)
        return spec_malformed(reading, spec_line(node), "%s: expected a mapping, found %s", what,
                              node_kind(node));
    return EXIT_OK;
}

int spec_key(struct spec_reading *reading, int key, const char *where, const char *const *valid,
             size_t count, const char **text, size_t *line)
{
    yaml_node_t *node;
    int result = spec_visit(reading, key, &node);
    if (result == EXIT_OK)
        result = spec_text(reading, node, where, text);
    if (result != EXIT_OK)
        return result;
    *line = spec_line(node);
    struct suggestion suggestion;
    suggestion_begin(&suggestion, *text);
    for (size_t index = 0; index < count; index++) {
        if (strcmp(valid[index], *text) == 0)
            return EXIT_OK;
        suggestion_offer(&suggestion, valid[index]);
    }
    char ending[256], names[512];
    if (suggestion_text(&suggestion, ending, sizeof ending))
        return spec_malformed(reading, *line, "unknown key '%s' in %s; %s", *text, where, ending);
    names_join(names, sizeof names, valid, count);
    return spec_malformed(reading, *line, "unknown key '%s' in %s; its keys: %s", *text, where,
                          names);
}

int spec_count(const struct spec_reading *reading, const yaml_node_t *node, const char *what,
               uint64_t maximum, uint64_t *value)
{
    const char *text;
    int result = spec_text(reading, node, what, &text);
    if (result != EXIT_OK)
        return result;
    char *end;
    errno = 0;
    unsigned long long number = strtoull(text, &end, 10);
    if (text[0] < '0' || text[0] > '9' || *end != '\0' || errno != 0 || number > maximum)
        return spec_malformed(reading, spec_line(node), "%s: expected a whole number from 0 to "
                              "%" PRIu64 ", found '%s'", what, maximum, text);
    *value = number;
    return EXIT_OK;
}

int spec_copy(const char *text, char **copy)
{
    *copy = strdup(text);
    return *copy == NULL ? error_set(EXIT_OTHER, "out of memory") : EXIT_OK;
}

static int list_append(const struct spec_reading *reading, yaml_node_t *item, const char *what,
                       char **list, size_t *count)
{
    const char *text;
    int result = spec_text(reading, item, what, &text);
    if (result == EXIT_OK)
        result = spec_copy(text, &list[*count]);
    if (result == EXIT_OK)
        (*count)++;
    return result;
}

int spec_text_list(struct spec_reading *reading, const yaml_node_t *node, const char *what,
                   size_t maximum, char ***list, size_t *count)
{
    size_t items = node->type == YAML_SEQUENCE_NODE
                       ? (size_t)(node->data.sequence.items.top - node->data.sequence.items.start)
                       : 1;
    if (items > maximum)
        return spec_malformed(reading, spec_line(node), "%s: more than %zu entries", what, maximum);
    *list = calloc(items + 1, sizeof **list);
    *count = 0;
    if (*list == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    if (node->type != YAML_SEQUENCE_NODE)
        return list_append(reading, (yaml_node_t *)node, what, *list, count);
    int result = EXIT_OK;
    for (yaml_node_item_t *item = node->data.sequence.items.start;
         item < node->data.sequence.items.top && result == EXIT_OK; item++) {
        yaml_node_t *entry;
        result = spec_visit(reading, *item, &entry);
        if (result == EXIT_OK)
            result = list_append(reading, entry, what, *list, count);
    }
    return result;
}

int spec_path(const struct spec_reading *reading, const char *text, char **path)
{
    if (text[0] == '/')
        return spec_copy(text, path);
    if (asprintf(path, "%s/%s", reading->spec->directory, text) < 0) {
        *path = NULL;
        return error_set(EXIT_OTHER, "out of memory");
    }
    return EXIT_OK;
}

/* "80:90" as the examples 80 to 90. */
static int split_rows(struct spec_reading *reading, const yaml_node_t *node,
                      struct pack_split *split)
{
    const char *text;
    int result = spec_text(reading, node, "rows", &text);
    if (result != EXIT_OK)
        return result;
    unsigned long long start, stop;
    int consumed = 0;
    if (sscanf(text, "%llu:%llu%n", &start, &stop, &consumed) != 2 || text[consumed] != '\0' ||
        text[0] < '0' || text[0] > '9' || start > stop || stop > (uint64_t)INT64_MAX)
        return spec_malformed(reading, spec_line(node),
                              "rows of split %s: expected START:STOP with START <= STOP, found '%s'",
                              split->name, text);
    split->start = start;
    split->stop = stop;
    return EXIT_OK;
}

static int split_entry(struct spec_reading *reading, int key, int value, struct pack_split *split,
                       int *kinds)
{
    static const char *const keys[] = {"examples", "rows", "indices", "comment"};
    char where[320];
    const char *name, *text;
    size_t line;
    yaml_node_t *node;
    snprintf(where, sizeof where, "split %s", split->name);
    int result = spec_key(reading, key, where, keys, 4, &name, &line);
    if (result == EXIT_OK)
        result = spec_visit(reading, value, &node);
    if (result != EXIT_OK)
        return result;
    if (strcmp(name, "comment") == 0)
        return spec_text(reading, node, "comment", &text) != EXIT_OK ? error_code()
                                                                      : spec_copy(text, &split->comment);
    (*kinds)++;
    if (strcmp(name, "examples") == 0) {
        split->kind = SPLIT_EXAMPLES;
        return spec_count(reading, node, "examples", (uint64_t)INT64_MAX, &split->examples);
    }
    if (strcmp(name, "rows") == 0) {
        split->kind = SPLIT_ROWS;
        return split_rows(reading, node, split);
    }
    split->kind = SPLIT_INDICES;
    result = spec_text(reading, node, "indices", &text);
    return result != EXIT_OK ? result : spec_path(reading, text, &split->indices);
}

static int split_read(struct spec_reading *reading, int key, int value, struct pack_split *split)
{
    const char *name;
    yaml_node_t *node;
    int result = spec_visit(reading, key, &node);
    if (result == EXIT_OK)
        result = spec_text(reading, node, "split name", &name);
    if (result == EXIT_OK)
        result = spec_copy(name, &split->name);
    if (result != EXIT_OK)
        return result;
    split->line = spec_line(node);
    if ((result = spec_visit(reading, value, &node)) != EXIT_OK ||
        (result = spec_mapping(reading, node, split->name)) != EXIT_OK)
        return result;
    int kinds = 0;
    for (yaml_node_pair_t *pair = node->data.mapping.pairs.start;
         pair < node->data.mapping.pairs.top && result == EXIT_OK; pair++)
        result = split_entry(reading, pair->key, pair->value, split, &kinds);
    if (result == EXIT_OK && kinds != 1)
        return spec_malformed(reading, split->line,
                              "split %s: give one of examples, rows and indices", split->name);
    return result;
}

static int splits_read(struct spec_reading *reading, const yaml_node_t *node)
{
    struct pack_spec *spec = reading->spec;
    int result = spec_mapping(reading, node, "splits");
    for (yaml_node_pair_t *pair = node->data.mapping.pairs.start;
         result == EXIT_OK && pair < node->data.mapping.pairs.top; pair++) {
        if (spec->split_count == PACK_MAX_SPLITS)
            return spec_malformed(reading, spec_line(node), "more than %d splits", PACK_MAX_SPLITS);
        result = split_read(reading, pair->key, pair->value, &spec->splits[spec->split_count++]);
        for (size_t other = 0; result == EXIT_OK && other + 1 < spec->split_count; other++)
            if (strcmp(spec->splits[other].name, spec->splits[spec->split_count - 1].name) == 0)
                return spec_malformed(reading, spec->splits[spec->split_count - 1].line,
                                      "split %s named twice", spec->splits[other].name);
    }
    if (result == EXIT_OK && spec->split_count == 0)
        return spec_malformed(reading, spec_line(node), "splits: none given");
    return result;
}

/* The value nodes of `name`, `splits` and `sources` (0 when absent), keys checked. */
static int top_keys(struct spec_reading *reading, const yaml_node_t *root, int values[3])
{
    static const char *const keys[] = {"name", "splits", "sources"};
    for (yaml_node_pair_t *pair = root->data.mapping.pairs.start;
         pair < root->data.mapping.pairs.top; pair++) {
        const char *name;
        size_t line;
        int result = spec_key(reading, pair->key, "the spec", keys, 3, &name, &line);
        if (result != EXIT_OK)
            return result;
        size_t which = strcmp(name, "name") == 0 ? 0 : strcmp(name, "splits") == 0 ? 1 : 2;
        if (values[which] != 0)
            return spec_malformed(reading, line, "%s given twice", name);
        values[which] = pair->value;
    }
    return EXIT_OK;
}

static int name_read(struct spec_reading *reading, const yaml_node_t *node)
{
    const char *text;
    int result = spec_text(reading, node, "name", &text);
    if (result != EXIT_OK)
        return result;
    if (strchr(text, '/') != NULL || strcmp(text, ".") == 0 || strcmp(text, "..") == 0)
        return spec_malformed(reading, spec_line(node), "name: a file name without '/', found '%s'",
                              text);
    free(reading->spec->name);
    return spec_copy(text, &reading->spec->name);
}

/* The top level: the name, the splits, then the sources (which name splits). */
static int document_read(struct spec_reading *reading)
{
    yaml_node_t *root = yaml_document_get_root_node(&reading->document);
    if (root == NULL)
        return spec_malformed(reading, 1, "empty spec");
    reading->node_count =
        (size_t)(reading->document.nodes.top - reading->document.nodes.start);
    reading->visited = calloc(reading->node_count + 1, 1);
    if (reading->visited == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    reading->visited[0] = 1;
    int values[3] = {0, 0, 0};
    int result = spec_mapping(reading, root, "the spec");
    if (result == EXIT_OK)
        result = top_keys(reading, root, values);
    if (result == EXIT_OK && (values[1] == 0 || values[2] == 0))
        return spec_malformed(reading, 1, "%s missing", values[1] == 0 ? "splits" : "sources");
    yaml_node_t *node;
    for (int which = 0; which < 3 && result == EXIT_OK; which++) {
        if (values[which] == 0 || (result = spec_visit(reading, values[which], &node)) != EXIT_OK)
            continue;
        result = which == 0   ? name_read(reading, node)
                 : which == 1 ? splits_read(reading, node)
                              : spec_sources_read(reading, node);
    }
    return result;
}

/* The YAML loader's failure, with the line it names. */
static int load_failure(struct spec_reading *reading, const yaml_parser_t *parser)
{
    if (parser->error == YAML_MEMORY_ERROR)
        return error_set(EXIT_OTHER, "out of memory");
    size_t line = parser->error == YAML_READER_ERROR ? 1 : parser->problem_mark.line + 1;
    return spec_malformed(reading, line, "%s%s%s",
                          parser->problem != NULL ? parser->problem : "not valid YAML",
                          parser->context != NULL ? " " : "",
                          parser->context != NULL ? parser->context : "");
}

static int text_read(struct pack_spec *spec)
{
    struct stat status;
    int descriptor = input_file_open(spec->path, &status);
    if (descriptor < 0)
        return error_code();
    if (status.st_size > PACK_SPEC_MAX_BYTES) {
        close(descriptor);
        return error_set(EXIT_USAGE, "malformed spec: %s: more than %u bytes", spec->path,
                         PACK_SPEC_MAX_BYTES);
    }
    spec->text = calloc(1, (size_t)status.st_size + 1);
    ssize_t got = spec->text != NULL ? read(descriptor, spec->text, (size_t)status.st_size) : -1;
    close(descriptor);
    if (got != status.st_size)
        return error_set(got < 0 && spec->text != NULL ? EXIT_MISSING_INPUT : EXIT_OTHER,
                         "cannot read spec: %s: %s", spec->path,
                         spec->text == NULL ? "out of memory" : "short read");
    spec->length = (size_t)got;
    return EXIT_OK;
}

/* The spec's directory, and its file name without the extension as the default name. */
static int names_from_path(struct pack_spec *spec)
{
    const char *slash = strrchr(spec->path, '/');
    const char *file = slash != NULL ? slash + 1 : spec->path;
    spec->directory = slash == NULL                ? strdup(".")
                      : slash == spec->path        ? strdup("/")
                                                   : strndup(spec->path, (size_t)(slash - spec->path));
    const char *dot = strrchr(file, '.');
    spec->name = dot != NULL && dot != file ? strndup(file, (size_t)(dot - file)) : strdup(file);
    return spec->directory == NULL || spec->name == NULL ? error_set(EXIT_OTHER, "out of memory")
                                                         : EXIT_OK;
}

static const struct yaml_bounds spec_yaml_bounds = {.max_depth = PACK_SPEC_MAX_DEPTH,
                                                    .max_nodes = PACK_SPEC_MAX_NODES};

static int spec_parse(struct spec_reading *reading)
{
    struct pack_spec *spec = reading->spec;
    size_t line = 0;
    char why[64];
    if (!yaml_bounds_check(spec->text, spec->length, &spec_yaml_bounds, &line, why, sizeof why))
        return spec_malformed(reading, line, "%s", why);
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser))
        return error_set(EXIT_OTHER, "out of memory");
    yaml_parser_set_input_string(&parser, (const unsigned char *)spec->text, spec->length);
    int result = EXIT_OK;
    if (!yaml_parser_load(&parser, &reading->document))
        result = load_failure(reading, &parser);
    yaml_parser_delete(&parser);
    if (result != EXIT_OK)
        return result;
    result = document_read(reading);
    yaml_document_delete(&reading->document);
    free(reading->visited);
    return result;
}

int pack_spec_read(const char *path, struct pack_spec **spec)
{
    *spec = calloc(1, sizeof **spec);
    if (*spec == NULL || ((*spec)->path = strdup(path)) == NULL) {
        free(*spec);
        *spec = NULL;
        return error_set(EXIT_OTHER, "out of memory");
    }
    struct spec_reading reading = {.spec = *spec};
    int result = names_from_path(*spec);
    if (result == EXIT_OK)
        result = text_read(*spec);
    if (result == EXIT_OK)
        result = spec_parse(&reading);
    if (result != EXIT_OK) {
        pack_spec_free(*spec);
        *spec = NULL;
    }
    return result;
}

size_t pack_spec_split_index(const struct pack_spec *spec, const char *name)
{
    size_t index = 0;
    while (index < spec->split_count && strcmp(spec->splits[index].name, name) != 0)
        index++;
    return index;
}

static void strings_free(char **list, size_t count)
{
    for (size_t index = 0; list != NULL && index < count; index++)
        free(list[index]);
    free(list);
}

static void source_free(struct pack_source *source)
{
    free(source->name);
    strings_free(source->axes, source->axis_count);
    strings_free(source->columns, source->column_count);
    for (size_t index = 0; index < source->input_count; index++) {
        free(source->inputs[index].path);
        free(source->inputs[index].member);
        free(source->inputs[index].shown);
    }
    free(source->inputs);
    free(source->comment);
}

void pack_spec_free(struct pack_spec *spec)
{
    if (spec == NULL)
        return;
    for (size_t index = 0; index < spec->split_count; index++) {
        free(spec->splits[index].name);
        free(spec->splits[index].indices);
        free(spec->splits[index].comment);
    }
    for (size_t index = 0; index < spec->source_count; index++)
        source_free(&spec->sources[index]);
    free(spec->path);
    free(spec->directory);
    free(spec->text);
    free(spec->name);
    free(spec);
}
