/* What the text readers of raw files share: opening a file whose numbers are read in the C locale,
   closing it, and trimming a line. */
#ifndef FUEL_TEXT_SOURCE_H
#define FUEL_TEXT_SOURCE_H

#include <locale.h>
#include <stdio.h>

/* Opens PATH into *FILE and a C locale into *LOCALE (for strtod_l: a decimal point whatever
   LC_NUMERIC says). EXIT_MISSING_INPUT naming PATH when it cannot be opened, EXIT_OTHER when out
   of memory; nothing is left open on failure. */
int text_source_open(const char *path, FILE **file, locale_t *locale);

/* Closes what text_source_open opened (either may be NULL / (locale_t)0). */
void text_source_close(FILE *file, locale_t locale);

/* TEXT without leading blanks and tabs and without trailing white space; the returned pointer is
   into TEXT, which is shortened in place. */
char *text_trim(char *text);

#endif
