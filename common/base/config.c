/* Fuel's YAML config (~/.fuelrc or $FUEL_CONFIG) read with libyaml, FUEL_* overrides, data path. */
#include "config.h"

#include "error.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

/* A config file is a few lines; these bound what a hostile one can make us allocate. */
enum { CONFIG_MAX_BYTES = 1 << 20, LIST_MAX_ITEMS = 1024, VARIABLE_NAME_MAX = 256 };

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
static const char WORD_SEPARATORS[] = " \t\n";

struct config_reader {
    yaml_parser_t parser;
    const char *file;
    const char *text;
    size_t length;
};

static int out_of_memory(void)
{
    return error_set(EXIT_OTHER, "cannot load config: out of memory");
}

static const char *home_directory(void)
{
    const char *home = getenv("HOME");
    if (home != NULL && home[0] != '\0')
        return home;
    struct passwd *entry = getpwuid(getuid());
    return entry != NULL ? entry->pw_dir : NULL;
}

/* The length of a "$NAME" or "${NAME}" reference at the start of TEXT, 0 when there is none. */
static size_t variable_reference(const char *text, size_t length, const char **name,
                                 size_t *name_length)
{
    if (length < 2 || text[0] != '$')
        return 0;
    if (text[1] == '{') {
        const char *close = memchr(text + 2, '}', length - 2);
        if (close == NULL)
            return 0;
        *name = text + 2;
        *name_length = (size_t)(close - *name);
        return (size_t)(close - text) + 1;
    }
    size_t end = 1;
    while (end < length && (isalnum((unsigned char)text[end]) || text[end] == '_'))
        end++;
    *name = text + 1;
    *name_length = end - 1;
    return end > 1 ? end : 0;
}

static const char *variable_value(const char *name, size_t name_length)
{
    char buffer[VARIABLE_NAME_MAX];
    if (name_length == 0 || name_length >= sizeof buffer)
        return NULL;
    memcpy(buffer, name, name_length);
    buffer[name_length] = '\0';
    return getenv(buffer);
}

/* "~" or "~user" at the start of TEXT (up to the first '/'), as Python's os.path.expanduser. */
static const char *user_directory(const char *text, size_t *consumed)
{
    const char *slash = strchr(text, '/');
    size_t length = slash != NULL ? (size_t)(slash - text) : strlen(text);
    *consumed = length;
    if (length == 1)
        return home_directory();
    char user[VARIABLE_NAME_MAX];
    if (length - 1 >= sizeof user)
        return NULL;
    memcpy(user, text + 1, length - 1);
    user[length - 1] = '\0';
    struct passwd *entry = getpwnam(user);
    return entry != NULL ? entry->pw_dir : NULL;
}

/* TEXT with $VAR and ${VAR} replaced when VAR is set, then a leading ~ or ~user replaced, as
   Fuel does to each data path entry (expanduser(expandvars(path))). */
static char *path_expand(const char *text, size_t length)
{
    char *expanded = NULL;
    size_t size = 0;
    FILE *stream = open_memstream(&expanded, &size);
    if (stream == NULL)
        return NULL;
    for (size_t index = 0; index < length;) {
        const char *name = NULL, *value = NULL;
        size_t name_length = 0;
        size_t reference = variable_reference(text + index, length - index, &name, &name_length);
        if (reference > 0 && (value = variable_value(name, name_length)) != NULL) {
            fputs(value, stream);
            index += reference;
        } else {
            fputc(text[index++], stream);
        }
    }
    if (fclose(stream) != 0) {
        free(expanded);
        return NULL;
    }
    size_t consumed = 0;
    const char *directory = expanded[0] == '~' ? user_directory(expanded, &consumed) : NULL;
    if (directory == NULL)
        return expanded;
    char *result = NULL;
    if (asprintf(&result, "%s%s", directory, expanded + consumed) < 0)
        result = NULL;
    free(expanded);
    return result;
}

static int list_add(struct string_list *list, char *item)
{
    char **items = item != NULL ? realloc(list->items, (list->count + 1) * sizeof *items) : NULL;
    if (items == NULL) {
        free(item);
        return out_of_memory();
    }
    list->items = items;
    list->items[list->count++] = item;
    return EXIT_OK;
}

static void list_free(struct string_list *list)
{
    for (size_t index = 0; index < list->count; index++)
        free(list->items[index]);
    free(list->items);
    list->items = NULL;
    list->count = 0;
}

static char *item_copy(const char *text, size_t length, bool expand)
{
    return expand ? path_expand(text, length) : strndup(text, length);
}

