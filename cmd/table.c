/* Prints rows of cells in columns as wide as their widest cell, numbers right-aligned. */
#include "table.h"

#include "common/base/error.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

char *cell_text(const char *format, ...)
{
    va_list arguments;
    char *text = NULL;
    va_start(arguments, format);
    if (vasprintf(&text, format, arguments) < 0)
        text = NULL;
    va_end(arguments);
    return text;
}

int table_add(struct table *table, char **row)
{
    char **grown = realloc(table->cells, (table->rows + 1) * table->columns * sizeof *grown);
    bool complete = grown != NULL;
    for (size_t column = 0; column < table->columns; column++)
        complete = complete && row[column] != NULL;
    if (!complete) {
        if (grown != NULL)
            table->cells = grown;
        for (size_t column = 0; column < table->columns; column++)
            free(row[column]);
        return error_set(EXIT_OTHER, "out of memory");
    }
    table->cells = grown;
    memcpy(table->cells + table->rows * table->columns, row, table->columns * sizeof *row);
    table->rows++;
    return EXIT_OK;
}

int table_add_texts(struct table *table, const char *const *texts)
{
    char *row[TABLE_MAX_COLUMNS];
    for (size_t column = 0; column < table->columns; column++)
        row[column] = strdup(texts[column] != NULL ? texts[column] : "");
    return table_add(table, row);
}

/* The cells of ROW shown: up to its last non-empty one. */
static size_t row_shown(const struct table *table, char *const *cells)
{
    size_t shown = table->columns;
    while (shown > 1 && cells[shown - 1][0] == '\0')
        shown--;
    return shown;
}

static bool right(const struct table *table, size_t column)
{
    return table->right_aligned != NULL && table->right_aligned[column];
}

static void widths_measure(const struct table *table, size_t *widths)
{
    for (size_t column = 0; column < table->columns; column++)
        widths[column] = table->minimum_widths != NULL ? table->minimum_widths[column] : 0;
    for (size_t row = 0; row < table->rows; row++) {
        char *const *cells = table->cells + row * table->columns;
        size_t shown = row_shown(table, cells);
        for (size_t column = 0; column < shown; column++) {
            size_t length = strlen(cells[column]);
            bool unpadded = column + 1 == shown && !right(table, column);
            if (!unpadded && length > widths[column])
                widths[column] = length;
        }
    }
}

void table_print(const struct table *table, FILE *stream)
{
    size_t widths[TABLE_MAX_COLUMNS];
    widths_measure(table, widths);
    for (size_t row = 0; row < table->rows; row++) {
        char *const *cells = table->cells + row * table->columns;
        size_t shown = row_shown(table, cells);
        fprintf(stream, "%*s", table->indent, "");
        for (size_t column = 0; column < shown; column++) {
            const char *separator = column > 0 ? "  " : "";
            if (right(table, column))
                fprintf(stream, "%s%*s", separator, (int)widths[column], cells[column]);
            else if (column + 1 == shown)
                fprintf(stream, "%s%s", separator, cells[column]);
            else
                fprintf(stream, "%s%-*s", separator, (int)widths[column], cells[column]);
        }
        fputc('\n', stream);
    }
}

void table_free(struct table *table)
{
    for (size_t cell = 0; cell < table->rows * table->columns; cell++)
        free(table->cells[cell]);
    free(table->cells);
    table->cells = NULL;
    table->rows = 0;
}

int table_finish(struct table *table, const char *title, int result)
{
    if (result == EXIT_OK) {
        fputs(title, stdout);
        table_print(table, stdout);
    }
    table_free(table);
    return result;
}
