/* libFuzzer target: the JSON manifests of extra downloaders (extra_downloaders in fuelrc(5)). */
#include "downloaders/manifest.h"
#include "fuzz_input.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    struct manifest manifest = {0};
    if (manifest_load(&manifest, fuzz_input_file(data, size)) == 0) {
        size_t total = 0;
        for (size_t index = 0; index < manifest.dataset_count; index++) {
            const struct dataset *dataset = &manifest.datasets[index];
            total += strlen(dataset->name);
            if (dataset->variant != NULL)
                total += strlen(dataset->variant);
            for (size_t file = 0; file < dataset->file_count; file++) {
                const struct dataset_file *entry = &dataset->files[file];
                total += strlen(entry->name);
                for (int url = 0; url < DATASET_MAX_URLS && entry->urls[url] != NULL; url++)
                    total += strlen(entry->urls[url]);
            }
        }
        manifest_free(&manifest);
        return total == (size_t)-1;
    }
    manifest_free(&manifest);
    return 0;
}
