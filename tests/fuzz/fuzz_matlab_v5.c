/* libFuzzer target: the MATLAB v5 reader, walked as the svhn 2 converter walks X and y, and as
   the silhouettes converter reads train_data in its stored type. */
#include "common/formats/matlab/matlab_v5_read.h"
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

/* Reads up to a few blocks of the current variable (a hostile header may declare far more), as
   its class's type or, STORED, as the file stores it. */
static void read_some(struct matlab_file *file, const struct matlab_variable *variable, bool stored)
{
    static unsigned char block[8 * 4096];
    size_t element = matlab_class_size(stored ? variable->stored_class : variable->class_id);
    if (element == 0)
        return;
    uint64_t left = variable->count;
    for (int blocks = 0; left > 0 && blocks < 64; blocks++) {
        uint64_t count = sizeof block / element;
        if (count > left)
            count = left;
        if ((stored ? matlab_read_stored(file, block, count) : matlab_read(file, block, count)) != 0)
            return;
        left -= count;
    }
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    struct matlab_file *file;
    if (matlab_open(&file, fuzz_input_file(data, size)) != 0)
        return 0;
    struct matlab_variable variable;
    bool found = true;
    for (int count = 0; found && count < 16; count++)
        if (matlab_next(file, &variable, &found) != 0)
            break;
        else if (found)
            read_some(file, &variable, false);
    if (matlab_find(file, "y", &variable, &found) == 0 && found)
        read_some(file, &variable, false);
    if (matlab_find(file, "train_data", &variable, &found) == 0 && found)
        read_some(file, &variable, true);
    matlab_close(file);
    return 0;
}
