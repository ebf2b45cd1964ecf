/* libFuzzer target: the manifest of an export set (.LABEL.publishing/.manifest and
   .earlier, and the .LABEL.exported of earlier versions). */
#include "exporters/set_manifest.h"
#include "fuzz_input.h"

#include <fcntl.h>
#include <libgen.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    char path[4096];
    snprintf(path, sizeof path, "%s", fuzz_input_file(data, size));
    char directory_path[4096], name_path[4096];
    snprintf(directory_path, sizeof directory_path, "%s", path);
    snprintf(name_path, sizeof name_path, "%s", path);
    int directory = open(dirname(directory_path), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (directory < 0)
        abort();
    struct set_manifest manifest = {0};
    bool found = false;
    size_t total = 0;
    if (set_manifest_read(directory, basename(name_path), &manifest, &found) == 0 && found) {
        for (size_t index = 0; index < manifest.count; index++) {
            const char *name = manifest.entries[index].name;
            if (!set_entry_name_valid(name) || !set_manifest_has(&manifest, name))
                abort();
            total += strlen(name);
        }
    }
    set_manifest_free(&manifest);
    close(directory);
    return total == (size_t)-1;
}
