/* Converts the numeric element types of H5PYDataset sources to floats, pixels and label text. */
#include "elements.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

struct element_type element_type_from_descr(const char *descr)
{
    struct element_type type = {descr[1], (size_t)(descr[2] - '0')};
    return type;
}

double element_value(const void *elements, size_t index, struct element_type type)
{
    const unsigned char *at = (const unsigned char *)elements + index * type.size;
    union {
        uint8_t u1; uint16_t u2; uint32_t u4; uint64_t u8;
        int8_t i1; int16_t i2; int32_t i4; int64_t i8;
        float f4; double f8;
    } value;
    memcpy(&value, at, type.size);
    if (type.kind == 'f')
        return type.size == 4 ? value.f4 : value.f8;
    if (type.kind == 'i')
        return type.size == 1 ? value.i1 : type.size == 2 ? value.i2
               : type.size == 4 ? value.i4 : (double)value.i8;
    if (type.kind == 'b')
        return value.i1 != 0;
    return type.size == 1 ? value.u1 : type.size == 2 ? value.u2
           : type.size == 4 ? value.u4 : (double)value.u8;
}

void elements_to_float(const void *elements, struct element_type type, size_t count, double scale,
                       bool double_precision, void *out)
{
    const uint8_t *bytes = elements;
    float *single = out;
    double *twice = out;
    if (type.kind == 'u' && type.size == 1 && !double_precision) {
        for (size_t index = 0; index < count; index++)
            single[index] = (float)(bytes[index] * scale);
        return;
    }
    for (size_t index = 0; index < count; index++) {
        double value = element_value(elements, index, type) * scale;
        if (double_precision)
            twice[index] = value;
        else
            single[index] = (float)value;
    }
}

uint8_t element_pixel(const void *elements, size_t index, struct element_type type)
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
