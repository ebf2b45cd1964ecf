/* Reads which entries a published export set holds from the listing the set itself publishes. */
#include "set_listing.h"

#include "common/base/error.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* DIRECTORY/NAME opened for reading when it is a regular file (a FIFO never blocks); -1 when
   there is none or it is something else. */
static int listing_open(int directory, const char *name)
{
    int descriptor = openat(directory, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    struct stat status;
    if (descriptor >= 0 && (fstat(descriptor, &status) != 0 || !S_ISREG(status.st_mode))) {
        close(descriptor);
        descriptor = -1;
    }
    return descriptor;
}

/* Whether NAME can be an entry of the set LABEL of the split SPLIT (NULL: not known): one of its
   files is named after the set, an image list's directory after the split. */
static bool entry_of(const char *name, const char *label, const char *split)
{
    return set_entry_name_valid(name) &&
           (strncmp(name, label, strlen(label)) == 0 || (split != NULL && strcmp(name, split) == 0));
}

/* The export.files of a provenance document: NAME_SPLIT.provenance.json holds it at its top,
   SPLIT.json in its provenance. */
static int files_add(json_t *document, const char *label, struct set_manifest *record)
{
    json_t *export = json_object_get(document, "export");
    if (!json_is_object(export))
        export = json_object_get(json_object_get(document, "provenance"), "export");
    const char *split = json_string_value(json_object_get(export, "split"));
    json_t *files = json_object_get(export, "files"), *file;
    size_t index;
    int result = EXIT_OK;
    json_array_foreach(files, index, file) {
        const char *name = json_string_value(file);
        if (result == EXIT_OK && name != NULL && entry_of(name, label, split))
            result = set_manifest_add(record, 0, name);
    }
    return result;
}

static int json_listing_add(int directory, const char *name, const char *label,
                            struct set_manifest *record)
{
    int descriptor = listing_open(directory, name);
    if (descriptor < 0)
        return EXIT_OK;
    json_t *document = json_loadfd(descriptor, JSON_REJECT_DUPLICATES, NULL);
    close(descriptor);
    int result = document != NULL ? files_add(document, label, record) : EXIT_OK;
    json_decref(document);
    return result;
}

/* An hdf5-layer list, NAME_SPLIT.txt: the path of one part a line, LABEL.h5 or LABEL_N.h5. */
static int layer_listing_add(int directory, const char *name, const char *label,
                             struct set_manifest *record)
{
    int descriptor = listing_open(directory, name);
    FILE *stream = descriptor >= 0 ? fdopen(descriptor, "r") : NULL;
    if (stream == NULL) {
        if (descriptor >= 0)
            close(descriptor);
        return EXIT_OK;
    }
    char *line = NULL;
    size_t capacity = 0, parts = 0;
    int result = EXIT_OK;
    ssize_t length;
    while (result == EXIT_OK && (length = getline(&line, &capacity, stream)) > 0) {
        line[strcspn(line, "\n")] = '\0';
        const char *slash = strrchr(line, '/'), *part = slash != NULL ? slash + 1 : line;
        size_t size = strlen(part);
        if (size > 3 && strcmp(part + size - 3, ".h5") == 0 && entry_of(part, label, NULL)) {
            result = set_manifest_add(record, 0, part);
            parts++;
        }
    }
    free(line);
    fclose(stream);
    return result == EXIT_OK && parts > 0 ? set_manifest_add(record, 0, name) : result;
}

/* DIR/.LABEL.exported, the record earlier versions kept beside a set, and the record itself. */
static int old_record_add(int directory, const char *label, struct set_manifest *record)
{
    char name[4200];
    snprintf(name, sizeof name, ".%s.exported", label);
    struct set_manifest old;
    bool found;
    int result = set_manifest_read(directory, name, &old, &found);
    for (size_t index = 0; result == EXIT_OK && index < old.count; index++)
        result = set_manifest_add(record, 0, old.entries[index].name);
    if (result == EXIT_OK && found)
        result = set_manifest_add(record, 0, name);
    set_manifest_free(&old);
    return result;
}

int set_listing_read(int directory, const char *label, struct set_manifest *record)
{
    *record = (struct set_manifest){0};
    char name[4200];
    snprintf(name, sizeof name, "%s.provenance.json", label);
    int result = json_listing_add(directory, name, label, record);
    snprintf(name, sizeof name, "%s.json", label);
    if (result == EXIT_OK)
        result = json_listing_add(directory, name, label, record);
    snprintf(name, sizeof name, "%s.txt", label);
    if (result == EXIT_OK)
        result = layer_listing_add(directory, name, label, record);
    if (result == EXIT_OK)
        result = old_record_add(directory, label, record);
    if (result == EXIT_OK)
        result = set_manifest_index(record);
    if (result != EXIT_OK)
        set_manifest_free(record);
    return result;
}
