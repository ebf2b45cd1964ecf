/* libFuzzer target: the YAML config reader (~/.fuelrc, here through FUEL_CONFIG). */
#include "common/base/config.h"
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    static const char *const overrides[] = {"FUEL_DATA_PATH", "FUEL_LOCAL_DATA_PATH",
                                            "FUEL_EXTRA_DOWNLOADERS", "FUEL_EXTRA_CONVERTERS",
                                            "FUEL_MIRROR"};
    for (size_t index = 0; index < sizeof overrides / sizeof *overrides; index++)
        unsetenv(overrides[index]);
    setenv("FUEL_CONFIG", fuzz_input_file(data, size), 1);
    struct fuel_config config = {0};
    if (config_load(&config) == 0) {
        char path[4096];
        data_path_find(&config, "mnist.hdf5", path, sizeof path);
    }
    config_free(&config);
    return 0;
}
