/* The only callables a pickle may name, interpreted here, never called: numpy's uint8 ndarray
   reconstruction (_reconstruct + BUILD, or protocol 5's _frombuffer), numpy.dtype('u1') and
   _codecs.encode(text, 'latin1'), which Python 3 writes for bytes under protocol 2. */
#include "common/base/error.h"
#include "pickle_parser.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

enum global {
    GLOBAL_RECONSTRUCT,
    GLOBAL_NDARRAY,
    GLOBAL_DTYPE,
    GLOBAL_ENCODE,
    GLOBAL_FROMBUFFER,
};

static const struct {
    const char *module;
    const char *name;
    enum global global;
} allowed_globals[] = {
    {"numpy.core.multiarray", "_reconstruct", GLOBAL_RECONSTRUCT},
    {"numpy._core.multiarray", "_reconstruct", GLOBAL_RECONSTRUCT},
    {"numpy", "ndarray", GLOBAL_NDARRAY},
    {"numpy", "dtype", GLOBAL_DTYPE},
    {"_codecs", "encode", GLOBAL_ENCODE},
    {"numpy.core.numeric", "_frombuffer", GLOBAL_FROMBUFFER},
    {"numpy._core.numeric", "_frombuffer", GLOBAL_FROMBUFFER},
};

static bool equals(const char *text, size_t length, const char *expected)
{
    return strlen(expected) == length && memcmp(text, expected, length) == 0;
}

/* Copies at most 60 characters of TEXT into OUT, non-printable ones as '?'. */
static void printable(const char *text, size_t length, char out[64])
{
    size_t count = length < 60 ? length : 60;
    for (size_t index = 0; index < count; index++)
        out[index] = isprint((unsigned char)text[index]) ? text[index] : '?';
    out[count] = '\0';
}

int pickle_find_global(struct pickle_parser *parser, const char *module, size_t module_length,
                       const char *name, size_t name_length, struct pickle_value *global)
{
    for (size_t index = 0; index < sizeof allowed_globals / sizeof allowed_globals[0]; index++)
        if (equals(module, module_length, allowed_globals[index].module) &&
            equals(name, name_length, allowed_globals[index].name)) {
            *global = (struct pickle_value){.type = PICKLE_GLOBAL,
                                            .global = allowed_globals[index].global};
            return EXIT_OK;
        }
    char module_text[64], name_text[64], why[160];
    printable(module, module_length, module_text);
    printable(name, name_length, name_text);
    snprintf(why, sizeof why, "global %s.%s is not allowed", module_text, name_text);
    return pickle_refuse(parser, why);
}

static const struct pickle_value *argument(const struct pickle_value *arguments, size_t index)
{
    return index < arguments->items->count ? &arguments->items->values[index] : NULL;
}

static bool is_type(const struct pickle_value *value, enum pickle_type type)
{
    return value != NULL && value->type == type;
}

/* Reads a shape tuple into ARRAY and checks that it holds exactly SIZE elements. */
static int set_shape(struct pickle_parser *parser, struct pickle_array *array,
                     const struct pickle_value *shape, uint64_t size)
{
    if (!is_type(shape, PICKLE_TUPLE) || shape->items->count > PICKLE_MAX_RANK)
        return pickle_refuse(parser, "ndarray shape is not a tuple of at most 8 sizes");
    uint64_t elements = 1;
    for (size_t axis = 0; axis < shape->items->count; axis++) {
        const struct pickle_value *length = &shape->items->values[axis];
        if (length->type != PICKLE_INT || length->integer < 0)
            return pickle_refuse(parser, "ndarray shape is not a tuple of at most 8 sizes");
        array->shape[axis] = (uint64_t)length->integer;
        if (array->shape[axis] != 0 && elements > UINT64_MAX / array->shape[axis])
            return pickle_refuse(parser, "ndarray shape too large");
        elements *= array->shape[axis];
    }
    if (elements != size)
        return pickle_refuse(parser, "ndarray data size does not match its shape");
    array->rank = (int)shape->items->count;
    return EXIT_OK;
}

static int new_array(struct pickle_parser *parser, struct pickle_value *result)
{
    struct pickle_array *array = pickle_allocate(parser, sizeof *array);
    if (array == NULL)
        return error_code();
    *result = (struct pickle_value){.type = PICKLE_ARRAY, .array = array};
    return EXIT_OK;
}

/* _reconstruct(ndarray, (0,), b'b'): an empty array that BUILD fills. */
static int reduce_reconstruct(struct pickle_parser *parser, const struct pickle_value *arguments,
                              struct pickle_value *result)
{
    if (arguments->items->count != 3 ||
        !is_type(argument(arguments, 0), PICKLE_GLOBAL) ||
        argument(arguments, 0)->global != GLOBAL_NDARRAY)
        return pickle_refuse(parser, "_reconstruct of something other than numpy.ndarray");
    return new_array(parser, result);
}

static int reduce_dtype(struct pickle_parser *parser, const struct pickle_value *arguments,
                        struct pickle_value *result)
{
    const struct pickle_value *name = argument(arguments, 0);
    if (name == NULL || !pickle_string_equals(name, "u1"))
        return pickle_refuse(parser, "dtype other than u1");
    *result = (struct pickle_value){.type = PICKLE_DTYPE};
    return EXIT_OK;
}

