/* The content diff report: its sections run in order, its lists grown one entry at a time. */
#include "content_diff.h"

#include "common/base/error.h"
#include "content_diff_steps.h"

#include <stdlib.h>
#include <string.h>

static int out_of_memory(void)
{
    return error_set(EXIT_OTHER, "cannot compare: out of memory");
}

/* Room for one more entry of SIZE bytes after COUNT in *ITEMS, zeroed; NULL when out of memory. */
static void *entry_add(void *items, size_t count, size_t size)
{
    void **list = items;
    unsigned char *grown = realloc(*list, (count + 1) * size);
    if (grown == NULL)
        return NULL;
    *list = grown;
    memset(grown + count * size, 0, size);
    return grown + count * size;
}

/* A copy of TEXT, NULL staying NULL; false when out of memory. */
static bool copy(char **target, const char *text)
{
    *target = text != NULL ? strdup(text) : NULL;
    return text == NULL || *target != NULL;
}

int diff_only_add(struct content_diff_report *report, const char *kind, const char *name,
                  enum content_side side)
{
    struct content_only *only = entry_add(&report->only, report->only_count, sizeof *only);
    if (only == NULL)
        return out_of_memory();
    report->only_count++;
    only->kind = kind;
    only->side = side;
    return copy(&only->name, name) ? EXIT_OK : out_of_memory();
}

int diff_change_add(struct content_diff_report *report, const char *split, const char *source,
                    const char *property, const char *left, const char *right)
{
    struct content_change *change =
        entry_add(&report->structure, report->structure_count, sizeof *change);
    if (change == NULL)
        return out_of_memory();
    report->structure_count++;
    change->property = property;
    bool copied = copy(&change->split, split) && copy(&change->source, source) &&
                  copy(&change->left, left) && copy(&change->right, right);
    return copied ? EXIT_OK : out_of_memory();
}

int diff_values_add(struct content_diff_report *report, const struct content_values *values)
{
    struct content_values *entry = entry_add(&report->values, report->values_count, sizeof *entry);
    if (entry == NULL)
        return out_of_memory();
    report->values_count++;
    *entry = *values;
    entry->source = entry->split = NULL;
    return copy(&entry->source, values->source) && copy(&entry->split, values->split)
               ? EXIT_OK
               : out_of_memory();
}

int diff_provenance_add(struct content_diff_report *report, const char *key, const char *name,
                        const char *property, const char *left, const char *right)
{
    struct content_provenance_change *change =
        entry_add(&report->provenance, report->provenance_count, sizeof *change);
    if (change == NULL)
        return out_of_memory();
    report->provenance_count++;
    bool copied = copy(&change->key, key) && copy(&change->name, name) &&
                  copy(&change->property, property) && copy(&change->left, left) &&
                  copy(&change->right, right);
    return copied ? EXIT_OK : out_of_memory();
}

int content_diff_compare(const struct h5py_file *left, const struct h5py_file *right,
                         const struct stage_listener *listener,
                         struct content_diff_report *report)
{
    *report = (struct content_diff_report){0};
    if (!copy(&report->left, left->path) || !copy(&report->right, right->path))
        return out_of_memory();
    int result = diff_structure(report, left, right);
    if (result == EXIT_OK)
        result = diff_values(report, left, right, listener);
    if (result == EXIT_OK)
        result = diff_provenance(report, left, right);
    return result;
}

bool content_diff_same(const struct content_diff_report *report)
{
    return report->only_count == 0 && report->structure_count == 0 && report->values_count == 0;
}

void content_diff_free(struct content_diff_report *report)
{
    for (size_t index = 0; index < report->only_count; index++)
        free(report->only[index].name);
    for (size_t index = 0; index < report->structure_count; index++) {
        struct content_change *change = &report->structure[index];
        free(change->split);
        free(change->source);
        free(change->left);
        free(change->right);
    }
    for (size_t index = 0; index < report->values_count; index++) {
        free(report->values[index].source);
        free(report->values[index].split);
    }
    for (size_t index = 0; index < report->provenance_count; index++) {
        struct content_provenance_change *change = &report->provenance[index];
        free(change->key);
        free(change->name);
        free(change->property);
        free(change->left);
        free(change->right);
    }
    free(report->only);
    free(report->structure);
    free(report->values);
    free(report->provenance);
    free(report->left);
    free(report->right);
    *report = (struct content_diff_report){0};
}
