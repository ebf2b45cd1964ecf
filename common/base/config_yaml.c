/* Fuel's YAML config read with libyaml into a config: its keys, their values, one-line errors. */
#include "config_yaml.h"

#include "config_values.h"
#include "error.h"
#include "suggest.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

/* A config file is a few lines; this bounds what a hostile one can make us allocate. */
enum { LIST_MAX_ITEMS = 1024 };

enum key_kind {
    KEY_PATH_LIST, /* a ':'-separated string or a list; entries get ~ and $VAR expanded */
    KEY_WORD_LIST, /* a space-separated string or a list */
    KEY_PATH_WORDS, /* a space-separated string or a list; entries get ~ and $VAR expanded */
    KEY_PATH,      /* a string; ~ and $VAR expanded */
    KEY_STRING,    /* a string */
    KEY_IGNORED,   /* a scalar Fuel knows (default_seed, floatX) that fuel has no use for */
};

struct config_key {
    const char *name;
    enum key_kind kind;
};

static const struct config_key config_keys[] = {
    {"data_path", KEY_PATH_LIST},       {"local_data_path", KEY_PATH},
    {"extra_downloaders", KEY_PATH_WORDS}, {"extra_converters", KEY_PATH_WORDS},
    {"mirror", KEY_STRING},             {"mirrors", KEY_WORD_LIST},
    {"default_seed", KEY_IGNORED},      {"floatX", KEY_IGNORED},
};
enum { CONFIG_KEY_COUNT = sizeof config_keys / sizeof config_keys[0] };

static const char KNOWN_KEYS[] = "data_path, local_data_path, extra_downloaders, extra_converters, "
                                 "mirror, mirrors, default_seed, floatX";

struct config_reader {
    yaml_parser_t parser;
    const char *file;
    const char *text;
    size_t length;
};

