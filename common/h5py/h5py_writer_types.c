/* The HDF5 datatypes h5py stores numpy's as: element types, numpy's bool, fixed strings. */
#include "h5py_writer_state.h"

#include <string.h>

/* Each element type with numpy's name for it and its size in bytes. */
static const struct {
    enum element_type type;
    const char *dtype;
    size_t bytes;
} element_types[] = {
    {ELEMENT_UINT8, "uint8", 1},     {ELEMENT_UINT16, "uint16", 2},   {ELEMENT_UINT32, "uint32", 4},
    {ELEMENT_UINT64, "uint64", 8},   {ELEMENT_INT8, "int8", 1},       {ELEMENT_INT16, "int16", 2},
    {ELEMENT_INT32, "int32", 4},     {ELEMENT_INT64, "int64", 8},     {ELEMENT_FLOAT32, "float32", 4},
    {ELEMENT_FLOAT64, "float64", 8}, {ELEMENT_BOOL, "bool", 1},       {ELEMENT_STRING, "S", 0},
};
enum { ELEMENT_TYPE_COUNT = sizeof element_types / sizeof element_types[0] };

size_t element_size(enum element_type type)
{
    for (size_t index = 0; index < ELEMENT_TYPE_COUNT; index++)
        if (element_types[index].type == type)
            return element_types[index].bytes;
    return 0;
}

const char *element_type_dtype(enum element_type type)
{
    for (size_t index = 0; index < ELEMENT_TYPE_COUNT; index++)
        if (element_types[index].type == type)
            return element_types[index].dtype;
    return "?";
}

bool element_type_from_dtype(const char *dtype, enum element_type *type)
{
    for (size_t index = 0; index < ELEMENT_TYPE_COUNT; index++)
        if (element_types[index].bytes > 0 && strcmp(element_types[index].dtype, dtype) == 0) {
            *type = element_types[index].type;
            return true;
        }
    return false;
}

hid_t h5py_bool_type(hid_t base)
{
    hid_t type = H5Tenum_create(base);
    signed char value = 0;
    H5Tenum_insert(type, "FALSE", &value);
    value = 1;
    H5Tenum_insert(type, "TRUE", &value);
    return type;
}

hid_t h5py_element_type(enum element_type type, size_t element_bytes, bool in_memory)
{
    switch (type) {
    case ELEMENT_UINT8:
        return H5Tcopy(in_memory ? H5T_NATIVE_UINT8 : H5T_STD_U8LE);
    case ELEMENT_UINT16:
        return H5Tcopy(in_memory ? H5T_NATIVE_UINT16 : H5T_STD_U16LE);
    case ELEMENT_UINT32:
        return H5Tcopy(in_memory ? H5T_NATIVE_UINT32 : H5T_STD_U32LE);
    case ELEMENT_UINT64:
        return H5Tcopy(in_memory ? H5T_NATIVE_UINT64 : H5T_STD_U64LE);
    case ELEMENT_INT8:
        return H5Tcopy(in_memory ? H5T_NATIVE_INT8 : H5T_STD_I8LE);
    case ELEMENT_INT16:
        return H5Tcopy(in_memory ? H5T_NATIVE_INT16 : H5T_STD_I16LE);
    case ELEMENT_INT32:
        return H5Tcopy(in_memory ? H5T_NATIVE_INT32 : H5T_STD_I32LE);
    case ELEMENT_INT64:
        return H5Tcopy(in_memory ? H5T_NATIVE_INT64 : H5T_STD_I64LE);
    case ELEMENT_FLOAT32:
        return H5Tcopy(in_memory ? H5T_NATIVE_FLOAT : H5T_IEEE_F32LE);
    case ELEMENT_FLOAT64:
        return H5Tcopy(in_memory ? H5T_NATIVE_DOUBLE : H5T_IEEE_F64LE);
    case ELEMENT_BOOL:
        return h5py_bool_type(in_memory ? H5T_NATIVE_SCHAR : H5T_STD_I8LE);
    case ELEMENT_STRING:
        return h5py_fixed_string_type(element_bytes);
    }
    return -1;
}

size_t h5py_longest_text(const char *const *texts, size_t count)
{
    size_t length = 1;
    for (size_t index = 0; index < count; index++)
        if (texts[index] != NULL && strlen(texts[index]) > length)
            length = strlen(texts[index]);
    return length;
}

hid_t h5py_fixed_string_type(size_t length)
{
    hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, length);
    H5Tset_strpad(type, H5T_STR_NULLPAD);
    return type;
}
