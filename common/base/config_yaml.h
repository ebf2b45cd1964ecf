/* Fuel's YAML config read into a config (config_yaml.c), for config.c. */
#ifndef FUEL_CONFIG_YAML_H
#define FUEL_CONFIG_YAML_H

#include "config.h"

#include <stddef.h>

/* Reads the YAML TEXT (LENGTH bytes) of config FILE into CONFIG. */
int config_parse(struct fuel_config *config, const char *file, const char *text, size_t length);

#endif
