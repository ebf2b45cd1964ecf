/* libFuzzer target: fuel pack's file inputs (.npy, .npz member x, CSV, TSV, HDF5 dataset /x),
   probed then read to their end; the first byte picks the kind (its value modulo 5), the rest is
   the file. What the probe counted is what the blocks hold. */
#include "packing/input.h"

#include "common/base/error.h"
#include "fuzz_input.h"

#include <hdf5.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static const enum input_kind kinds[] = {INPUT_NPY, INPUT_NPZ, INPUT_CSV, INPUT_TSV, INPUT_HDF5};
static const char *const members[] = {NULL, "x", NULL, NULL, "/x"};

/* Reads INPUT's examples to their end, at most 64 blocks; abort when they are not the probe's. */
static void examples_read(const struct input_kind_reader *kind, const struct input_context *context,
                          const struct pack_input *input, const struct input_facts *facts)
{
    struct input_reader *reader = NULL;
    uint64_t examples = 0;
    struct example_block block = {0};
    int result = kind->open(context, input, facts, &reader);
    for (int blocks = 0; result == EXIT_OK && blocks < 64; blocks++) {
        if ((result = kind->next(reader, &block)) != EXIT_OK || block.count == 0)
            break;
        examples += block.count;
        if (examples > facts->examples)
            abort();
    }
    if (result == EXIT_OK && block.count == 0 && examples != facts->examples)
        abort();
    if (reader != NULL)
        kind->close(reader);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    if (size == 0)
        return 0;
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    size_t pick = data[0] % (sizeof kinds / sizeof kinds[0]);
    char path[4096], member[4];
    snprintf(path, sizeof path, "%s", fuzz_input_file(data + 1, size - 1));
    snprintf(member, sizeof member, "%s", members[pick] != NULL ? members[pick] : "");
    struct pack_input input = {kinds[pick], path, members[pick] != NULL ? member : NULL, path, 1};
    struct pack_source source = {.name = "x", .inputs = &input, .input_count = 1};
    struct pack_spec spec = {.path = "fuzz.yaml", .directory = "/", .name = "fuzz"};
    struct input_context context = {&spec, &source, 1, NULL};
    const struct input_kind_reader *kind = input_kind_reader(input.kind);
    struct input_facts facts = {0};
    if (kind->probe(&context, &input, &facts) == EXIT_OK)
        examples_read(kind, &context, &input, &facts);
    input_facts_free(&facts);
    error_clear();
    return 0;
}
