/* The HDF5 datatypes h5py stores numpy's as: element types, numpy's bool, fixed strings. */
#include "h5py_writer_parts.h"

#include <string.h>

size_t element_size(enum element_type type)
{
    switch (type) {
    case ELEMENT_UINT8:
    case ELEMENT_BOOL:
        return 1;
    case ELEMENT_UINT16:
        return 2;
    case ELEMENT_FLOAT32:
        return 4;
    case ELEMENT_INT64:
    case ELEMENT_FLOAT64:
        return 8;
    }
    return 0;
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

hid_t h5py_element_type(enum element_type type, bool in_memory)
{
    switch (type) {
    case ELEMENT_UINT8:
        return H5Tcopy(in_memory ? H5T_NATIVE_UINT8 : H5T_STD_U8LE);
    case ELEMENT_UINT16:
        return H5Tcopy(in_memory ? H5T_NATIVE_UINT16 : H5T_STD_U16LE);
    case ELEMENT_INT64:
        return H5Tcopy(in_memory ? H5T_NATIVE_INT64 : H5T_STD_I64LE);
    case ELEMENT_FLOAT32:
        return H5Tcopy(in_memory ? H5T_NATIVE_FLOAT : H5T_IEEE_F32LE);
    case ELEMENT_FLOAT64:
        return H5Tcopy(in_memory ? H5T_NATIVE_DOUBLE : H5T_IEEE_F64LE);
    case ELEMENT_BOOL:
        return h5py_bool_type(in_memory ? H5T_NATIVE_SCHAR : H5T_STD_I8LE);
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
