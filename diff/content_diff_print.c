/* The content diff report as text (one line per difference, sections in the report's order) and
   as a JSON object. */
#include "content_diff.h"

#include "common/base/error.h"

#include <errno.h>
#include <stdbool.h>
#include <inttypes.h>
#include <string.h>

static const char *shown(const char *text)
{
    return text != NULL ? text : "(none)";
}

static const char *side_path(const struct content_diff_report *report, enum content_side side)
{
    return side == CONTENT_LEFT ? report->left : report->right;
}

static void change_print(FILE *stream, const struct content_change *change)
{
    if (change->split != NULL)
        fprintf(stream, "split %s, ", change->split);
    fprintf(stream, "source %s: %s: %s -> %s\n", change->source, change->property,
            shown(change->left), shown(change->right));
}

/* "(30 only in B)" when one file holds more of the examples than the other. */
static void only_print(FILE *stream, const struct content_diff_report *report,
                       const struct content_values *values)
{
    if (values->counts[0] == values->counts[1])
        return;
    bool left = values->counts[0] > values->counts[1];
    fprintf(stream, " (%" PRIu64 " only in %s)",
            left ? values->counts[0] - values->counts[1] : values->counts[1] - values->counts[0],
            side_path(report, left ? CONTENT_LEFT : CONTENT_RIGHT));
}

static void values_print(FILE *stream, const struct content_diff_report *report,
                         const struct content_values *values)
{
    if (values->split != NULL)
        fprintf(stream, "split %s, ", values->split);
    fprintf(stream, "source %s: %" PRIu64 " of %" PRIu64 " examples differ", values->source,
            values->differing, values->examples);
    only_print(stream, report, values);
    fprintf(stream, ": %s", values->split != NULL ? "positions" : "indices");
    for (size_t index = 0; index < values->first_count; index++)
        fprintf(stream, "%s%" PRIu64, index ? ", " : " ", values->first[index]);
    fprintf(stream, "%s\n", values->differing > values->first_count ? ", ..." : "");
}

/* "input", "library", "attribute" for the entries listed by name; the key itself otherwise. */
static const char *provenance_label(const char *key)
{
    if (strcmp(key, "inputs") == 0)
        return "input";
    if (strcmp(key, "libraries") == 0)
        return "library";
    return key;
}

static void provenance_print(FILE *stream, const struct content_provenance_change *change)
{
    fprintf(stream, "  %s", provenance_label(change->key));
    if (change->name != NULL)
        fprintf(stream, " %s", change->name);
    if (change->property != NULL)
        fprintf(stream, ": %s", change->property);
    fprintf(stream, ": %s -> %s\n", shown(change->left), shown(change->right));
}

int content_diff_print_text(FILE *stream, const struct content_diff_report *report)
{
    fprintf(stream, "the content of %s and %s %s\n", report->left, report->right,
            content_diff_same(report) ? "is the same" : "differs");
    for (size_t index = 0; index < report->only_count; index++)
        fprintf(stream, "only in %s: %s %s\n", side_path(report, report->only[index].side),
                report->only[index].kind, report->only[index].name);
    for (size_t index = 0; index < report->structure_count; index++)
        change_print(stream, &report->structure[index]);
    for (size_t index = 0; index < report->values_count; index++)
        values_print(stream, report, &report->values[index]);
    if (report->provenance_count > 0)
        fprintf(stream, "provenance differences, not counted:\n");
    for (size_t index = 0; index < report->provenance_count; index++)
        provenance_print(stream, &report->provenance[index]);
    if (fflush(stream) != 0 || ferror(stream))
        return error_set(EXIT_WRITE, "cannot write the comparison: %s", strerror(errno));
    return EXIT_OK;
}

static json_t *text_or_null(const char *text)
{
    return text != NULL ? json_string(text) : json_null();
}

static json_t *only_json(const struct content_only *only)
{
    return json_pack("{s:s, s:s, s:s}", "kind", only->kind, "name", only->name, "in",
                     only->side == CONTENT_LEFT ? "left" : "right");
}

static json_t *change_json(const struct content_change *change)
{
    return json_pack("{s:o, s:s, s:s, s:o, s:o}", "split", text_or_null(change->split), "source",
                     change->source, "property", change->property, "left",
                     text_or_null(change->left), "right", text_or_null(change->right));
}

static json_t *values_json(const struct content_values *values)
{
    json_t *first = json_array();
    for (size_t index = 0; first != NULL && index < values->first_count; index++)
        json_array_append_new(first, json_integer((json_int_t)values->first[index]));
    return json_pack("{s:s, s:o, s:I, s:I, s:I, s:I, s:o}", "source", values->source, "split",
                     text_or_null(values->split), "examples", (json_int_t)values->examples,
                     "left_examples", (json_int_t)values->counts[0], "right_examples",
                     (json_int_t)values->counts[1], "differing", (json_int_t)values->differing,
                     "first", first != NULL ? first : json_null());
}

static json_t *provenance_json(const struct content_provenance_change *change)
{
    return json_pack("{s:s, s:o, s:o, s:o, s:o}", "key", change->key, "name",
                     text_or_null(change->name), "property", text_or_null(change->property),
                     "left", text_or_null(change->left), "right", text_or_null(change->right));
}

json_t *content_diff_json(const struct content_diff_report *report)
{
    json_t *lists[4] = {json_array(), json_array(), json_array(), json_array()};
    for (size_t index = 0; lists[0] != NULL && index < report->only_count; index++)
        json_array_append_new(lists[0], only_json(&report->only[index]));
    for (size_t index = 0; lists[1] != NULL && index < report->structure_count; index++)
        json_array_append_new(lists[1], change_json(&report->structure[index]));
    for (size_t index = 0; lists[2] != NULL && index < report->values_count; index++)
        json_array_append_new(lists[2], values_json(&report->values[index]));
    for (size_t index = 0; lists[3] != NULL && index < report->provenance_count; index++)
        json_array_append_new(lists[3], provenance_json(&report->provenance[index]));
    for (int list = 0; list < 4; list++)
        if (lists[list] == NULL) {
            for (int other = 0; other < 4; other++)
                json_decref(lists[other]);
            return NULL;
        }
    return json_pack("{s:s, s:s, s:b, s:o, s:o, s:o, s:o}", "left", report->left, "right",
                     report->right, "same_content", content_diff_same(report), "only", lists[0],
                     "structure", lists[1], "values", lists[2], "provenance", lists[3]);
}
