/* Keeps the reason of HDF5's first failure, captured by the automatic error handler as the failing
   call returns (any later API call clears HDF5's error stack, and cleanup calls may fail too). */
#include "hdf5_failure.h"

#include "common/base/error.h"

#include <hdf5.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* A system error's strerror replaces anything else. */
static struct {
    char text[512];
    bool captured;
    bool from_system;
} failure_reason;

static herr_t keep_reason(unsigned number, const H5E_error2_t *entry, void *data)
{
    (void)data;
    if (entry->desc == NULL || failure_reason.from_system)
        return 0;
    const char *marker = "error message = '";
    const char *quoted = strstr(entry->desc, marker);
    if (quoted != NULL) {
        quoted += strlen(marker);
        const char *end = strchr(quoted, '\'');
        int length = end != NULL ? (int)(end - quoted) : (int)strlen(quoted);
        snprintf(failure_reason.text, sizeof failure_reason.text, "%.*s", length, quoted);
        failure_reason.from_system = true;
    } else if (number == 0 && !failure_reason.captured) {
        snprintf(failure_reason.text, sizeof failure_reason.text, "%s", entry->desc);
    }
    failure_reason.captured = true;
    return 0;
}

static herr_t capture_failure(hid_t stack, void *data)
{
    (void)data;
    H5Ewalk2(stack, H5E_WALK_UPWARD, keep_reason, NULL);
    return 0;
}

void hdf5_failure_forget(void)
{
    snprintf(failure_reason.text, sizeof failure_reason.text, "HDF5 error");
    failure_reason.captured = false;
    failure_reason.from_system = false;
}

void hdf5_failure_watch(void)
{
    /* Fails, harmlessly, once the library has started: its hook is then in place already. */
    H5dont_atexit();
    H5Eset_auto2(H5E_DEFAULT, capture_failure, NULL);
    hdf5_failure_forget();
}

int hdf5_failure_report(const char *path, const char *action)
{
    int result;
    if (failure_reason.from_system)
        result = error_set(EXIT_WRITE, "cannot write: %s: %s", path, failure_reason.text);
    else
        result = error_set(EXIT_WRITE, "cannot write: %s: %s: %s", path, action,
                           failure_reason.text);
    hdf5_failure_forget();
    return result;
}
