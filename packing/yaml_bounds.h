/* Bounds a YAML text's nesting and node count with libyaml's event parser before anything loads
   it (libyaml's loader takes time worse than quadratic in the nesting depth). */
#ifndef FUEL_YAML_BOUNDS_H
#define FUEL_YAML_BOUNDS_H

#include <stdbool.h>
#include <stddef.h>

struct yaml_bounds {
    size_t max_depth; /* sequences and mappings open at once */
    size_t max_nodes; /* scalars, aliases, sequences and mappings in all */
};

/* True when the LENGTH bytes at TEXT stay within BOUNDS, or are not valid YAML at all, or memory
   ran out (the loader then reports that, as it would have). Else false with LINE (1-based) and WHY
   set: "nested more than N deep", "more than N nodes". The walk stops at the first excess, so its
   time is bounded by the bounds, whatever the text holds after. */
bool yaml_bounds_check(const char *text, size_t length, const struct yaml_bounds *bounds,
                      size_t *line, char *why, size_t why_size);

#endif