/* Adds each non-empty piece of TEXT between SEPARATORS. */
static int list_split(struct string_list *list, const char *text, size_t length,
                      const char *separators, bool expand)
{
    size_t start = 0;
    for (size_t index = 0; index <= length; index++) {
        if (index < length && strchr(separators, text[index]) == NULL)
            continue;
        if (index > start) {
            int status = list_add(list, item_copy(text + start, index - start, expand));
            if (status != EXIT_OK)
                return status;
        }
        start = index + 1;
    }
    return EXIT_OK;
}

static size_t piece_count(const char *text, size_t length, const char *separators)
{
    size_t count = 0;
    for (size_t index = 0; index < length; index++)
        if (strchr(separators, text[index]) == NULL &&
            (index == 0 || strchr(separators, text[index - 1]) != NULL))
            count++;
    return count;
}

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
        return out_of_memory();
    /* libyaml's reader (encoding errors) reports a byte offset; the scanner and parser a mark. */
    size_t line = parser->error == YAML_READER_ERROR ? line_of_offset(reader, parser->problem_offset)
                                                     : parser->problem_mark.line + 1;
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
    const char *separators = key->kind == KEY_PATH_LIST ? ":" : WORD_SEPARATORS;
    if (piece_count(text, length, separators) > LIST_MAX_ITEMS)
        return malformed(reader, event_line(event), "%s: more than %d entries", key->name,
                         LIST_MAX_ITEMS);
    return list_split(list, text, length, separators, key->kind != KEY_WORD_LIST);
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
    return list_add(list, item_copy((const char *)event->data.scalar.value,
                                    event->data.scalar.length, key->kind != KEY_WORD_LIST));
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
    *target = length == 0 ? NULL : item_copy(text, length, key->kind == KEY_PATH);
    return length == 0 || *target != NULL ? EXIT_OK : out_of_memory();
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
        list_free(key_list(config, key->name));
        if (status == EXIT_OK)
            status = list_from_string(reader, &event, key, key_list(config, key->name));
    } else if (event.type == YAML_SEQUENCE_START_EVENT && is_list) {
        list_free(key_list(config, key->name));
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
        return malformed(reader, event_line(event), "unknown key '%s' (known keys: %s)", quoted,
                         KNOWN_KEYS);
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

static int parse_config(struct fuel_config *config, const char *file, const char *text,
                        size_t length)
{
    struct config_reader reader = {.file = file, .text = text, .length = length};
    if (!yaml_parser_initialize(&reader.parser))
        return out_of_memory();
    yaml_parser_set_input_string(&reader.parser, (const unsigned char *)text, length);
    int status = read_stream(&reader, config);
    yaml_parser_delete(&reader.parser);
    return status;
}

static int unreadable(const char *file, const char *why)
{
    return error_set(EXIT_USAGE, "cannot read config: %s: %s", file, why);
}

/* Reads FILE whole into *TEXT; *TEXT stays NULL when FILE is missing or not a regular file,
   which Fuel treats as no config (so FUEL_CONFIG=/dev/null means none). */
static int file_read(const char *file, char **text, size_t *length)
{
    struct stat status;
    if (stat(file, &status) != 0)
        return errno == ENOENT || errno == ENOTDIR ? EXIT_OK : unreadable(file, strerror(errno));
    if (!S_ISREG(status.st_mode))
        return EXIT_OK;
    int descriptor = open(file, O_RDONLY | O_CLOEXEC);
    if (descriptor < 0)
        return unreadable(file, strerror(errno));
    char *buffer = malloc(CONFIG_MAX_BYTES + 1);
    size_t filled = 0;
    ssize_t count = 1;
    while (buffer != NULL && filled <= CONFIG_MAX_BYTES &&
           (count = read(descriptor, buffer + filled, CONFIG_MAX_BYTES + 1 - filled)) > 0)
        filled += (size_t)count;
    int failure = count < 0 ? errno : 0;
    close(descriptor);
    int result = buffer == NULL           ? out_of_memory()
                 : failure != 0           ? unreadable(file, strerror(failure))
                 : filled > CONFIG_MAX_BYTES ? unreadable(file, "larger than 1 MiB")
                                             : EXIT_OK;
    if (result != EXIT_OK) {
        free(buffer);
        return result;
    }
    *text = buffer;
    *length = filled;
    return EXIT_OK;
}

static char *config_file_name(void)
{
    const char *named = getenv("FUEL_CONFIG");
    if (named != NULL)
        return strdup(named);
    const char *home = home_directory();
    char *file = NULL;
    if (home == NULL || asprintf(&file, "%s/.fuelrc", home) < 0)
        return NULL;
    return file;
}

static int read_file(struct fuel_config *config)
{
    char *file = config_file_name();
    char *text = NULL;
    size_t length = 0;
    int status = file != NULL ? file_read(file, &text, &length) : EXIT_OK;
    if (text == NULL) {
        free(file);
        return status;
    }
    config->file = file;
    status = parse_config(config, file, text, length);
    free(text);
    return status;
}

static int environment_list(const char *variable, struct string_list *list,
                            const char *separators, bool expand)
{
    const char *value = getenv(variable);
    if (value == NULL)
        return EXIT_OK;
    list_free(list);
    return list_split(list, value, strlen(value), separators, expand);
}

static int environment_string(const char *variable, char **target, bool expand)
{
    const char *value = getenv(variable);
    if (value == NULL)
        return EXIT_OK;
    free(*target);
    *target = value[0] == '\0' ? NULL : item_copy(value, strlen(value), expand);
    return value[0] == '\0' || *target != NULL ? EXIT_OK : out_of_memory();
}

static int apply_environment(struct fuel_config *config)
{
    int status = environment_list("FUEL_DATA_PATH", &config->data_path, ":", true);
    if (status == EXIT_OK)
        status = environment_string("FUEL_LOCAL_DATA_PATH", &config->local_data_path, true);
    if (status == EXIT_OK)
        status = environment_list("FUEL_EXTRA_DOWNLOADERS", &config->extra_downloaders,
                                  WORD_SEPARATORS, true);
    if (status == EXIT_OK)
        status = environment_list("FUEL_EXTRA_CONVERTERS", &config->extra_converters,
                                  WORD_SEPARATORS, true);
    if (status == EXIT_OK)
        status = environment_string("FUEL_MIRROR", &config->mirror, false);
    return status;
}

int config_load(struct fuel_config *config)
{
    memset(config, 0, sizeof *config);
    int status = read_file(config);
    if (status == EXIT_OK)
        status = apply_environment(config);
    if (status != EXIT_OK)
        config_free(config);
    return status;
}

void config_free(struct fuel_config *config)
{
    free(config->file);
    list_free(&config->data_path);
    free(config->local_data_path);
    list_free(&config->extra_downloaders);
    list_free(&config->extra_converters);
    free(config->mirror);
    list_free(&config->mirrors);
    memset(config, 0, sizeof *config);
}

static bool is_file_or_directory(const char *path)
{
    struct stat status;
    return stat(path, &status) == 0 && (S_ISREG(status.st_mode) || S_ISDIR(status.st_mode));
}

static int not_found(const struct fuel_config *config, const char *name)
{
    if (config->data_path.count == 0)
        return error_set(EXIT_MISSING_INPUT,
                         "not found: %s: the data path is empty; set data_path in ~/.fuelrc "
                         "or FUEL_DATA_PATH (directories separated by ':')",
                         name);
    char searched[1536] = "";
    size_t used = 0;
    for (size_t index = 0; index < config->data_path.count && used < sizeof searched; index++)
        used += (size_t)snprintf(searched + used, sizeof searched - used, "%s%s",
                                 index > 0 ? ", " : "", config->data_path.items[index]);
    return error_set(EXIT_MISSING_INPUT, "not found in the data path: %s: searched %s%s", name,
                     searched, used >= sizeof searched ? "..." : "");
}

int data_path_find(const struct fuel_config *config, const char *name, char *path, size_t size)
{
    for (size_t index = 0; index < config->data_path.count; index++) {
        const char *directory = config->data_path.items[index];
        size_t length = strlen(directory);
        const char *separator = length > 0 && directory[length - 1] == '/' ? "" : "/";
        int written = snprintf(path, size, "%s%s%s", directory, separator, name);
        if (written < 0 || (size_t)written >= size)
            return error_set(EXIT_USAGE, "path too long: %s%s%s", directory, separator, name);
        if (is_file_or_directory(path))
            return EXIT_OK;
    }
    if (size > 0)
        path[0] = '\0';
    return not_found(config, name);
}

const char *data_path_writable(const struct fuel_config *config)
{
    for (size_t index = 0; index < config->data_path.count; index++) {
        const char *directory = config->data_path.items[index];
        struct stat status;
        if (stat(directory, &status) == 0 && S_ISDIR(status.st_mode) &&
            access(directory, W_OK | X_OK) == 0)
            return directory;
    }
    return NULL;
}

int data_path_resolve(const char *name, char *path, size_t size)
{
    struct stat status;
    if (stat(name, &status) == 0 || errno != ENOENT) {
        if (snprintf(path, size, "%s", name) >= (int)size)
            return error_set(EXIT_USAGE, "path too long: %s", name);
        return EXIT_OK;
    }
    struct fuel_config config = {0};
    int result = config_load(&config);
    if (result == EXIT_OK)
        result = data_path_find(&config, name, path, size);
    config_free(&config);
    return result;
}
