/* The data types of MATLAB level-5 MAT-file elements (MathWorks' "MAT-File Format", chapter 1),
   for the reader (matlab_v5.c) and the writer (matlab_v5_writer.c). */
#ifndef FUEL_MATLAB_V5_FORMAT_H
#define FUEL_MATLAB_V5_FORMAT_H

enum matlab_data_type {
    MI_INT8 = 1,
    MI_UINT8 = 2,
    MI_INT16 = 3,
    MI_UINT16 = 4,
    MI_INT32 = 5,
    MI_UINT32 = 6,
    MI_SINGLE = 7,
    MI_DOUBLE = 9,
    MI_INT64 = 12,
    MI_UINT64 = 13,
    MI_MATRIX = 14,
    MI_COMPRESSED = 15,
    MI_UTF8 = 16,
};

#endif
