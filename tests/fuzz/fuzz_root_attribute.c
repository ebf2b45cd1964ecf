/* libFuzzer target: a root string attribute read from the file itself (attribute_direct.h): the
   input is the HDF5 file; a value read is no longer than its heap ID declares, nor the cap, nor
   the file. Then as HDF5 reads it where that walk does not reach: the length it declares
   (vlen_lengths.h) first, then its heap object read from the file itself (H5Aread only where
   fuel cannot read the file, within the cap and the file). */
#include "common/h5py/attribute_direct.h"
#include "common/h5py/vlen_lengths.h"

#include "fuzz_input.h"

#include <hdf5.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);
const char *__asan_default_options(void);

/* HDF5's H5Fopen allocates the root object header's image at the size the file declares before
   reading it (up to 2^64 bytes in a damaged file): glibc's malloc answers NULL, which HDF5 handles
   (fuel then says "damaged HDF5 file", exit 4); AddressSanitizer is made to answer the same
   instead of stopping inside libhdf5. What fuel itself allocates is capped (LIMIT) before. */
const char *__asan_default_options(void)
{
    return "allocator_may_return_null=1";
}

enum { LIMIT = 1 << 20 };

/* H5Aread of ATTRIBUTE, a variable-length string declaring TOTAL bytes: none past them. */
static void through_hdf5(hid_t attribute, uint64_t total)
{
    hid_t type = H5Tcopy(H5T_C_S1), space = H5Aget_space(attribute);
    char *text = NULL;
    if (type >= 0 && space >= 0 && H5Tset_size(type, H5T_VARIABLE) >= 0 &&
        H5Sget_simple_extent_npoints(space) == 1 && H5Aread(attribute, type, &text) >= 0 &&
        text != NULL && strlen(text) > total)
        abort();
    if (text != NULL)
        H5Dvlen_reclaim(type, space, H5P_DEFAULT, &text);
    if (type >= 0)
        H5Tclose(type);
    if (space >= 0)
        H5Sclose(space);
}

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
    hid_t attribute = H5Aopen(file, "fuel_provenance", H5P_DEFAULT);
    uint64_t total, longest;
    unsigned char id[VLEN_HEAP_ID_BYTES];
    /* As fuel reads it: its object from the file itself, HDF5 only where fuel cannot. */
    if (attribute >= 0 && vlen_lengths_read(attribute, -1, 1, &total, &longest) == 0 &&
        total <= LIMIT && total <= size && vlen_heap_id_read(attribute, id) == 0) {
        answer = attribute_direct_heap_read(file, id, &value);
        if (answer == ATTRIBUTE_DIRECT_READ && (value == NULL || strlen(value) > total))
            abort();
        free(value);
        if (answer == ATTRIBUTE_DIRECT_UNSEEN)
            through_hdf5(attribute, total);
    }
    if (attribute >= 0)
        H5Aclose(attribute);
    H5Fclose(file);
    return 0;
}
