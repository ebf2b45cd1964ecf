/* The one table printer of the commands' text output (fuel-info's sections and summaries,
   fuel-list, the dataset lists of -h): columns as wide as their widest cell. */
#ifndef FUEL_TABLE_H
#define FUEL_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define TABLE_MAX_COLUMNS 16

/* Rows of COLUMNS cells, "  " between columns. A row's empty trailing cells are not printed,
   and its last cell, printed as it is, widens no column. */
struct table {
    int indent;
    size_t columns;
    size_t rows;
    char **cells;
    const bool *right_aligned;    /* per column; NULL: all left-aligned */
    const size_t *minimum_widths; /* per column; NULL: none */
};

/* A cell's text, printf-style (caller or table frees); NULL when out of memory. */
char *cell_text(const char *format, ...) __attribute__((format(printf, 1, 2)));

/* Appends ROW (COLUMNS cells, taken over: freed with the table, or here on failure); a NULL
   cell is out of memory: error_set, EXIT_OTHER. */
int table_add(struct table *table, char **row);

/* Appends a row of copies of TEXTS (COLUMNS of them; NULL: ""). */
int table_add_texts(struct table *table, const char *const *texts);

void table_print(const struct table *table, FILE *stream);

void table_free(struct table *table);

/* Prints TITLE and TABLE on stdout when RESULT is 0, frees TABLE either way; returns RESULT. */
int table_finish(struct table *table, const char *title, int result);

#endif
