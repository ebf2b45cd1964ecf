/* Bounds a YAML text's nesting and node count with libyaml's event parser. */
#include "yaml_bounds.h"

#include <stdio.h>
#include <yaml.h>

/* How EVENT changes the depth, and whether it is a node. */
static int depth_change(const yaml_event_t *event, bool *node)
{
    switch (event->type) {
    case YAML_SEQUENCE_START_EVENT:
    case YAML_MAPPING_START_EVENT:
        *node = true;
        return 1;
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT:
        return -1;
    case YAML_SCALAR_EVENT:
    case YAML_ALIAS_EVENT:
        *node = true;
        return 0;
    default:
        return 0;
    }
}

static bool walk(yaml_parser_t *parser, const struct yaml_bounds *bounds, size_t *line, char *why,
                size_t why_size)
{
    size_t depth = 0, nodes = 0;
    for (;;) {
        yaml_event_t event;
        if (!yaml_parser_parse(parser, &event))
            return true;
        bool node = false, end = event.type == YAML_STREAM_END_EVENT;
        int change = depth_change(&event, &node);
        *line = event.start_mark.line + 1;
        yaml_event_delete(&event);
        depth = change < 0 ? depth - (depth > 0) : depth + (size_t)change;
        nodes += node;
        if (depth > bounds->max_depth) {
            snprintf(why, why_size, "nested more than %zu deep", bounds->max_depth);
            return false;
        }
        if (nodes > bounds->max_nodes) {
            snprintf(why, why_size, "more than %zu nodes", bounds->max_nodes);
            return false;
        }
        if (end)
            return true;
    }
}

bool yaml_bounds_check(const char *text, size_t length, const struct yaml_bounds *bounds,
                      size_t *line, char *why, size_t why_size)
{
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser))
        return true;
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, length);
    bool result = walk(&parser, bounds, line, why, why_size);
    yaml_parser_delete(&parser);
    return result;
}
