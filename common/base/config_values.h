/* The values of config entries (config_values.c), for config.c and config_yaml.c: $VAR and ~
   expanded, string lists, the home directory. */
#ifndef FUEL_CONFIG_VALUES_H
#define FUEL_CONFIG_VALUES_H

#include "config.h"

#include <stdbool.h>
#include <stddef.h>

/* What separates the entries of a list of words or of paths given as one string. */
#define CONFIG_WORD_SEPARATORS " \t\n"

/* EXIT_OTHER "cannot load config: out of memory". */
int config_out_of_memory(void);

/* $HOME, or the user's home directory from the password database; NULL when neither is known. */
const char *config_home_directory(void);

/* A copy of the LENGTH bytes of TEXT, with $VAR, ${VAR} and a leading ~ or ~user expanded as
   Fuel does to paths (expanduser(expandvars(path))) when EXPAND; NULL when out of memory. */
char *config_item_copy(const char *text, size_t length, bool expand);

/* Adds ITEM (NULL: out of memory) to LIST, which owns it from then on. */
int string_list_add(struct string_list *list, char *item);

/* Adds each non-empty piece of TEXT between SEPARATORS, expanded when EXPAND. */
int string_list_split(struct string_list *list, const char *text, size_t length,
                      const char *separators, bool expand);

/* The non-empty pieces of TEXT between SEPARATORS. */
size_t string_list_piece_count(const char *text, size_t length, const char *separators);

void string_list_free(struct string_list *list);

#endif
