/* libFuzzer target: a root string attribute read from the file itself (attribute_direct.h): the
   input is the HDF5 file; a value read is no longer than its heap ID declares, nor the cap, nor
   the file. */
#include "common/h5py/attribute_direct.h"

#include "fuzz_input.h"

#include <hdf5.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

enum { LIMIT = 1 << 20 };

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    hid_t file = H5Fopen(fuzz_input_file(data, size), H5F_ACC_RDONLY, H5P_DEFAULT);
    if (file < 0)
        return 0;
    char *value = NULL;
    uint64_t length = 0;
    enum attribute_direct_answer answer =
        attribute_direct_read(file, "fuel_provenance", LIMIT, &value, &length);
    if (answer == ATTRIBUTE_DIRECT_READ &&
        (value == NULL || strlen(value) > length || length > LIMIT || length > size))
        abort();
    if (answer != ATTRIBUTE_DIRECT_READ && value != NULL)
        abort();
    free(value);
    H5Fclose(file);
    return 0;
}
