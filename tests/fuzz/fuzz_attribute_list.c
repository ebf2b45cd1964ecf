/* libFuzzer target: the attribute list reader behind CelebA's list_attr_celeba.txt (the first
   byte is the harness's attribute count, 1 to 64); every row read holds only 0s and 1s. */
#include "converters/attribute_list_read.h"
#include "fuzz_input.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    if (size < 1)
        return 0;
    size_t attributes = 1 + data[0] % 64;
    struct attribute_list *list;
    if (attribute_list_open(&list, fuzz_input_file(data + 1, size - 1), attributes) != 0)
        return 0;
    uint8_t values[64];
    const char *name;
    unsigned long line;
    bool read = true;
    while (read && attribute_list_next(list, &name, values, &line, &read) == 0)
        for (size_t index = 0; read && index < attributes; index++)
            if (values[index] > 1 || name[0] == '\0')
                abort();
    attribute_list_close(list);
    return 0;
}
