/* libFuzzer target: digitStruct.mat (MATLAB 7.3) read as the svhn 1 converter reads it. */
#include "common/formats/matlab/matlab73_read.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static void read_elements(struct matlab73_vector *bbox, struct matlab73_vector *names)
{
    static const char *const fields[] = {"height", "left", "top", "width", "label"};
    struct matlab73_numbers numbers = {0};
    uint64_t count = matlab73_vector_length(bbox);
    for (uint64_t index = 0; index < count && index < 64; index++) {
        for (size_t field = 0; field < sizeof fields / sizeof *fields; field++)
            if (matlab73_vector_numbers(bbox, index, fields[field], &numbers) != 0)
                break;
        char text[64];
        if (index < matlab73_vector_length(names))
            matlab73_vector_text(names, index, text, sizeof text);
    }
    matlab73_numbers_free(&numbers);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    unsigned char *image = malloc(size > 0 ? size : 1);
    if (image == NULL)
        return 0;
    memcpy(image, data, size);
    struct matlab73 *file = NULL;
    if (matlab73_open(&file, image, size, "fuzz.mat") == 0) {
        struct matlab73_vector *bbox = NULL, *names = NULL;
        if (matlab73_vector_open(file, "digitStruct/bbox", &bbox) == 0 &&
            matlab73_vector_open(file, "digitStruct/name", &names) == 0)
            read_elements(bbox, names);
        matlab73_vector_close(bbox);
        matlab73_vector_close(names);
        matlab73_close(file);
    }
    free(image);
    return 0;
}
