/* libFuzzer target: a zip archive's central directory listed entry by entry; every name handed
   over is a C string of at most 65535 bytes. */
#include "common/formats/archive/zip_directory.h"

#include "fuzz_input.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static int check_name(void *context, const char *name)
{
    size_t *entries = context;
    if (strlen(name) > 65535)
        abort();
    (*entries)++;
    return 0;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    size_t entries = 0;
    zip_directory_list(fuzz_input_file(data, size), check_name, &entries);
    return 0;
}
