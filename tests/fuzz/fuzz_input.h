/* For fuzz harnesses: puts one input into a scratch file, for readers that only open paths. */
#ifndef FUEL_FUZZ_INPUT_H
#define FUEL_FUZZ_INPUT_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Replaces the scratch file's content with DATA and returns its path (one file per process, made
   under $TMPDIR or /tmp at the first call and removed at exit). */
static const char *fuzz_input_file(const unsigned char *data, size_t size);

static char fuzz_input_path[4096];

static void fuzz_input_remove(void)
{
    unlink(fuzz_input_path);
}

static const char *fuzz_input_file(const unsigned char *data, size_t size)
{
    if (fuzz_input_path[0] == '\0') {
        const char *directory = getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp";
        snprintf(fuzz_input_path, sizeof fuzz_input_path, "%s/fuel-fuzz-XXXXXX", directory);
        int descriptor = mkstemp(fuzz_input_path);
        if (descriptor < 0)
            abort();
        close(descriptor);
        atexit(fuzz_input_remove);
    }
    int descriptor = open(fuzz_input_path, O_WRONLY | O_TRUNC);
    if (descriptor < 0)
        abort();
    for (size_t done = 0; done < size;) {
        ssize_t written = write(descriptor, data + done, size - done);
        if (written <= 0)
            abort();
        done += (size_t)written;
    }
    close(descriptor);
    return fuzz_input_path;
}

#endif
