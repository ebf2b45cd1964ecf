/* Element values of the numeric types H5PYDataset sources hold: one as a double, arrays as floats. */
#include "h5py_elements.h"

#include <stdint.h>
#include <string.h>

struct numeric_type numeric_type_from_descr(const char *descr)
{
    struct numeric_type type = {descr[1], (size_t)(descr[2] - '0')};
    return type;
}

double element_value(const void *elements, size_t index, struct numeric_type type)
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

/* One loop per stored type, which the compiler vectorises (fuel serve converts every batch). */
#define CONVERT(output_type, stored_type)                                                         \
    for (size_t index = 0; index < count; index++) {                                              \
        stored_type value;                                                                        \
        memcpy(&value, bytes + index * sizeof value, sizeof value);                               \
        ((output_type *)out)[index] = (output_type)((double)value * scale);                       \
    }

#define CONVERT_TO(output_type)                                                                   \
    if (type.kind == 'f' && type.size == 4) {                                                     \
        CONVERT(output_type, float)                                                               \
    } else if (type.kind == 'f') {                                                                \
        CONVERT(output_type, double)                                                              \
    } else if (type.kind == 'i' && type.size == 1) {                                              \
        CONVERT(output_type, int8_t)                                                              \
    } else if (type.kind == 'i' && type.size == 2) {                                              \
        CONVERT(output_type, int16_t)                                                             \
    } else if (type.kind == 'i' && type.size == 4) {                                              \
        CONVERT(output_type, int32_t)                                                             \
    } else if (type.kind == 'i') {                                                                \
        CONVERT(output_type, int64_t)                                                             \
    } else if (type.size == 1) {                                                                  \
        CONVERT(output_type, uint8_t)                                                             \
    } else if (type.size == 2) {                                                                  \
        CONVERT(output_type, uint16_t)                                                            \
    } else if (type.size == 4) {                                                                  \
        CONVERT(output_type, uint32_t)                                                            \
    } else {                                                                                      \
        CONVERT(output_type, uint64_t)                                                            \
    }

void elements_to_float(const void *elements, struct numeric_type type, size_t count, double scale,
                       bool double_precision, void *out)
{
    const unsigned char *bytes = elements;
    if (type.kind == 'b') {
        for (size_t index = 0; index < count; index++) {
            double value = (bytes[index] != 0) * scale;
            if (double_precision)
                ((double *)out)[index] = value;
            else
                ((float *)out)[index] = (float)value;
        }
    } else if (double_precision) {
        CONVERT_TO(double)
    } else {
        CONVERT_TO(float)
    }
}
