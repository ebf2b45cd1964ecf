/* Reads a JSON manifest of extra datasets into dataset records, rejecting anything malformed
   with the file and the JSON path of the offending value. */
#include "manifest.h"

#include "common/base/dataset_name.h"
#include "common/base/error.h"

#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A manifest is a few kilobytes; this bounds what a hostile one can make us parse. */
enum { MANIFEST_MAX_BYTES = 16 << 20, FILE_NAME_MAX_LENGTH = 255 };

/* Where the parser stands: the file and the JSON path of the value being read. */
struct location {
    const char *file;
    char path[1024];
};

static int malformed(const struct location *location, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

static int malformed(const struct location *location, const char *format, ...)
{
    char why[256];
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(why, sizeof why, format, arguments);
    va_end(arguments);
    return error_set(EXIT_USAGE, "malformed manifest: %s: %s: %s", location->file, location->path,
                     why);
}

/* LOCATION's path followed by FORMAT; a path too long for the buffer is cut. */
static struct location extended(const struct location *location, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

static struct location extended(const struct location *location, const char *format, ...)
{
    struct location inner = *location;
    size_t used = strlen(inner.path);
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(inner.path + used, sizeof inner.path - used, format, arguments);
    va_end(arguments);
    return inner;
}

/* LOCATION's path followed by ".KEY" or "[INDEX]". */
static struct location member(const struct location *location, const char *key)
{
    return extended(location, ".%s", key);
}

static struct location element(const struct location *location, size_t index)
{
    return extended(location, "[%zu]", index);
}

/* Every key of OBJECT is one of ALLOWED (NULL-terminated). */
static int only_keys(const struct location *location, json_t *object, const char *const *allowed)
{
    const char *key;
    json_t *value;
    json_object_foreach(object, key, value) {
        size_t index = 0;
        while (allowed[index] != NULL && strcmp(allowed[index], key) != 0)
            index++;
        if (allowed[index] == NULL) {
            struct location inner = member(location, key);
            return malformed(&inner, "unknown key");
        }
    }
    return EXIT_OK;
}

/* A file name written inside the target directory: no '/', no control character, not . or .. */
static bool valid_file_name(const char *name)
{
    size_t length = strlen(name);
    if (length == 0 || length > FILE_NAME_MAX_LENGTH || strcmp(name, ".") == 0 ||
        strcmp(name, "..") == 0)
        return false;
    for (size_t index = 0; index < length; index++)
        if (name[index] == '/' || iscntrl((unsigned char)name[index]))
            return false;
    return true;
}

static bool valid_url(const char *url)
{
    static const char *const schemes[] = {"http://", "https://"};
    for (size_t index = 0; index < sizeof schemes / sizeof schemes[0]; index++)
        if (strncmp(url, schemes[index], strlen(schemes[index])) == 0)
            return url[strlen(schemes[index])] != '\0';
    return false;
}

static bool valid_hex(const char *text, size_t length)
{
    if (strlen(text) != length)
        return false;
    for (size_t index = 0; index < length; index++)
        if (!isxdigit((unsigned char)text[index]))
            return false;
    return true;
}

static int read_string(const struct location *location, json_t *value, const char **text)
{
    if (!json_is_string(value))
        return malformed(location, "expected a string");
    if (strlen(json_string_value(value)) != json_string_length(value))
        return malformed(location, "a string holds a NUL character");
    *text = json_string_value(value);
    return EXIT_OK;
}

static int read_urls(const struct location *location, json_t *value, struct dataset_file *file)
{
    if (!json_is_array(value) || json_array_size(value) == 0)
        return malformed(location, "expected a non-empty array of URLs");
    if (json_array_size(value) > DATASET_MAX_URLS)
        return malformed(location, "at most %d URLs", DATASET_MAX_URLS);
    for (size_t index = 0; index < json_array_size(value); index++) {
        struct location inner = element(location, index);
        int result = read_string(&inner, json_array_get(value, index), &file->urls[index]);
        if (result != EXIT_OK)
            return result;
        if (!valid_url(file->urls[index]))
            return malformed(&inner, "expected an http:// or https:// URL");
    }
    return EXIT_OK;
}

static int read_size(const struct location *location, json_t *value, uint64_t *size)
{
    if (!json_is_integer(value) || json_integer_value(value) <= 0)
        return malformed(location, "expected a size in bytes, a whole number above 0");
    *size = (uint64_t)json_integer_value(value);
    return EXIT_OK;
}

static int read_checksum(const struct location *location, json_t *value, size_t digits,
                         const char **checksum)
{
    if (value == NULL)
        return EXIT_OK;
    int result = read_string(location, value, checksum);
    if (result == EXIT_OK && !valid_hex(*checksum, digits))
        return malformed(location, "expected %zu hexadecimal digits", digits);
    return result;
}

/* One entry of "files". With both checksums the sha256 is the one verified. */
static int read_file(const struct location *location, json_t *value, struct dataset_file *file)
{
    static const char *const keys[] = {"name", "urls", "size", "md5", "sha256", NULL};
    if (!json_is_object(value))
        return malformed(location, "expected an object with name and urls");
    int result = only_keys(location, value, keys);
    struct location name = member(location, "name"), urls = member(location, "urls");
    if (result == EXIT_OK && json_object_get(value, "name") == NULL)
        return malformed(&name, "missing");
    if (result == EXIT_OK)
        result = read_string(&name, json_object_get(value, "name"), &file->name);
    if (result == EXIT_OK && !valid_file_name(file->name))
        return malformed(&name, "expected a file name without '/'");
    if (result == EXIT_OK && json_object_get(value, "urls") == NULL)
        return malformed(&urls, "missing");
    if (result == EXIT_OK)
        result = read_urls(&urls, json_object_get(value, "urls"), file);
    struct location size = member(location, "size"), md5 = member(location, "md5"),
                    sha256 = member(location, "sha256");
    if (result == EXIT_OK && json_object_get(value, "size") != NULL)
        result = read_size(&size, json_object_get(value, "size"), &file->size);
    if (result == EXIT_OK)
        result = read_checksum(&md5, json_object_get(value, "md5"), 32, &file->checksum);
    if (result == EXIT_OK)
        result = read_checksum(&sha256, json_object_get(value, "sha256"), 64, &file->checksum);
    return result;
}

static int read_files(const struct location *location, json_t *value, struct dataset *dataset)
{
    if (value == NULL)
        return malformed(location, "missing");
    if (!json_is_array(value) || json_array_size(value) == 0)
        return malformed(location, "expected a non-empty array of files");
    size_t count = json_array_size(value);
    struct dataset_file *files = calloc(count, sizeof *files);
    if (files == NULL)
        return error_set(EXIT_OTHER, "cannot read manifest: %s: out of memory", location->file);
    dataset->files = files;
    dataset->file_count = count;
    for (size_t index = 0; index < count; index++) {
        struct location inner = element(location, index);
        int result = read_file(&inner, json_array_get(value, index), &files[index]);
        for (size_t earlier = 0; result == EXIT_OK && earlier < index; earlier++)
            if (strcmp(files[earlier].name, files[index].name) == 0) {
                struct location name = member(&inner, "name");
                return malformed(&name, "%s is listed twice", files[index].name);
            }
        if (result != EXIT_OK)
            return result;
    }
    return EXIT_OK;
}

static int read_summary(const struct location *location, json_t *object, const char **summary)
{
    json_t *value = json_object_get(object, "summary");
    struct location inner = member(location, "summary");
    *summary = "";
    return value == NULL ? EXIT_OK : read_string(&inner, value, summary);
}

/* A dataset with "formats": one record per format, the format's summary or the dataset's. */
static int read_formats(struct manifest *manifest, const struct location *location,
                        const char *name, const char *summary, json_t *formats)
{
    static const char *const keys[] = {"summary", "files", NULL};
    if (!json_is_object(formats) || json_object_size(formats) == 0)
        return malformed(location, "expected an object of formats, each with files");
    const char *variant;
    json_t *value;
    json_object_foreach(formats, variant, value) {
        struct location inner = member(location, variant), files = member(&inner, "files");
        if (!dataset_name_valid(variant))
            return malformed(&inner, "a format name is letters, digits, '_', '.' or '-'");
        if (!json_is_object(value))
            return malformed(&inner, "expected an object with files");
        struct dataset *dataset = &manifest->datasets[manifest->dataset_count++];
        *dataset = (struct dataset){.name = name, .variant = variant,
                                          .manifest = manifest->path};
        int result = only_keys(&inner, value, keys);
        if (result == EXIT_OK)
            result = read_summary(&inner, value, &dataset->summary);
        if (result == EXIT_OK && dataset->summary[0] == '\0')
            dataset->summary = summary;
        if (result == EXIT_OK)
            result = read_files(&files, json_object_get(value, "files"), dataset);
        if (result != EXIT_OK)
            return result;
    }
    return EXIT_OK;
}

static int read_dataset(struct manifest *manifest, const struct location *location,
                        const char *name, json_t *value)
{
    static const char *const keys[] = {"summary", "files", "formats", NULL};
    if (!dataset_name_valid(name))
        return malformed(location, "a dataset name is letters, digits, '_', '.' or '-'");
    if (!json_is_object(value))
        return malformed(location, "expected an object with files or formats");
    const char *summary;
    int result = only_keys(location, value, keys);
    if (result == EXIT_OK)
        result = read_summary(location, value, &summary);
    if (result != EXIT_OK)
        return result;
    json_t *files = json_object_get(value, "files"), *formats = json_object_get(value, "formats");
    struct location inner = member(location, formats != NULL ? "formats" : "files");
    if (files != NULL && formats != NULL)
        return malformed(location, "files and formats are exclusive");
    if (formats != NULL)
        return read_formats(manifest, &inner, name, summary, formats);
    struct dataset *dataset = &manifest->datasets[manifest->dataset_count++];
    *dataset = (struct dataset){.name = name, .summary = summary, .manifest = manifest->path};
    return read_files(&inner, files, dataset);
}

/* Room for one record per dataset, or per format of a dataset with formats. */
static size_t dataset_capacity(json_t *datasets)
{
    size_t count = 0;
    const char *name;
    json_t *value;
    json_object_foreach(datasets, name, value) {
        json_t *formats = json_object_get(value, "formats");
        count += json_is_object(formats) ? json_object_size(formats) : 1;
    }
    return count;
}

static int read_datasets(struct manifest *manifest, json_t *root)
{
    static const char *const keys[] = {"datasets", NULL};
    struct location location = {.file = manifest->path, .path = "$"};
    if (!json_is_object(root))
        return malformed(&location, "expected an object with datasets");
    int result = only_keys(&location, root, keys);
    struct location datasets_location = member(&location, "datasets");
    json_t *datasets = json_object_get(root, "datasets");
    if (result == EXIT_OK && (!json_is_object(datasets) || json_object_size(datasets) == 0))
        return malformed(&datasets_location, "expected an object naming at least one dataset");
    if (result != EXIT_OK)
        return result;
    manifest->datasets = calloc(dataset_capacity(datasets), sizeof *manifest->datasets);
    if (manifest->datasets == NULL)
        return error_set(EXIT_OTHER, "cannot read manifest: %s: out of memory", manifest->path);
    const char *name;
    json_t *value;
    json_object_foreach(datasets, name, value) {
        struct location inner = member(&datasets_location, name);
        result = read_dataset(manifest, &inner, name, value);
        if (result != EXIT_OK)
            return result;
    }
    return EXIT_OK;
}

static int parse_file(struct manifest *manifest, json_t **root)
{
    struct stat status;
    if (stat(manifest->path, &status) != 0)
        return error_set(EXIT_USAGE, "cannot read manifest: %s: %s", manifest->path,
                         strerror(errno));
    if (!S_ISREG(status.st_mode) || status.st_size > MANIFEST_MAX_BYTES)
        return error_set(EXIT_USAGE, "cannot read manifest: %s: not a JSON file of at most 16 MiB",
                         manifest->path);
    json_error_t problem;
    *root = json_load_file(manifest->path, JSON_REJECT_DUPLICATES, &problem);
    if (*root == NULL && problem.line < 0)
        return error_set(EXIT_USAGE, "cannot read manifest: %s: %s", manifest->path, problem.text);
    if (*root == NULL)
        return error_set(EXIT_USAGE, "malformed manifest: %s: line %d, column %d: %s",
                         manifest->path, problem.line, problem.column, problem.text);
    return EXIT_OK;
}

int manifest_load(struct manifest *manifest, const char *path)
{
    *manifest = (struct manifest){.path = strdup(path)};
    if (manifest->path == NULL)
        return error_set(EXIT_OTHER, "cannot read manifest: %s: out of memory", path);
    json_t *root = NULL;
    int result = parse_file(manifest, &root);
    manifest->json = root;
    if (result == EXIT_OK)
        result = read_datasets(manifest, root);
    if (result != EXIT_OK)
        manifest_free(manifest);
    return result;
}

void manifest_free(struct manifest *manifest)
{
    for (size_t index = 0; manifest->datasets != NULL && index < manifest->dataset_count;
         index++)
        free((void *)manifest->datasets[index].files);
    free(manifest->datasets);
    json_decref(manifest->json);
    free(manifest->path);
    *manifest = (struct manifest){0};
}
