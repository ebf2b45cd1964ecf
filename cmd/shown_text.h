/* What fuel-info writes as text made safe to show on a terminal: the control characters a file
   recorded (its argv, names, comments: terminal escape sequences) written escaped, and every
   line cut at SHOWN_LINE_MAX bytes (a provenance that is not JSON is shown on one line). */
#ifndef FUEL_SHOWN_TEXT_H
#define FUEL_SHOWN_TEXT_H

#include <stdio.h>

#define SHOWN_LINE_MAX 4096

/* A stream that writes what it is given to TARGET: bytes below 0x20 but the newline, 0x7f and
   the C1 controls (U+0080 to U+009F in UTF-8) as \t, \r or \xNN (\u00NN), and of a line longer
   than SHOWN_LINE_MAX bytes its first ones then " ... (N more bytes)". NULL when out of
   memory. Each write is passed on to TARGET and TARGET flushed. */
FILE *shown_text_open(FILE *target);

#endif
