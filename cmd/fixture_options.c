/* Parses fuel-fixture's -n ("10", "train=5,test=2", or several -n options; each count once) and
   hands its options to the making (fixtures/fixture_make.h). */
#include "fixture_options.h"

#include "common/base/error.h"
#include "dataset_arguments.h"
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

static int named_once(const char *program, const struct cut_request *request, const char *split,
                      const char *count)
{
    for (size_t index = 0; index < request->named_count; index++)
        if (strcmp(request->split_names[index], split) == 0)
            return usage_error(program, "invalid -n: %s=%s: %s is given twice (%s=%llu first)",
                               split, count, split, split,
                               (unsigned long long)request->split_examples[index]);
    return EXIT_OK;
}

/* One comma-separated item: N (once: the count of every split not named), or SPLIT=N (once per
   split). *BARE says whether an N came before. */
static int item_parse(const char *program, char *item, uint64_t maximum,
                      struct cut_request *request, bool *bare)
{
    char *equals = strchr(item, '=');
    if (equals == NULL && *bare)
        return usage_error(program, "invalid -n: %s after %llu: N, the count of every split, is "
                           "given once; set one split with SPLIT=N", item,
                           (unsigned long long)request->examples);
    if (equals == NULL) {
        *bare = true;
        return count_parse(program, item, maximum, &request->examples);
    }
    *equals = '\0';
    if (item[0] == '\0')
        return usage_error(program, "invalid -n: =%s: a split name must come before =", equals + 1);
    size_t named = request->named_count;
    if (named == CUT_MAX_SPLITS)
        return usage_error(program, "invalid -n: more than %d splits", CUT_MAX_SPLITS);
    int result = named_once(program, request, item, equals + 1);
    if (result != EXIT_OK)
        return result;
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
    bool bare = false;
    for (size_t index = 0; index < list->count; index++) {
        if (strlen(list->items[index]) >= sizeof copies[index])
            return usage_error(program, "invalid -n: %.40s...: too long", list->items[index]);
        strcpy(copies[index], list->items[index]);
        char *saved = NULL;
        for (char *item = strtok_r(copies[index], ",", &saved); item != NULL;
             item = strtok_r(NULL, ",", &saved)) {
            int result = item_parse(program, item, maximum, request, &bare);
            if (result != EXIT_OK)
                return result;
        }
    }
    return EXIT_OK;
}

void fixture_making_of(const struct command_run *run, const struct fixture_options *chosen,
                       const char *program, struct fixture_making *making)
{
    *making = (struct fixture_making){
        .program = program,
        .record = run->dataset != NULL ? run->dataset->record : NULL,
        .dataset_options = run->dataset_options,
        .typed = run->typed,
        .output_directory = chosen->output_directory,
        .output_filename = chosen->output_filename,
        .from = chosen->from,
        .seed = chosen->seed,
        .shuffle = chosen->shuffle,
        .quirks = chosen->quirks,
    };
}

int fixture_synthetic_read(const struct fixture_making *making, const struct option_list *examples,
                           const struct raw_fixture **fixture, struct fixture_request *request)
{
    const char *program = making->program != NULL ? making->program : "fuel-fixture";
    struct cut_request counts = {0};
    int result = fixture_synthetic_choose(making, fixture);
    /* A default of 0 tells a count not given from one given. */
    if (result == EXIT_OK)
        result = examples_parse(program, examples, 0, FIXTURE_MAX_EXAMPLES, &counts);
    if (result == EXIT_OK)
        result = fixture_synthetic_plan(making, *fixture, &counts, request);
    return result;
}
