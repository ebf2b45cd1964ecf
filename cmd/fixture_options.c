/* Parses fuel-fixture's -n: "10", "train=5,test=2", or several -n options. */
#include "fixture_options.h"

#include "common/base/error.h"
#include "usage.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int count_parse(const char *program, const char *text, uint64_t maximum, uint64_t *count)
{
    char *end;
    errno = 0;
    unsigned long long value = strtoull(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || text[0] == '-' || value < 1 ||
        value > maximum)
        return usage_error(program, "invalid -n: %s: expected a whole number from 1 to %llu",
                           text, (unsigned long long)maximum);
    *count = value;
    return EXIT_OK;
}

/* One comma-separated item: N, or SPLIT=N. */
static int item_parse(const char *program, char *item, uint64_t maximum,
                      struct cut_request *request)
{
    char *equals = strchr(item, '=');
    if (equals == NULL)
        return count_parse(program, item, maximum, &request->examples);
    *equals = '\0';
    if (item[0] == '\0')
        return usage_error(program, "invalid -n: =%s: a split name must come before =", equals + 1);
    size_t named = request->named_count;
    if (named == CUT_MAX_SPLITS)
        return usage_error(program, "invalid -n: more than %d splits", CUT_MAX_SPLITS);
    request->split_names[named] = item;
    request->named_count++;
    return count_parse(program, equals + 1, maximum, &request->split_examples[named]);
}

int examples_parse(const char *program, const struct option_list *list, uint64_t default_examples,
                   uint64_t maximum, struct cut_request *request)
{
    /* The split names point into these copies, which live as long as the process. */
    static char copies[OPTION_LIST_MAX][256];
    request->examples = default_examples;
    request->named_count = 0;
    for (size_t index = 0; index < list->count; index++) {
        if (strlen(list->items[index]) >= sizeof copies[index])
            return usage_error(program, "invalid -n: %.40s...: too long", list->items[index]);
        strcpy(copies[index], list->items[index]);
        char *saved = NULL;
        for (char *item = strtok_r(copies[index], ",", &saved); item != NULL;
             item = strtok_r(NULL, ",", &saved)) {
            int result = item_parse(program, item, maximum, request);
            if (result != EXIT_OK)
                return result;
        }
    }
    return EXIT_OK;
}