/* Rewrites the UTF-8 of STRING as latin-1 in place (never longer). */
static int encode_latin1(struct pickle_parser *parser, struct pickle_string *string)
{
    unsigned char *bytes = (unsigned char *)string->bytes;
    size_t written = 0;
    for (size_t index = 0; index < string->length; index++) {
        unsigned char byte = bytes[index];
        if (byte >= 0x80) {
            if ((byte != 0xC2 && byte != 0xC3) || index + 1 >= string->length ||
                (bytes[index + 1] & 0xC0) != 0x80)
                return pickle_refuse(parser, "_codecs.encode of text outside latin-1");
            byte = (unsigned char)(((byte & 0x03) << 6) | (bytes[++index] & 0x3F));
        }
        bytes[written++] = byte;
    }
    string->as_read = string->as_read && written == string->length;
    string->length = written;
    string->text = false;
    return EXIT_OK;
}

static int reduce_encode(struct pickle_parser *parser, const struct pickle_value *arguments,
                         struct pickle_value *result)
{
    const struct pickle_value *text = argument(arguments, 0);
    const struct pickle_value *encoding = argument(arguments, 1);
    if (arguments->items->count != 2 || !is_type(text, PICKLE_TEXT) || encoding == NULL ||
        (!pickle_string_equals(encoding, "latin1") && !pickle_string_equals(encoding, "latin-1")))
        return pickle_refuse(parser, "_codecs.encode other than of text to latin1");
    /* The text's storage becomes its bytes; a text used twice is converted once. */
    if (text->string->text) {
        int status = encode_latin1(parser, text->string);
        if (status != EXIT_OK)
            return status;
    }
    *result = (struct pickle_value){.type = PICKLE_BYTES, .string = text->string};
    return EXIT_OK;
}

/* Protocol 5: _frombuffer(buffer, dtype, shape, order). */
static int reduce_frombuffer(struct pickle_parser *parser, const struct pickle_value *arguments,
                             struct pickle_value *result)
{
    const struct pickle_value *buffer = argument(arguments, 0);
    const struct pickle_value *order = argument(arguments, 3);
    if (arguments->items->count != 4 || !is_type(buffer, PICKLE_BYTES) ||
        !is_type(argument(arguments, 1), PICKLE_DTYPE) || order == NULL ||
        (!pickle_string_equals(order, "C") && !pickle_string_equals(order, "F")))
        return pickle_refuse(parser, "_frombuffer other than of bytes, u1, a shape and an order");
    int status = new_array(parser, result);
    if (status != EXIT_OK)
        return status;
    struct pickle_array *array = result->array;
    status = set_shape(parser, array, argument(arguments, 2), buffer->string->length);
    array->data = buffer->string->bytes;
    array->data_as_read = buffer->string->as_read;
    array->size = buffer->string->length;
    array->fortran_order = pickle_string_equals(order, "F");
    array->complete = true;
    return status;
}

int pickle_reduce(struct pickle_parser *parser, const struct pickle_value *callable,
                  const struct pickle_value *arguments, struct pickle_value *result)
{
    if (callable->type != PICKLE_GLOBAL || arguments->type != PICKLE_TUPLE)
        return pickle_refuse(parser, "REDUCE of something other than an allowed global");
    switch (callable->global) {
    case GLOBAL_RECONSTRUCT: return reduce_reconstruct(parser, arguments, result);
    case GLOBAL_DTYPE: return reduce_dtype(parser, arguments, result);
    case GLOBAL_ENCODE: return reduce_encode(parser, arguments, result);
    case GLOBAL_FROMBUFFER: return reduce_frombuffer(parser, arguments, result);
    default: return pickle_refuse(parser, "REDUCE of numpy.ndarray itself");
    }
}

/* ndarray.__setstate__((version,) shape, dtype, is_fortran, rawdata). */
static int build_array(struct pickle_parser *parser, struct pickle_array *array,
                       const struct pickle_value *state)
{
    size_t count = is_type(state, PICKLE_TUPLE) ? state->items->count : 0;
    if (array->complete || (count != 4 && count != 5))
        return pickle_refuse(parser, "ndarray state is not (version, shape, dtype, fortran, data)");
    const struct pickle_value *fields = state->items->values + (count - 4);
    if (fields[1].type != PICKLE_DTYPE || fields[3].type != PICKLE_BYTES ||
        (fields[2].type != PICKLE_BOOL && fields[2].type != PICKLE_INT))
        return pickle_refuse(parser, "ndarray state is not (version, shape, dtype, fortran, data)");
    int status = set_shape(parser, array, &fields[0], fields[3].string->length);
    array->data = fields[3].string->bytes;
    array->data_as_read = fields[3].string->as_read;
    array->size = fields[3].string->length;
    array->fortran_order = fields[2].integer != 0;
    array->complete = status == EXIT_OK;
    return status;
}

/* dtype.__setstate__: only the byte order matters, and for u1 it is '|'. */
static int build_dtype(struct pickle_parser *parser, const struct pickle_value *state)
{
    const struct pickle_value *order = is_type(state, PICKLE_TUPLE) ? argument(state, 1) : NULL;
    if (order == NULL || !pickle_string_equals(order, "|"))
        return pickle_refuse(parser, "dtype state is not that of u1");
    return EXIT_OK;
}

int pickle_build(struct pickle_parser *parser, struct pickle_value *object,
                 const struct pickle_value *state)
{
    if (object->type == PICKLE_ARRAY)
        return build_array(parser, object->array, state);
    if (object->type == PICKLE_DTYPE)
        return build_dtype(parser, state);
    return pickle_refuse(parser, "BUILD of something other than an ndarray or dtype");
}
