/* libFuzzer target: the UCI class-row reader behind iris.data (4 numbers and a class a line). */
#include "converters/class_rows_read.h"
#include "fuzz_input.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    struct class_row_reader *reader;
    if (class_rows_open(&reader, fuzz_input_file(data, size), 4) != 0)
        return 0;
    double values[4];
    const char *name;
    unsigned long line;
    bool read = true;
    size_t lengths = 0;
    while (read && class_rows_next(reader, values, &name, &line, &read) == 0)
        if (read)
            lengths += strlen(name);
    class_rows_close(reader);
    return lengths == (size_t)-1;
}
