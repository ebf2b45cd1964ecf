/* Element values as the export forms show them: pixels and label text. */
#include "element_display.h"

#include <math.h>
#include <stdio.h>

uint8_t element_pixel(const void *elements, size_t index, struct numeric_type type)
{
    if (type.kind == 'u' && type.size == 1)
        return ((const uint8_t *)elements)[index];
    double value = element_value(elements, index, type);
    if (type.kind == 'b')
        return value != 0 ? 255 : 0;
    if (type.kind == 'f')
        value = round(value * 255.0);
    return value <= 0 || isnan(value) ? 0 : value >= 255 ? 255 : (uint8_t)value;
}

void element_label_text(double value, char *text, size_t size)
{
    if (value == floor(value) && fabs(value) < 1e15)
        snprintf(text, size, "%.0f", value);
    else
        snprintf(text, size, "%.9g", value);
}