static int malformed(const struct config_reader *reader, size_t line, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

static int malformed(const struct config_reader *reader, size_t line, const char *format, ...)
{
    char why[512];
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(why, sizeof why, format, arguments);
    va_end(arguments);
    return error_set(EXIT_USAGE, "malformed config: %s:%zu: %s", reader->file, line, why);
}

static size_t line_of_offset(const struct config_reader *reader, size_t offset)
{
    size_t line = 1;
    for (size_t index = 0; index < offset && index < reader->length; index++)
        line += reader->text[index] == '\n';
    return line;
}

static int parser_failure(const struct config_reader *reader)
{
    const yaml_parser_t *parser = &reader->parser;
    if (parser->error == YAML_MEMORY_ERROR)
        return config_out_of_memory();
    /* libyaml's reader (encoding errors) reports a byte offset; the scanner and parser a mark. */
    size_t line = parser->error == YAML_READER_ERROR ? line_of_offset(reader, parser->problem_offset)
                                                     : parser->problem_mark.line + 1;
    /* What the end of the file left open is reported where it began (the end of a file whose
       last line ends in '\n' is marked on a line after it). */
    size_t last = line_of_offset(reader, reader->length) - (reader->length > 0 &&
                                                           reader->text[reader->length - 1] == '\n');
    if (parser->context != NULL && parser->problem_mark.index >= reader->length)
        line = parser->context_mark.line + 1;
    if (line > last)
        line = last;
    const char *problem = parser->problem != NULL ? parser->problem : "not valid YAML";
    if (parser->context != NULL)
        return malformed(reader, line, "%s %s", problem, parser->context);
    return malformed(reader, line, "%s", problem);
}

static int next_event(struct config_reader *reader, yaml_event_t *event)
{
    if (!yaml_parser_parse(&reader->parser, event))
        return parser_failure(reader);
    return EXIT_OK;
}

static size_t event_line(const yaml_event_t *event)
{
    return event->start_mark.line + 1;
}

/* A plain scalar YAML resolves to null ("", "~", "null"), or one tagged !!null. */
static bool scalar_is_null(const yaml_event_t *event)
{
    const char *tag = (const char *)event->data.scalar.tag;
    if (tag != NULL)
        return strcmp(tag, YAML_NULL_TAG) == 0;
    if (event->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
        return false;
    const char *value = (const char *)event->data.scalar.value;
    return value[0] == '\0' || strcmp(value, "~") == 0 || strcmp(value, "null") == 0 ||
           strcmp(value, "Null") == 0 || strcmp(value, "NULL") == 0;
}

/* Checks that EVENT is a scalar usable as a string for KEY. */
static int string_scalar(const struct config_reader *reader, const yaml_event_t *event,
                         const char *key)
{
    if (scalar_is_null(event))
        return malformed(reader, event_line(event), "%s: no value", key);
    if (memchr(event->data.scalar.value, '\0', event->data.scalar.length) != NULL)
        return malformed(reader, event_line(event), "%s: contains a NUL character", key);
    return EXIT_OK;
}

static const char *event_kind(const yaml_event_t *event)
{
    switch (event->type) {
    case YAML_SEQUENCE_START_EVENT:
        return "a list";
    case YAML_MAPPING_START_EVENT:
        return "a mapping";
    case YAML_ALIAS_EVENT:
        return "an alias (aliases are not supported)";
    default:
        return "a string";
    }
}

static int list_from_string(const struct config_reader *reader, const yaml_event_t *event,
                            const struct config_key *key, struct string_list *list)
{
    const char *text = (const char *)event->data.scalar.value;
    size_t length = event->data.scalar.length;
    const char *separators = key->kind == KEY_PATH_LIST ? ":" : CONFIG_WORD_SEPARATORS;
    if (string_list_piece_count(text, length, separators) > LIST_MAX_ITEMS)
        return malformed(reader, event_line(event), "%s: more than %d entries", key->name,
                         LIST_MAX_ITEMS);
    return string_list_split(list, text, length, separators, key->kind != KEY_WORD_LIST);
}

static int list_entry(const struct config_reader *reader, const yaml_event_t *event,
                      const struct config_key *key, struct string_list *list)
{
    if (event->type != YAML_SCALAR_EVENT)
        return malformed(reader, event_line(event), "%s: expected a list of strings, found %s",
                         key->name, event_kind(event));
    int status = string_scalar(reader, event, key->name);
    if (status != EXIT_OK || event->data.scalar.length == 0)
        return status;
    if (list->count >= LIST_MAX_ITEMS)
        return malformed(reader, event_line(event), "%s: more than %d entries", key->name,
                         LIST_MAX_ITEMS);
    return string_list_add(list, config_item_copy((const char *)event->data.scalar.value,
                                                  event->data.scalar.length,
                                                  key->kind != KEY_WORD_LIST));
}

static int list_from_sequence(struct config_reader *reader, const struct config_key *key,
                              struct string_list *list)
{
    for (;;) {
        yaml_event_t event;
        int status = next_event(reader, &event);
        if (status != EXIT_OK)
            return status;
        bool end = event.type == YAML_SEQUENCE_END_EVENT;
        if (!end)
            status = list_entry(reader, &event, key, list);
        yaml_event_delete(&event);
        if (end || status != EXIT_OK)
            return status;
    }
}

static struct string_list *key_list(struct fuel_config *config, const char *name)
{
    if (strcmp(name, "data_path") == 0)
        return &config->data_path;
    if (strcmp(name, "extra_downloaders") == 0)
        return &config->extra_downloaders;
    if (strcmp(name, "extra_converters") == 0)
        return &config->extra_converters;
    return &config->mirrors;
}

static int string_value(const struct config_reader *reader, const yaml_event_t *event,
                        const struct config_key *key, struct fuel_config *config)
{
    int status = string_scalar(reader, event, key->name);
    if (status != EXIT_OK || key->kind == KEY_IGNORED)
        return status;
    const char *text = (const char *)event->data.scalar.value;
    size_t length = event->data.scalar.length;
    char **target = key->kind == KEY_PATH ? &config->local_data_path : &config->mirror;
    free(*target);
    *target = length == 0 ? NULL : config_item_copy(text, length, key->kind == KEY_PATH);
    return length == 0 || *target != NULL ? EXIT_OK : config_out_of_memory();
}

/* Reads the value of KEY (a later duplicate replaces an earlier one, as in PyYAML). */
static int key_value(struct config_reader *reader, const struct config_key *key,
                     struct fuel_config *config)
{
    yaml_event_t event;
    int status = next_event(reader, &event);
    if (status != EXIT_OK)
        return status;
    bool is_list =
        key->kind == KEY_PATH_LIST || key->kind == KEY_WORD_LIST || key->kind == KEY_PATH_WORDS;
    if (event.type == YAML_SCALAR_EVENT && !is_list) {
        status = string_value(reader, &event, key, config);
    } else if (event.type == YAML_SCALAR_EVENT) {
        status = string_scalar(reader, &event, key->name);
        string_list_free(key_list(config, key->name));
        if (status == EXIT_OK)
            status = list_from_string(reader, &event, key, key_list(config, key->name));
    } else if (event.type == YAML_SEQUENCE_START_EVENT && is_list) {
        string_list_free(key_list(config, key->name));
        status = list_from_sequence(reader, key, key_list(config, key->name));
    } else {
        status = malformed(reader, event_line(&event), "%s: expected %s, found %s", key->name,
                           is_list ? "a string or a list of strings" : "a string",
                           event_kind(&event));
    }
    yaml_event_delete(&event);
    return status;
}

static const struct config_key *key_find(const yaml_event_t *event)
{
    for (size_t index = 0; index < CONFIG_KEY_COUNT; index++)
        if (strlen(config_keys[index].name) == event->data.scalar.length &&
            memcmp(config_keys[index].name, event->data.scalar.value, event->data.scalar.length) == 0)
            return &config_keys[index];
    return NULL;
}

/* The first bytes of an unknown key, printable, to quote in a one-line message. */
static void key_quote(const yaml_event_t *event, char *quoted, size_t size)
{
    size_t length = event->data.scalar.length < size - 1 ? event->data.scalar.length : size - 1;
    for (size_t index = 0; index < length; index++) {
        unsigned char byte = event->data.scalar.value[index];
        quoted[index] = isprint(byte) ? (char)byte : '?';
    }
    quoted[length] = '\0';
}

/* One key of the top-level mapping: EVENT is what stands in key position. */
static int mapping_entry(struct config_reader *reader, const yaml_event_t *event,
                         struct fuel_config *config)
{
    if (event->type != YAML_SCALAR_EVENT)
        return malformed(reader, event_line(event), "expected a key, found %s", event_kind(event));
    const struct config_key *key = key_find(event);
    if (key == NULL) {
        char quoted[65];
        key_quote(event, quoted, sizeof quoted);
        struct suggestion suggestion;
        suggestion_begin(&suggestion, quoted);
        for (size_t index = 0; index < CONFIG_KEY_COUNT; index++)
            suggestion_offer(&suggestion, config_keys[index].name);
        char mean[256];
        bool close = suggestion_text(&suggestion, mean, sizeof mean);
        return malformed(reader, event_line(event), "unknown key '%s'%s%s (known keys: %s)", quoted,
                         close ? "; " : "", close ? mean : "", KNOWN_KEYS);
    }
    return key_value(reader, key, config);
}

static int read_mapping(struct config_reader *reader, struct fuel_config *config)
{
    for (;;) {
        yaml_event_t event;
        int status = next_event(reader, &event);
        if (status != EXIT_OK)
            return status;
        bool end = event.type == YAML_MAPPING_END_EVENT;
        if (!end)
            status = mapping_entry(reader, &event, config);
        yaml_event_delete(&event);
        if (end || status != EXIT_OK)
            return status;
    }
}

/* The document's root: a mapping of keys, or nothing at all (an empty file or a bare "---"). */
static int read_document(struct config_reader *reader, struct fuel_config *config)
{
    yaml_event_t event;
    int status = next_event(reader, &event);
    if (status != EXIT_OK)
        return status;
    if (event.type == YAML_MAPPING_START_EVENT)
        status = read_mapping(reader, config);
    else if (event.type != YAML_SCALAR_EVENT || !scalar_is_null(&event))
        status = malformed(reader, event_line(&event),
                           "the top level is %s, not a mapping of keys to values",
                           event_kind(&event));
    yaml_event_delete(&event);
    return status;
}

static int read_stream(struct config_reader *reader, struct fuel_config *config)
{
    size_t documents = 0;
    for (;;) {
        yaml_event_t event;
        int status = next_event(reader, &event);
        if (status != EXIT_OK)
            return status;
        yaml_event_type_t type = event.type;
        size_t line = event_line(&event);
        yaml_event_delete(&event);
        if (type == YAML_STREAM_END_EVENT)
            return EXIT_OK;
        if (type == YAML_DOCUMENT_START_EVENT && ++documents > 1)
            return malformed(reader, line, "more than one document");
        if (type == YAML_DOCUMENT_START_EVENT && (status = read_document(reader, config)) != EXIT_OK)
            return status;
    }
}

int config_parse(struct fuel_config *config, const char *file, const char *text,
                        size_t length)
{
    struct config_reader reader = {.file = file, .text = text, .length = length};
    if (!yaml_parser_initialize(&reader.parser))
        return config_out_of_memory();
    yaml_parser_set_input_string(&reader.parser, (const unsigned char *)text, length);
    int status = read_stream(&reader, config);
    yaml_parser_delete(&reader.parser);
    return status;
}
