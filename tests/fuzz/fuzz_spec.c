/* libFuzzer target: fuel pack's spec reader, its YAML bounds on (depth and node count checked
   before libyaml loads the text). */
#include "packing/spec.h"
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    struct pack_spec *spec = NULL;
    if (pack_spec_read(fuzz_input_file(data, size), &spec) == 0)
        pack_spec_free(spec);
    return 0;
}
