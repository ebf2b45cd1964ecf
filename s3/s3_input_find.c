/* Copies the candidates of a recorded input from s3:// prefixes and asks input_find of each copy's
   folder whether its bytes are the recorded ones. */
#include "s3_input_find.h"

#include "common/base/config.h"
#include "common/base/error.h"
#include "s3/s3_cache.h"
#include "s3/s3_data_path.h"

#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Copies PREFIX/NAME and checks it against WANTED: SEARCH FOUND when its bytes match. */
static int candidate_check(const struct input_wanted *wanted, const char *prefix,
                           const char *name, const char *local_directory,
                           struct input_search *search)
{
    char url[PATH_MAX], copy[PATH_MAX], folder[PATH_MAX];
    bool copied;
    size_t length = strlen(prefix);
    snprintf(url, sizeof url, "%s%s%s", prefix, length > 0 && prefix[length - 1] == '/' ? "" : "/",
             name);
    int code = s3_cache(url, local_directory, PROGRESS_QUIET, copy, sizeof copy, &copied);
    if (code != EXIT_OK)
        return code;
    snprintf(folder, sizeof folder, "%s", copy);
    const char *directories[] = {dirname(folder)};
    struct input_wanted named = {.name = name, .size = wanted->size, .sha256 = wanted->sha256};
    struct input_search found;
    code = input_find(&named, directories, 1, &found);
    if (code == EXIT_OK && found.state == INPUT_SEARCH_FOUND)
        *search = found;
    return code;
}

/* In one prefix: the object of WANTED's name, then others of its size. */
static int prefix_search(const struct input_wanted *wanted, const char *prefix,
                         const char *local_directory, struct input_search *search)
{
    const struct s3_listed *objects;
    size_t count;
    int code = s3_prefix_list(prefix, &objects, &count);
    const char *slash = strrchr(wanted->name, '/');
    const char *name = slash != NULL ? slash + 1 : wanted->name;
    for (size_t index = 0; code == EXIT_OK && index < count; index++)
        if (strcmp(objects[index].name, name) == 0 && objects[index].size == wanted->size)
            code = candidate_check(wanted, prefix, name, local_directory, search);
    size_t tried = 0;
    for (size_t index = 0; code == EXIT_OK && search->state != INPUT_SEARCH_FOUND &&
                           index < count && tried < S3_INPUT_CANDIDATES; index++)
        if (objects[index].size == wanted->size && strcmp(objects[index].name, name) != 0) {
            tried++;
            code = candidate_check(wanted, prefix, objects[index].name, local_directory, search);
        }
    return code;
}

int s3_input_find(const struct input_wanted *wanted, const char *const *prefixes, size_t count,
                  const char *local_directory, struct input_search *search)
{
    memset(search, 0, sizeof *search);
    search->state = INPUT_SEARCH_NOT_FOUND;
    int code = EXIT_OK;
    for (size_t index = 0; code == EXIT_OK && search->state != INPUT_SEARCH_FOUND &&
                           index < count; index++)
        if (data_path_entry_is_store(prefixes[index]))
            code = prefix_search(wanted, prefixes[index], local_directory, search);
    return code;
}
