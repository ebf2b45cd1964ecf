/* Opens, closes and trims the text files the UCI and class-row readers parse (text_source.h). */
#include "text_source.h"
#include "common/base/input_file.h"

#include "common/base/error.h"

#include <errno.h>
#include <string.h>

int text_source_open(const char *path, FILE **file, locale_t *locale)
{
    *file = NULL;
    *locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
    if (*locale == (locale_t)0)
        return error_set(EXIT_OTHER, "cannot read: %s: out of memory", path);
    *file = input_file_stream(path);
    if (*file == NULL) {
        int code = input_open_failure(path);
        freelocale(*locale);
        *locale = (locale_t)0;
        return code;
    }
    return EXIT_OK;
}

void text_source_close(FILE *file, locale_t locale)
{
    if (file != NULL)
        fclose(file);
    if (locale != (locale_t)0)
        freelocale(locale);
}

char *text_trim(char *text)
{
    while (*text == ' ' || *text == '\t')
        text++;
    size_t length = strlen(text);
    while (length > 0 && strchr(" \t\r\n\v\f", text[length - 1]) != NULL)
        text[--length] = '\0';
    return text;
}
