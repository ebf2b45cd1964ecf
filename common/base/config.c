/* Fuel's config: the file (~/.fuelrc or $FUEL_CONFIG), FUEL_* overrides, the data path searched. */
#include "config.h"

#include "config_values.h"
#include "config_yaml.h"
#include "error.h"
#include "input_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A config file is a few lines; this bounds what a hostile one can make us allocate. */
enum { CONFIG_MAX_BYTES = 1 << 20 };

static int unreadable(const char *file, const char *why)
{
    return error_set(EXIT_USAGE, "cannot read config: %s: %s", file, why);
}

/* Reads FILE whole into *TEXT; *TEXT stays NULL when FILE is a character device, which Fuel
   treats as no config (so FUEL_CONFIG=/dev/null means none), or a missing ~/.fuelrc (a file
   that FUEL_CONFIG NAMED must exist); a directory, FIFO or socket is not a regular file. */
static int file_read(const char *file, bool named, char **text, size_t *length)
{
    struct stat status;
    if (stat(file, &status) != 0 && named && (errno == ENOENT || errno == ENOTDIR))
        return error_set(EXIT_MISSING_INPUT, "config file not found: %s: named by FUEL_CONFIG",
                         file);
    if (stat(file, &status) != 0)
        return errno == ENOENT || errno == ENOTDIR ? EXIT_OK : unreadable(file, strerror(errno));
    if (S_ISCHR(status.st_mode))
        return EXIT_OK;
    if (!S_ISREG(status.st_mode))
        return input_not_regular(file, &status);
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
    int result = buffer == NULL           ? config_out_of_memory()
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
    const char *home = config_home_directory();
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
    bool named = getenv("FUEL_CONFIG") != NULL;
    int status = file != NULL ? file_read(file, named, &text, &length) : EXIT_OK;
    if (text == NULL) {
        free(file);
        return status;
    }
    config->file = file;
    status = config_parse(config, file, text, length);
    free(text);
    return status;
}

static int environment_list(const char *variable, struct string_list *list,
                            const char *separators, bool expand)
{
    const char *value = getenv(variable);
    if (value == NULL)
        return EXIT_OK;
    string_list_free(list);
    return string_list_split(list, value, strlen(value), separators, expand);
}

static int environment_string(const char *variable, char **target, bool expand)
{
    const char *value = getenv(variable);
    if (value == NULL)
        return EXIT_OK;
    free(*target);
    *target = value[0] == '\0' ? NULL : config_item_copy(value, strlen(value), expand);
    return value[0] == '\0' || *target != NULL ? EXIT_OK : config_out_of_memory();
}

static int apply_environment(struct fuel_config *config)
{
    int status = environment_list("FUEL_DATA_PATH", &config->data_path, ":", true);
    if (status == EXIT_OK)
        status = environment_string("FUEL_LOCAL_DATA_PATH", &config->local_data_path, true);
    if (status == EXIT_OK)
        status = environment_list("FUEL_EXTRA_DOWNLOADERS", &config->extra_downloaders,
                                  CONFIG_WORD_SEPARATORS, true);
    if (status == EXIT_OK)
        status = environment_list("FUEL_EXTRA_CONVERTERS", &config->extra_converters,
                                  CONFIG_WORD_SEPARATORS, true);
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
    string_list_free(&config->data_path);
    free(config->local_data_path);
    string_list_free(&config->extra_downloaders);
    string_list_free(&config->extra_converters);
    free(config->mirror);
    string_list_free(&config->mirrors);
    memset(config, 0, sizeof *config);
}

static bool is_file_or_directory(const char *path)
{
    struct stat status;
    return stat(path, &status) == 0 && (S_ISREG(status.st_mode) || S_ISDIR(status.st_mode));
}

const char *config_file_shown(void)
{
    const char *named = getenv("FUEL_CONFIG");
    struct stat status;
    if (named == NULL)
        return "~/.fuelrc";
    return stat(named, &status) == 0 && S_ISREG(status.st_mode) ? named
                                                                : "a file named by FUEL_CONFIG";
}

static int not_found(const struct fuel_config *config, const char *name)
{
    if (config->data_path.count == 0)
        return error_set(EXIT_MISSING_INPUT,
                         "not found: %s: the data path is empty; set data_path in %s "
                         "or FUEL_DATA_PATH (directories separated by ':')",
                         name, config_file_shown());
    char searched[1536] = "";
    size_t used = 0;
    for (size_t index = 0; index < config->data_path.count && used < sizeof searched; index++)
        used += (size_t)snprintf(searched + used, sizeof searched - used, "%s%s",
                                 index > 0 ? ", " : "", config->data_path.items[index]);
    return error_set(EXIT_MISSING_INPUT, "not found in the data path: %s: searched %s%s", name,
                     searched, used >= sizeof searched ? "..." : "");
}

bool data_path_entry_is_store(const char *entry)
{
    return strncmp(entry, "s3://", 5) == 0;
}

int data_path_find(const struct fuel_config *config, const char *name, char *path, size_t size)
{
    char occupied[PATH_MAX] = "";
    struct stat status;
    for (size_t index = 0; index < config->data_path.count; index++) {
        const char *directory = config->data_path.items[index];
        if (data_path_entry_is_store(directory))
            continue;
        size_t length = strlen(directory);
        const char *separator = length > 0 && directory[length - 1] == '/' ? "" : "/";
        int written = snprintf(path, size, "%s%s%s", directory, separator, name);
        if (written < 0 || (size_t)written >= size)
            return error_set(EXIT_USAGE, "path too long: %s%s%s", directory, separator, name);
        if (is_file_or_directory(path))
            return EXIT_OK;
        if (occupied[0] == '\0' && stat(path, &status) == 0)
            snprintf(occupied, sizeof occupied, "%s", path);
    }
    if (occupied[0] != '\0' && strlen(occupied) < size) {
        memcpy(path, occupied, strlen(occupied) + 1);
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
        if (data_path_entry_is_store(directory) ||
            (stat(directory, &status) == 0 && S_ISDIR(status.st_mode) &&
             access(directory, W_OK | X_OK) == 0))
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
