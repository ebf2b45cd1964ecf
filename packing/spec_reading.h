/* What the spec reader's files share: the YAML document being walked (spec.c: the file, the top
   level and the splits; spec_sources.c: the sources and their `from` entries) and its helpers. */
#ifndef FUEL_PACK_SPEC_READING_H
#define FUEL_PACK_SPEC_READING_H

#include "spec.h"

#include <yaml.h>

struct spec_reading {
    yaml_document_t document;
    struct pack_spec *spec;
    unsigned char *visited; /* per node: a node reached twice is an alias */
    size_t node_count;
};

/* "malformed spec: PATH:LINE: why" with EXIT_USAGE. */
int spec_malformed(const struct spec_reading *reading, size_t line, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/* The line (from 1) where NODE starts. */
size_t spec_line(const yaml_node_t *node);

/* The node numbered INDEX, refused when already reached (an alias) or absent. */
int spec_visit(struct spec_reading *reading, int index, yaml_node_t **node);

/* NODE as text: a scalar that is not null; WHAT names it in messages. */
int spec_text(const struct spec_reading *reading, const yaml_node_t *node, const char *what,
              const char **text);

/* NODE must be a mapping; WHAT names it. */
int spec_mapping(const struct spec_reading *reading, const yaml_node_t *node, const char *what);

/* KEY (a mapping key node) as text, refused unless one of the COUNT names VALID: "unknown key
   'exmples' in split train; did you mean `examples`?". */
int spec_key(struct spec_reading *reading, int key, const char *where, const char *const *valid,
             size_t count, const char **text, size_t *line);

/* NODE as a whole number from 0 to MAXIMUM. */
int spec_count(const struct spec_reading *reading, const yaml_node_t *node, const char *what,
               uint64_t maximum, uint64_t *value);

/* NODE, a scalar or a sequence of scalars, as a list of at most MAXIMUM copied strings. */
int spec_text_list(struct spec_reading *reading, const yaml_node_t *node, const char *what,
                   size_t maximum, char ***list, size_t *count);

/* A copy of TEXT, or EXIT_OTHER when memory runs out. */
int spec_copy(const char *text, char **copy);

/* TEXT with the spec's directory prepended unless it is absolute. */
int spec_path(const struct spec_reading *reading, const char *text, char **path);

/* Reads the `sources` mapping NODE into the spec (spec_sources.c). */
int spec_sources_read(struct spec_reading *reading, const yaml_node_t *node);

#endif
