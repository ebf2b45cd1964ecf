/* The numbers a MAT-file stores, as the C type of their array's class (widened, byte-swapped). */
#include "matlab_v5_values.h"

#include <string.h>

size_t matlab_stored_size(uint32_t type)
{
    switch (type) {
    case MI_INT8: case MI_UINT8: return 1;
    case MI_INT16: case MI_UINT16: return 2;
    case MI_INT32: case MI_UINT32: case MI_SINGLE: return 4;
    case MI_DOUBLE: case MI_INT64: case MI_UINT64: return 8;
    default: return 0;
    }
}

enum matlab_class matlab_stored_class(uint32_t type)
{
    static const enum matlab_class classes[] = {
        [MI_INT8] = MATLAB_INT8,     [MI_UINT8] = MATLAB_UINT8,   [MI_INT16] = MATLAB_INT16,
        [MI_UINT16] = MATLAB_UINT16, [MI_INT32] = MATLAB_INT32,   [MI_UINT32] = MATLAB_UINT32,
        [MI_SINGLE] = MATLAB_SINGLE, [MI_DOUBLE] = MATLAB_DOUBLE, [MI_INT64] = MATLAB_INT64,
        [MI_UINT64] = MATLAB_UINT64,
    };
    return type < sizeof classes / sizeof classes[0] ? classes[type] : 0;
}

uint32_t matlab_natural_type(enum matlab_class class_id)
{
    static const uint32_t types[] = {
        [MATLAB_DOUBLE] = MI_DOUBLE, [MATLAB_SINGLE] = MI_SINGLE, [MATLAB_INT8] = MI_INT8,
        [MATLAB_UINT8] = MI_UINT8,   [MATLAB_INT16] = MI_INT16,   [MATLAB_UINT16] = MI_UINT16,
        [MATLAB_INT32] = MI_INT32,   [MATLAB_UINT32] = MI_UINT32, [MATLAB_INT64] = MI_INT64,
        [MATLAB_UINT64] = MI_UINT64,
    };
    return class_id >= MATLAB_DOUBLE && class_id <= MATLAB_UINT64 ? types[class_id] : 0;
}

size_t matlab_class_size(enum matlab_class class_id)
{
    return matlab_stored_size(matlab_natural_type(class_id));
}

void matlab_load(const unsigned char *bytes, size_t size, bool swap, void *value)
{
    if (!swap) {
        memcpy(value, bytes, size);
        return;
    }
    for (size_t index = 0; index < size; index++)
        ((unsigned char *)value)[index] = bytes[size - 1 - index];
}

static double load_real(uint32_t type, const unsigned char *bytes, bool swap)
{
    union {
        int8_t int8; uint8_t uint8; int16_t int16; uint16_t uint16; int32_t int32;
        uint32_t uint32; float single; double real; int64_t int64; uint64_t uint64;
    } value;
    matlab_load(bytes, matlab_stored_size(type), swap, &value);
    switch (type) {
    case MI_INT8: return value.int8;
    case MI_UINT8: return value.uint8;
    case MI_INT16: return value.int16;
    case MI_UINT16: return value.uint16;
    case MI_INT32: return value.int32;
    case MI_UINT32: return value.uint32;
    case MI_SINGLE: return value.single;
    case MI_INT64: return (double)value.int64;
    case MI_UINT64: return (double)value.uint64;
    default: return value.real;
    }
}

/* An integer read from the file: a uint64 stored value in MAGNITUDE, any other in SIGNED_VALUE. */
struct integer {
    bool is_unsigned_64;
    int64_t signed_value;
    uint64_t magnitude;
};

static struct integer load_integer(uint32_t type, const unsigned char *bytes, bool swap)
{
    struct integer integer = {.is_unsigned_64 = type == MI_UINT64};
    if (integer.is_unsigned_64)
        matlab_load(bytes, 8, swap, &integer.magnitude);
    else if (type == MI_INT64)
        matlab_load(bytes, 8, swap, &integer.signed_value);
    else
        integer.signed_value = (int64_t)load_real(type, bytes, swap);
    return integer;
}

static bool integer_fits(struct integer integer, int64_t minimum, uint64_t maximum)
{
    if (integer.is_unsigned_64)
        return integer.magnitude <= maximum;
    return integer.signed_value >= minimum &&
           (integer.signed_value < 0 || (uint64_t)integer.signed_value <= maximum);
}

static const struct {
    int64_t minimum;
    uint64_t maximum;
} integer_ranges[] = {
    [MATLAB_INT8] = {INT8_MIN, INT8_MAX},     [MATLAB_UINT8] = {0, UINT8_MAX},
    [MATLAB_INT16] = {INT16_MIN, INT16_MAX},  [MATLAB_UINT16] = {0, UINT16_MAX},
    [MATLAB_INT32] = {INT32_MIN, INT32_MAX},  [MATLAB_UINT32] = {0, UINT32_MAX},
    [MATLAB_INT64] = {INT64_MIN, INT64_MAX},  [MATLAB_UINT64] = {0, UINT64_MAX},
};

/* Stores INTEGER into element INDEX of OUTPUT, an array of CLASS_ID's C type, if it fits. */
static bool store_integer(enum matlab_class class_id, struct integer integer, void *output,
                          size_t index)
{
    if (!integer_fits(integer, integer_ranges[class_id].minimum, integer_ranges[class_id].maximum))
        return false;
    int64_t value = integer.signed_value;
    switch (class_id) {
    case MATLAB_INT8: ((int8_t *)output)[index] = (int8_t)value; break;
    case MATLAB_UINT8: ((uint8_t *)output)[index] = (uint8_t)value; break;
    case MATLAB_INT16: ((int16_t *)output)[index] = (int16_t)value; break;
    case MATLAB_UINT16: ((uint16_t *)output)[index] = (uint16_t)value; break;
    case MATLAB_INT32: ((int32_t *)output)[index] = (int32_t)value; break;
    case MATLAB_UINT32: ((uint32_t *)output)[index] = (uint32_t)value; break;
    case MATLAB_INT64: ((int64_t *)output)[index] = value; break;
    default:
        ((uint64_t *)output)[index] = integer.is_unsigned_64 ? integer.magnitude : (uint64_t)value;
    }
    return true;
}

void matlab_swap_in_place(unsigned char *data, size_t size, uint64_t count)
{
    for (uint64_t element = 0; element < count; element++, data += size)
        for (size_t low = 0, high = size - 1; low < high; low++, high--) {
            unsigned char byte = data[low];
            data[low] = data[high];
            data[high] = byte;
        }
}

bool matlab_widen(enum matlab_class class_id, uint32_t stored_type, bool swap,
                  const unsigned char *stored, void *output, size_t count)
{
    size_t size = matlab_stored_size(stored_type);
    for (size_t index = 0; index < count; index++) {
        const unsigned char *bytes = stored + index * size;
        if (class_id == MATLAB_DOUBLE)
            ((double *)output)[index] = load_real(stored_type, bytes, swap);
        else if (class_id == MATLAB_SINGLE)
            ((float *)output)[index] = (float)load_real(stored_type, bytes, swap);
        else if (!store_integer(class_id, load_integer(stored_type, bytes, swap), output, index))
            return false;
    }
    return true;
}
