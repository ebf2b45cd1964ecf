/* libFuzzer target: the MATLAB v5 struct, cell and char arrays, walked as the ILSVRC converters
   walk meta.mat's synsets: every element entered, text and numbers read, nested containers
   walked and left. */
#include "common/formats/matlab/matlab_v5_read.h"

#include <stdbool.h>
#include <stddef.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

/* Reads the current array as its class allows. */
static int read_array(struct matlab_file *file, const struct matlab_variable *array)
{
    if (array->class_id == MATLAB_CHAR) {
        char text[512];
        size_t length;
        return matlab_read_text(file, text, sizeof text, &length);
    }
    double numbers[64];
    if (matlab_class_size(array->class_id) == 8 && array->count <= 64)
        return matlab_read(file, numbers, array->count);
    return 0;
}

/* Walks the innermost container's elements, at most LIMIT of them in all. */
static int walk(struct matlab_file *file, int *limit)
{
    for (;;) {
        struct matlab_variable child;
        bool found;
        if (--*limit < 0 || matlab_child(file, &child, &found) != 0)
            return -1;
        if (!found)
            return 0;
        int status = child.class_id == MATLAB_STRUCT || child.class_id == MATLAB_CELL
                         ? walk(file, limit)
                         : read_array(file, &child);
        if (status != 0)
            return status;
        if ((child.class_id == MATLAB_STRUCT || child.class_id == MATLAB_CELL) &&
            matlab_leave(file) != 0)
            return -1;
    }
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    struct matlab_file *file;
    if (matlab_open_memory(&file, data, size, "fuzz.mat") != 0)
        return 0;
    struct matlab_variable variable;
    bool found = true;
    int limit = 100000;
    for (int count = 0; found && count < 8; count++) {
        if (matlab_next(file, &variable, &found) != 0 || !found)
            break;
        if (matlab_field_count(file) > 0)
            (void)matlab_field_name(file, matlab_field_count(file) - 1);
        if (variable.class_id == MATLAB_STRUCT || variable.class_id == MATLAB_CELL)
            (void)walk(file, &limit);
        else
            (void)read_array(file, &variable);
    }
    matlab_close(file);
    return 0;
}
