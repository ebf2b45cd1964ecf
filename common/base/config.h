/* Fuel's configuration: YAML ~/.fuelrc (or $FUEL_CONFIG) overridden by FUEL_* variables. */
#ifndef FUEL_CONFIG_H
#define FUEL_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

struct string_list {
    char **items;
    size_t count;
};

struct fuel_config {
    char *file;                          /* the file read, NULL when there was none */
    struct string_list data_path;        /* data_path / FUEL_DATA_PATH (':'-separated) */
    char *local_data_path;               /* local_data_path / FUEL_LOCAL_DATA_PATH */
    /* extra_downloaders / FUEL_EXTRA_DOWNLOADERS and extra_converters / FUEL_EXTRA_CONVERTERS:
       paths separated by spaces, ~ and $VAR expanded */
    struct string_list extra_downloaders;
    struct string_list extra_converters;
    char *mirror;                        /* mirror / FUEL_MIRROR: replaces each URL up to the name */
    struct string_list mirrors;          /* mirrors: URL prefixes tried before the built-in URLs */
};

/* Loads the config file (a missing ~/.fuelrc is no error, a missing $FUEL_CONFIG EXIT_MISSING_INPUT)
   and applies the environment. A malformed
   file: EXIT_USAGE with "malformed config: FILE:LINE: why". */
int config_load(struct fuel_config *config);
void config_free(struct fuel_config *config);

/* The config file as messages name it: $FUEL_CONFIG (when a regular file), else "~/.fuelrc". */
const char *config_file_shown(void);

/* Whether a data path ENTRY is an object store's prefix (s3://BUCKET/PREFIX) rather than a
   directory: s3/s3_data_path.h searches those. */
bool data_path_entry_is_store(const char *entry);

/* Writes into PATH the first DIRECTORY/NAME of the data path's directories that is a file or a
   directory (its s3:// entries skipped); else the first that exists as something else (a FIFO:
   its opener says it is not a regular file). EXIT_MISSING_INPUT, naming every entry searched,
   when none exists. */
int data_path_find(const struct fuel_config *config, const char *name, char *path, size_t size);

/* The first entry of the data path that is an s3:// prefix or a directory that exists and can
   be written in; NULL when none. */
const char *data_path_writable(const struct fuel_config *config);

/* Writes into PATH NAME itself when such a file exists (or cannot be looked at), else the first
   match of NAME in the data path of the loaded config (data_path_find's errors). */
int data_path_resolve(const char *name, char *path, size_t size);

#endif
