/* libFuzzer target: a global heap object looked up in a file: the input's first 16 bytes are the
   heap ID, the whole input the file; an object found lies inside the file. */
#include "common/h5py/global_heap.h"

#include "fuzz_input.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    if (size < GLOBAL_HEAP_ID_BYTES)
        return 0;
    struct global_heap_id id;
    global_heap_id_decode(data, &id);
    int descriptor = open(fuzz_input_file(data, size), O_RDONLY);
    if (descriptor < 0)
        abort();
    uint64_t offset = 0;
    if (global_heap_locate(descriptor, size, &id, &offset) &&
        (offset > size || size - offset < id.length))
        abort();
    close(descriptor);
    return 0;
}
