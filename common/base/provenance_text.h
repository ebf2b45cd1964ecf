/* Parses a fuel_provenance text with jansson, refusing one too long before any parsing. */
#ifndef FUEL_PROVENANCE_TEXT_H
#define FUEL_PROVENANCE_TEXT_H

#include <jansson.h>
#include <stddef.h>

/* The longest provenance parsed: the most inputs a provenance may list (1,048,576, as
   fuel-reproduce reads them) at 256 bytes each, their name included. A longer text is refused
   before jansson holds any of it (its parse takes about the text's size again). */
#define PROVENANCE_TEXT_MAX_BYTES ((size_t)256 << 20)

/* json_loads of TEXT with FLAGS; NULL for a NULL TEXT, and NULL with ERROR's text set to
   "longer than 268435456 bytes" for a text beyond PROVENANCE_TEXT_MAX_BYTES. ERROR may be
   NULL. */
json_t *provenance_text_parse(const char *text, size_t flags, json_error_t *error);

#endif
