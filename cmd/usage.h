/* The one-line usage error every command prints. */
#ifndef FUEL_USAGE_H
#define FUEL_USAGE_H

/* Prints "PROGRAM: MESSAGE; see 'PROGRAM -h'" on stderr (MESSAGE printf-style); returns
   EXIT_USAGE. */
int usage_error(const char *program, const char *format, ...) __attribute__((format(printf, 2, 3)));

#endif
