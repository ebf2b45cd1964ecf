/* Parses a fuel_provenance text with jansson, refusing one too long before any parsing. */
#include "provenance_text.h"

#include <stdio.h>
#include <string.h>

json_t *provenance_text_parse(const char *text, size_t flags, json_error_t *error)
{
    if (text == NULL)
        return NULL;
    if (strnlen(text, PROVENANCE_TEXT_MAX_BYTES + 1) > PROVENANCE_TEXT_MAX_BYTES) {
        if (error != NULL)
            snprintf(error->text, sizeof error->text, "longer than %zu bytes",
                     PROVENANCE_TEXT_MAX_BYTES);
        return NULL;
    }
    return json_loads(text, flags, error);
}
