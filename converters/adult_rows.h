/* Adult's rows (UCI adult.data and adult.test) checked and parsed, and the vocabulary of each
   categorical column, learnt from the training rows. */
#ifndef FUEL_ADULT_ROWS_H
#define FUEL_ADULT_ROWS_H

#include "converters/field_rows_read.h"

#include <stdbool.h>
#include <stddef.h>

#define ADULT_COLUMNS 14    /* before the label */
#define ADULT_CONTINUOUS 6
#define ADULT_CATEGORICAL 8
/* Distinct values one categorical column may have (the real files: at most 41). */
#define ADULT_MAX_VALUES 1000

struct adult_row {
    double continuous[ADULT_CONTINUOUS];    /* age, fnlwgt, ..., hours-per-week, in order */
    const char *categorical[ADULT_CATEGORICAL]; /* workclass, ..., native-country: the row's */
    bool above_50k;                         /* the label is >50K (adult.test adds a '.') */
};

/* Each categorical column's values, sorted by their bytes (strcmp). */
struct adult_vocabulary {
    char **values[ADULT_CATEGORICAL];
    size_t counts[ADULT_CATEGORICAL];
};

/* The name of column COLUMN (0..13) and whether it is continuous. */
const char *adult_column_name(size_t column);
bool adult_column_continuous(size_t column);

/* Checks ROW, just read by READER: 15 fields; *MISSING when one holds a '?' (Fuel drops such
   rows, and so does fuel); otherwise its numbers and label parsed into PARSED. EXIT_CORRUPT_INPUT
   naming the file and line for a wrong field count, a malformed number or an unknown label. */
int adult_row_parse(const struct field_row_reader *reader, const struct field_row *row,
                    struct adult_row *parsed, bool *missing);

/* Adds ROW's categorical values to VOCABULARY; EXIT_CORRUPT_INPUT past ADULT_MAX_VALUES. */
int adult_vocabulary_add(struct adult_vocabulary *vocabulary, const struct adult_row *row,
                         const char *path, unsigned long line);

/* The index of ROW's value of categorical column CATEGORY (0..7) in VOCABULARY's sorted values;
   EXIT_CORRUPT_INPUT naming PATH:LINE and the value when adult.data's rows never had it. */
int adult_vocabulary_index(const struct adult_vocabulary *vocabulary, const struct adult_row *row,
                           size_t category, const char *path, unsigned long line, size_t *index);

void adult_vocabulary_free(struct adult_vocabulary *vocabulary);

#endif
