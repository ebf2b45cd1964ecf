/* fuel stats' report as text, read back from its JSON document so both say the same. */
#include "stats_text.h"

#include <stdbool.h>
#include <string.h>

/* "min 0  max 255  mean 72.94  std 90.02" (or "no finite values"), then NaN and Inf counts. */
static void summary_print(FILE *stream, const char *label, const json_t *summary)
{
    fprintf(stream, "    %-10s %" JSON_INTEGER_FORMAT " values", label,
            json_integer_value(json_object_get(summary, "count")));
    if (json_is_real(json_object_get(summary, "mean")))
        fprintf(stream, "  min %.10g  max %.10g  mean %.10g  std %.10g",
                json_real_value(json_object_get(summary, "minimum")),
                json_real_value(json_object_get(summary, "maximum")),
                json_real_value(json_object_get(summary, "mean")),
                json_real_value(json_object_get(summary, "std")));
    json_int_t nans = json_integer_value(json_object_get(summary, "nan"));
    json_int_t infinities = json_integer_value(json_object_get(summary, "infinity"));
    if (nans > 0 || infinities > 0)
        fprintf(stream, "  NaN %" JSON_INTEGER_FORMAT "  Inf %" JSON_INTEGER_FORMAT, nans,
                infinities);
    fputc('\n', stream);
}

static void classes_print(FILE *stream, const json_t *entry)
{
    size_t index;
    json_t *class;
    json_array_foreach(json_object_get(entry, "classes"), index, class) {
        const char *name = json_string_value(json_object_get(class, "name"));
        char label[128];
        snprintf(label, sizeof label, "%" JSON_INTEGER_FORMAT "%s%s",
                 json_integer_value(json_object_get(class, "class")), name != NULL ? " " : "",
                 name != NULL ? name : "");
        fprintf(stream, "    class %-26s %" JSON_INTEGER_FORMAT "\n", label,
                json_integer_value(json_object_get(class, "examples")));
    }
    json_int_t unclassed = json_integer_value(json_object_get(entry, "unclassed"));
    if (unclassed > 0)
        fprintf(stream, "    %" JSON_INTEGER_FORMAT " values are no class number\n", unclassed);
}

static void attributes_print(FILE *stream, const json_t *entry)
{
    size_t index;
    json_t *attribute;
    json_array_foreach(json_object_get(entry, "attributes"), index, attribute) {
        const char *name = json_string_value(json_object_get(attribute, "name"));
        char label[128];
        snprintf(label, sizeof label, "%" JSON_INTEGER_FORMAT "%s%s",
                 json_integer_value(json_object_get(attribute, "attribute")),
                 name != NULL ? " " : "", name != NULL ? name : "");
        fprintf(stream, "    attribute %-22s %" JSON_INTEGER_FORMAT "\n", label,
                json_integer_value(json_object_get(attribute, "examples")));
    }
}

static void lengths_print(FILE *stream, const json_t *entry)
{
    bool decoded = json_is_true(json_object_get(entry, "decoded"));
    size_t index;
    json_t *axis;
    json_array_foreach(json_object_get(entry, "lengths"), index, axis) {
        if (!json_is_integer(json_object_get(axis, "minimum")))
            continue;
        fprintf(stream, "    %-10s min %" JSON_INTEGER_FORMAT "  median %g  max %" JSON_INTEGER_FORMAT
                        "\n", json_string_value(json_object_get(axis, "axis")),
                json_integer_value(json_object_get(axis, "minimum")),
                json_real_value(json_object_get(axis, "median")),
                json_integer_value(json_object_get(axis, "maximum")));
    }
    fprintf(stream, "    %-10s %" JSON_INTEGER_FORMAT "%s\n", "bytes",
            json_integer_value(json_object_get(entry, "bytes")),
            json_is_true(json_object_get(entry, "jpeg"))
                ? (decoded ? " (stored JPEG files, decoded as RGB)" : " (stored JPEG files)")
                : "");
}

static void source_print(FILE *stream, const json_t *entry)
{
    fprintf(stream, "  %s (%s, %" JSON_INTEGER_FORMAT " examples)\n",
            json_string_value(json_object_get(entry, "source")),
            json_string_value(json_object_get(entry, "dtype")),
            json_integer_value(json_object_get(entry, "examples")));
    bool decoded = json_is_true(json_object_get(entry, "decoded"));
    if (json_object_get(entry, "values") != NULL)
        summary_print(stream, decoded ? "pixels" : "values", json_object_get(entry, "values"));
    size_t index;
    json_t *channel;
    json_array_foreach(json_object_get(entry, "channels"), index, channel) {
        char label[32];
        if (decoded)
            snprintf(label, sizeof label, "%s", (const char *[]){"red", "green", "blue"}[index]);
        else
            snprintf(label, sizeof label, "channel %zu", index);
        summary_print(stream, label, channel);
    }
    if (json_object_get(entry, "classes") != NULL)
        classes_print(stream, entry);
    if (json_object_get(entry, "attributes") != NULL)
        attributes_print(stream, entry);
    if (json_object_get(entry, "lengths") != NULL)
        lengths_print(stream, entry);
}

/* "(0.2860, 0.1234)" of a list of numbers; a one-element tuple keeps its comma. */
static void tuple_print(FILE *stream, const json_t *values)
{
    size_t index;
    json_t *value;
    fputc('(', stream);
    json_array_foreach(values, index, value) {
        if (index > 0)
            fputs(", ", stream);
        if (json_is_real(value))
            fprintf(stream, "%.4f", json_real_value(value));
        else
            fputs("nan", stream);
    }
    fputs(json_array_size(values) == 1 ? ",)" : ")", stream);
}

void stats_text_print(FILE *stream, const json_t *report)
{
    size_t split_index, source_index;
    json_t *split, *entry;
    json_array_foreach(json_object_get(report, "splits"), split_index, split) {
        fprintf(stream, "split %s\n", json_string_value(json_object_get(split, "split")));
        json_array_foreach(json_object_get(split, "sources"), source_index, entry)
            source_print(stream, entry);
    }
    const json_t *normalize = json_object_get(report, "normalize");
    if (normalize == NULL)
        return;
    fprintf(stream, "normalize (%s %s%s): transforms.Normalize(mean=",
            json_string_value(json_object_get(normalize, "split")),
            json_string_value(json_object_get(normalize, "source")),
            json_real_value(json_object_get(normalize, "scale")) != 1.0 ? ", scaled to [0, 1]"
                                                                        : "");
    tuple_print(stream, json_object_get(normalize, "mean"));
    fputs(", std=", stream);
    tuple_print(stream, json_object_get(normalize, "std"));
    fputs(")\n", stream);
}
