/* Adult's rows checked and parsed, and each categorical column's sorted vocabulary. */
#include "adult_rows.h"

#include "common/base/error.h"
#include "downloaders/adult.h"

#include <stdlib.h>
#include <string.h>

/* adult.names' attributes, in the files' order. */
static const struct {
    const char *name;
    bool continuous;
} columns[ADULT_COLUMNS] = {
    {"age", true},           {"workclass", false},      {"fnlwgt", true},
    {"education", false},    {"education-num", true},   {"marital-status", false},
    {"occupation", false},   {"relationship", false},   {"race", false},
    {"sex", false},          {"capital-gain", true},    {"capital-loss", true},
    {"hours-per-week", true}, {"native-country", false},
};

/* The columns of the categorical values, in order. */
static const size_t categorical_columns[ADULT_CATEGORICAL] = {1, 3, 5, 6, 7, 8, 9, 13};

const char *adult_column_name(size_t column)
{
    return columns[column].name;
}

bool adult_column_continuous(size_t column)
{
    return columns[column].continuous;
}

static int malformed(const struct field_row_reader *reader, unsigned long line, const char *why,
                     const char *field)
{
    return error_set(EXIT_CORRUPT_INPUT, "malformed Adult row: %s:%lu: %s '%.60s'",
                     field_rows_path(reader), line, why, field);
}

/* The label: >50K or <=50K, in adult.test followed by a '.'. */
static int parse_label(const struct field_row_reader *reader, const struct field_row *row,
                       bool *above)
{
    const char *label = row->fields[ADULT_COLUMNS];
    size_t length = strlen(label);
    if (length > 0 && label[length - 1] == '.')
        length--;
    if (length == sizeof ADULT_ABOVE - 1 && strncmp(label, ADULT_ABOVE, length) == 0)
        *above = true;
    else if (length == sizeof ADULT_BELOW - 1 && strncmp(label, ADULT_BELOW, length) == 0)
        *above = false;
    else
        return malformed(reader, row->line,
                         "the label is neither " ADULT_ABOVE " nor " ADULT_BELOW ":", label);
    return EXIT_OK;
}

static bool has_missing_value(const struct field_row *row)
{
    for (size_t field = 0; field < row->count; field++)
        if (strchr(row->fields[field], '?') != NULL)
            return true;
    return false;
}

/* adult.names documents the continuous attributes as counts and amounts (age, final weight,
   years of education, dollars, hours a week): none is negative. */
static int continuous_parse(const struct field_row_reader *reader, const struct field_row *row,
                            size_t column, double *value)
{
    const char *field = row->fields[column];
    if (column == 0 && strncmp(field, "\xef\xbb\xbf", 3) == 0)
        return malformed(reader, row->line, "a UTF-8 byte order mark before the first field:",
                         field + 3);
    if (!field_rows_number(reader, field, value))
        return error_set(EXIT_CORRUPT_INPUT,
                         "malformed Adult row: %s:%lu: %s is not a decimal number: '%.60s'",
                         field_rows_path(reader), row->line, columns[column].name, field);
    if (*value < 0)
        return error_set(EXIT_CORRUPT_INPUT, "malformed Adult row: %s:%lu: %s is negative: "
                         "'%.60s'", field_rows_path(reader), row->line, columns[column].name,
                         field);
    return EXIT_OK;
}

int adult_row_parse(const struct field_row_reader *reader, const struct field_row *row,
                    struct adult_row *parsed, bool *missing)
{
    if (row->count != ADULT_COLUMNS + 1)
        return error_set(EXIT_CORRUPT_INPUT, "malformed Adult row: %s:%lu: %s%zu fields, not 15",
                         field_rows_path(reader), row->line,
                         row->count > FIELD_ROWS_MAX_FIELDS ? "more than " : "",
                         row->count > FIELD_ROWS_MAX_FIELDS ? (size_t)FIELD_ROWS_MAX_FIELDS
                                                            : row->count);
    *missing = has_missing_value(row);
    if (*missing)
        return EXIT_OK;
    size_t continuous = 0, categorical = 0;
    for (size_t column = 0; column < ADULT_COLUMNS; column++) {
        int result = EXIT_OK;
        if (!columns[column].continuous)
            parsed->categorical[categorical++] = row->fields[column];
        else
            result = continuous_parse(reader, row, column, &parsed->continuous[continuous++]);
        if (result != EXIT_OK)
            return result;
    }
    return parse_label(reader, row, &parsed->above_50k);
}

/* Where VALUE is, or would go, in the sorted VALUES; *FOUND when it is there. */
static size_t locate(char *const *values, size_t count, const char *value, bool *found)
{
    size_t low = 0, high = count;
    while (low < high) {
        size_t middle = low + (high - low) / 2;
        int order = strcmp(values[middle], value);
        if (order == 0) {
            *found = true;
            return middle;
        }
        if (order < 0)
            low = middle + 1;
        else
            high = middle;
    }
    *found = false;
    return low;
}

static int insert(struct adult_vocabulary *vocabulary, size_t category, const char *value,
                  const char *path, unsigned long line)
{
    bool found;
    size_t count = vocabulary->counts[category];
    size_t place = locate(vocabulary->values[category], count, value, &found);
    if (found)
        return EXIT_OK;
    if (count == ADULT_MAX_VALUES)
        return error_set(EXIT_CORRUPT_INPUT,
                         "too many values: %s:%lu: %s has more than %d distinct values", path, line,
                         columns[categorical_columns[category]].name, ADULT_MAX_VALUES);
    char *copy = strdup(value);
    char **values = vocabulary->values[category];
    if (values == NULL)
        values = malloc(ADULT_MAX_VALUES * sizeof *values);
    if (copy == NULL || values == NULL) {
        free(copy);
        vocabulary->values[category] = values;
        return error_set(EXIT_OTHER, "cannot read: %s: out of memory", path);
    }
    memmove(values + place + 1, values + place, (count - place) * sizeof *values);
    values[place] = copy;
    vocabulary->values[category] = values;
    vocabulary->counts[category] = count + 1;
    return EXIT_OK;
}

int adult_vocabulary_add(struct adult_vocabulary *vocabulary, const struct adult_row *row,
                         const char *path, unsigned long line)
{
    for (size_t category = 0; category < ADULT_CATEGORICAL; category++) {
        int status = insert(vocabulary, category, row->categorical[category], path, line);
        if (status != EXIT_OK)
            return status;
    }
    return EXIT_OK;
}

int adult_vocabulary_index(const struct adult_vocabulary *vocabulary, const struct adult_row *row,
                           size_t category, const char *path, unsigned long line, size_t *index)
{
    bool found;
    const char *value = row->categorical[category];
    *index = locate(vocabulary->values[category], vocabulary->counts[category], value, &found);
    if (!found)
        return error_set(EXIT_CORRUPT_INPUT,
                         "value unseen in adult.data: %s:%lu: %s '%.60s'", path, line,
                         columns[categorical_columns[category]].name, value);
    return EXIT_OK;
}

void adult_vocabulary_free(struct adult_vocabulary *vocabulary)
{
    for (size_t category = 0; category < ADULT_CATEGORICAL; category++) {
        for (size_t index = 0; index < vocabulary->counts[category]; index++)
            free(vocabulary->values[category][index]);
        free(vocabulary->values[category]);
        vocabulary->values[category] = NULL;
        vocabulary->counts[category] = 0;
    }
}
