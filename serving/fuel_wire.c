/* Encodes Fuel's batch header with jansson in the key order and spacing of Python's json.dumps. */
#include "fuel_wire.h"

#include <jansson.h>

const char wire_stop_message[] = "{\"stop\": true}";

static json_t *array_header(const struct wire_array *array)
{
    json_t *shape = json_array();
    for (int axis = 0; shape != NULL && axis < array->rank; axis++)
        if (json_array_append_new(shape, json_integer((json_int_t)array->shape[axis])) != 0) {
            json_decref(shape);
            shape = NULL;
        }
    if (shape == NULL)
        return NULL;
    return json_pack("{s:o, s:b, s:s}", "shape", shape, "fortran_order", 0, "descr",
                     array->descr);
}

char *wire_header(const struct wire_array *arrays, size_t count)
{
    json_t *list = json_array();
    for (size_t index = 0; list != NULL && index < count; index++)
        if (json_array_append_new(list, array_header(&arrays[index])) != 0) {
            json_decref(list);
            list = NULL;
        }
    char *text = list != NULL ? json_dumps(list, JSON_PRESERVE_ORDER) : NULL;
    json_decref(list);
    return text;
}
