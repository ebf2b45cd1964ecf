/* When a provenance says its file was made: now, or SOURCE_DATE_EPOCH; read back from a file. */
#include "provenance.h"

#include "common/base/error.h"
#include "common/base/provenance_inputs.h"
#include "h5py_reader.h"

#include <errno.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* SOURCE_DATE_EPOCH as the reproducible-builds convention defines it: decimal seconds. */
static bool source_date_epoch(time_t *seconds)
{
    const char *text = getenv("SOURCE_DATE_EPOCH");
    if (text == NULL || *text < '0' || *text > '9')
        return false;
    char *end;
    errno = 0;
    long long value = strtoll(text, &end, 10);
    if (errno != 0 || *end != '\0')
        return false;
    *seconds = (time_t)value;
    return true;
}

void provenance_created(char *buffer, size_t size)
{
    time_t seconds;
    if (!source_date_epoch(&seconds))
        seconds = time(NULL);
    struct tm calendar;
    if (gmtime_r(&seconds, &calendar) == NULL || strftime(buffer, size, "%Y-%m-%dT%H:%M:%SZ", &calendar) == 0)
        snprintf(buffer, size, "1970-01-01T00:00:00Z");
}

char *provenance_file_created(const char *path)
{
    struct h5py_file *file = NULL;
    char *created = NULL;
    if (h5py_reader_open(&file, path) == EXIT_OK) {
        const char *text = h5py_file_attribute(file, "fuel_provenance");
        struct provenance_inputs inputs;
        json_t *provenance = provenance_head_parse(text, 0, NULL, &inputs);
        const char *value = json_string_value(json_object_get(provenance, "created"));
        created = value != NULL ? strdup(value) : NULL;
        json_decref(provenance);
    }
    h5py_reader_close(file);
    error_clear();
    return created;
}
