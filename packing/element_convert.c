/* Converts elements between numpy's numeric types exactly or not at all, with an optional scale;
   swaps byte orders. */
#include "element_convert.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* An element as read: a signed or unsigned integer, or a float. */
struct value {
    enum { VALUE_SIGNED, VALUE_UNSIGNED, VALUE_FLOAT } kind;
    int64_t whole;
    uint64_t natural;
    double real;
};

static struct value load(enum element_type type, const unsigned char *at)
{
    struct value value = {.kind = VALUE_SIGNED};
    union {
        int8_t i8; int16_t i16; int32_t i32; int64_t i64;
        uint8_t u8; uint16_t u16; uint32_t u32; uint64_t u64;
        float f32; double f64;
    } raw;
    memcpy(&raw, at, element_size(type));
    switch (type) {
    case ELEMENT_INT8: value.whole = raw.i8; break;
    case ELEMENT_INT16: value.whole = raw.i16; break;
    case ELEMENT_INT32: value.whole = raw.i32; break;
    case ELEMENT_INT64: value.whole = raw.i64; break;
    case ELEMENT_BOOL: value.kind = VALUE_UNSIGNED; value.natural = raw.u8 != 0; break;
    case ELEMENT_UINT8: value.kind = VALUE_UNSIGNED; value.natural = raw.u8; break;
    case ELEMENT_UINT16: value.kind = VALUE_UNSIGNED; value.natural = raw.u16; break;
    case ELEMENT_UINT32: value.kind = VALUE_UNSIGNED; value.natural = raw.u32; break;
    case ELEMENT_UINT64: value.kind = VALUE_UNSIGNED; value.natural = raw.u64; break;
    case ELEMENT_FLOAT32: value.kind = VALUE_FLOAT; value.real = raw.f32; break;
    case ELEMENT_FLOAT64: value.kind = VALUE_FLOAT; value.real = raw.f64; break;
    case ELEMENT_STRING: break;
    }
    return value;
}

static double as_real(const struct value *value)
{
    return value->kind == VALUE_FLOAT    ? value->real
           : value->kind == VALUE_SIGNED ? (double)value->whole
                                         : (double)value->natural;
}

/* The integer range of TYPE: [minimum, maximum] as signed and unsigned bounds. */
static void integer_range(enum element_type type, int64_t *minimum, uint64_t *maximum)
{
    size_t bits = element_size(type) * 8;
    bool is_signed = type == ELEMENT_INT8 || type == ELEMENT_INT16 || type == ELEMENT_INT32 ||
                     type == ELEMENT_INT64;
    *maximum = is_signed ? (UINT64_C(1) << (bits - 1)) - 1
                         : bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
    *minimum = is_signed ? -(int64_t)(*maximum) - 1 : 0;
}

/* VALUE as an integer of TYPE stored at AT; false when out of range (or not finite). */
static bool store_integer(enum element_type type, const struct value *value, unsigned char *at)
{
    int64_t minimum;
    uint64_t maximum;
    integer_range(type, &minimum, &maximum);
    uint64_t bits;
    if (value->kind == VALUE_FLOAT) {
        double truncated = trunc(value->real);
        if (!(truncated >= (double)minimum && truncated < 2.0 * ((double)(maximum / 2 + 1))))
            return false;
        bits = truncated < 0 ? (uint64_t)(int64_t)truncated : (uint64_t)truncated;
        if (truncated >= 0 && bits > maximum)
            return false;
    } else if (value->kind == VALUE_SIGNED) {
        if (value->whole < minimum || (value->whole > 0 && (uint64_t)value->whole > maximum))
            return false;
        bits = (uint64_t)value->whole;
    } else {
        if (value->natural > maximum)
            return false;
        bits = value->natural;
    }
    /* Little-endian machines keep the low bytes first: the narrower store takes them. */
    memcpy(at, &bits, element_size(type));
    return true;
}

static bool store(const struct element_conversion *conversion, struct value value,
                  unsigned char *at)
{
    if (conversion->scaled) {
        value.real = as_real(&value) * conversion->scale;
        value.kind = VALUE_FLOAT;
    }
    if (conversion->to == ELEMENT_FLOAT64) {
        double real = as_real(&value);
        memcpy(at, &real, sizeof real);
        return true;
    }
    if (conversion->to == ELEMENT_FLOAT32) {
        float real = value.kind == VALUE_FLOAT    ? (float)value.real
                     : value.kind == VALUE_SIGNED ? (float)value.whole
                                                  : (float)value.natural;
        memcpy(at, &real, sizeof real);
        return true;
    }
    if (conversion->to == ELEMENT_BOOL) {
        *at = value.kind == VALUE_FLOAT ? value.real != 0 || isnan(value.real)
              : value.kind == VALUE_SIGNED ? value.whole != 0
                                           : value.natural != 0;
        return true;
    }
    return store_integer(conversion->to, &value, at);
}

bool element_conversion_needed(const struct element_conversion *conversion)
{
    /* bool to bool too: any byte but 0 becomes 1, as numpy reads it. */
    return conversion->scaled || conversion->from != conversion->to ||
           conversion->from == ELEMENT_BOOL;
}

static void describe(const struct value *value, char *text, size_t size)
{
    if (value->kind == VALUE_FLOAT)
        snprintf(text, size, "%.17g", value->real);
    else if (value->kind == VALUE_SIGNED)
        snprintf(text, size, "%lld", (long long)value->whole);
    else
        snprintf(text, size, "%llu", (unsigned long long)value->natural);
}

/* uint8 to float32, scaled or not: images' common case, without the general loop. */
static void bytes_to_float(const struct element_conversion *conversion, const uint8_t *input,
                           float *output, size_t count)
{
    double scale = conversion->scaled ? conversion->scale : 1.0;
    float table[256];
    for (int byte = 0; byte < 256; byte++)
        table[byte] = (float)(byte * scale);
    for (size_t index = 0; index < count; index++)
        output[index] = table[input[index]];
}

bool element_convert(const struct element_conversion *conversion, const void *input, void *output,
                     size_t count, size_t *bad, char *text, size_t size)
{
    if (conversion->from == ELEMENT_UINT8 && conversion->to == ELEMENT_FLOAT32) {
        bytes_to_float(conversion, input, output, count);
        return true;
    }
    size_t in_size = element_size(conversion->from), out_size = element_size(conversion->to);
    const unsigned char *from = input;
    unsigned char *to = output;
    for (size_t index = 0; index < count; index++) {
        struct value value = load(conversion->from, from + index * in_size);
        if (!store(conversion, value, to + index * out_size)) {
            *bad = index;
            describe(&value, text, size);
            return false;
        }
    }
    return true;
}

void element_swap(void *data, size_t item_size, size_t count)
{
    unsigned char *bytes = data;
    for (size_t index = 0; index < count; index++, bytes += item_size)
        for (size_t low = 0, high = item_size - 1; low < high; low++, high--) {
            unsigned char kept = bytes[low];
            bytes[low] = bytes[high];
            bytes[high] = kept;
        }
}
