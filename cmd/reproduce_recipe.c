/* Reads a file's recorded command for fuel-reproduce: the command's own parse, each option's rule
   from its entry in the command's table, and the maker of each kind of file. */
#include "reproduce_recipe.h"

#include "common/base/error.h"
#include "commands.h"
#include "dataset_arguments.h"
#include "fixture_options.h"
#include "usage.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One reader per command whose files fuel-reproduce makes again; what it does with each option of
   the recorded command is the option's own rule (struct command_option's reproduce). */
struct recipe_reader {
    const char *command;
    const struct command_line *line;
    int (*read)(struct reproduce_recipe *recipe, bool allow_extra);
};

static int malformed(const struct reproduce_recipe *recipe, const char *format, ...)
    __attribute__((format(printf, 2, 3)));
static int malformed(const struct reproduce_recipe *recipe, const char *format, ...)
{
    char message[2048];
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(message, sizeof message, format, arguments);
    va_end(arguments);
    return error_set(EXIT_CORRUPT_INPUT, "malformed provenance: %s: %s", recipe->making.file, message);
}

/* The output name as recorded (-r), when the recorded command's table has the option. */
static void output_name_read(struct reproduce_recipe *recipe)
{
    const struct command_run *run = recipe->run;
    const struct command_line *line = run->command->line;
    for (size_t index = 0; index < line->option_count; index++)
        if (line->options[index].long_name != NULL &&
            strcmp(line->options[index].long_name, "output_filename") == 0)
            recipe->making.output_name =
                *(const char *const *)((const char *)run->options + line->options[index].offset);
}

static int conversion_read(struct reproduce_recipe *recipe, bool allow_extra)
{
    const struct command_run *run = recipe->run;
    if (run->dataset->extra != NULL && !allow_extra)
        return error_set(EXIT_CORRUPT_INPUT, "hostile provenance: %s: the recorded command runs "
                         "the extra converter %s (--allow-extra runs it)", recipe->making.file,
                         run->dataset->extra->path);
    if (run->dataset->extra == NULL && dataset_choice_converter(run->dataset) == NULL)
        return malformed(recipe, "the dataset %s has no converter", run->dataset->name);
    recipe->making.kind = run->dataset->extra != NULL ? REPRODUCE_EXTRA : REPRODUCE_CONVERSION;
    recipe->making.record = run->dataset->record;
    recipe->making.dataset_options = run->dataset_options;
    recipe->making.extra = run->dataset->extra;
    output_name_read(recipe);
    if (run->dataset->extra == NULL)
        return EXIT_OK;
    recipe->making.extra_words = calloc(run->parsed->word_count + 1, sizeof(const char *));
    if (recipe->making.extra_words == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    recipe->making.extra_word_count = dataset_extra_words(run->parsed, recipe->making.extra_words);
    return EXIT_OK;
}

/* A cut records its parent as its one input. */
static int cut_read(struct reproduce_recipe *recipe)
{
    json_t *parent = recipe->recorded.first_input;
    recipe->making.parent_name = json_string_value(json_object_get(parent, "name"));
    if (recipe->making.parent_name == NULL)
        return malformed(recipe, "a cut (fixture --from) records its parent as its input");
    recipe->making.cut.shuffle = recipe->fixture.shuffle;
    recipe->making.cut.seed = (uint64_t)recipe->fixture.seed;
    recipe->making.kind = REPRODUCE_CUT;
    fixture_making_of(recipe->run, &recipe->fixture, NULL, &recipe->making.fixture);
    return examples_parse(recipe->run->program, &recipe->fixture.examples, DEFAULT_EXAMPLES,
                          (uint64_t)1 << 53, &recipe->making.cut);
}

static int fixture_read(struct reproduce_recipe *recipe, bool allow_extra)
{
    (void)allow_extra;
    const struct command_run *run = recipe->run;
    recipe->fixture = *(const struct fixture_options *)run->options;
    if (recipe->fixture.shuffle && recipe->fixture.from == NULL)
        return malformed(recipe, "--shuffle without --from");
    if (recipe->fixture.from != NULL && run->parsed->positional_count > 0)
        return malformed(recipe, "--from with a dataset name");
    if (recipe->fixture.from != NULL)
        return cut_read(recipe);
    if (run->dataset->name == NULL)
        return malformed(recipe, "fuel fixture without a dataset or --from");
    recipe->making.kind = REPRODUCE_SYNTHETIC;
    fixture_making_of(run, &recipe->fixture, NULL, &recipe->making.fixture);
    return fixture_synthetic_read(&recipe->making.fixture, &recipe->fixture.examples,
                                  &recipe->making.raw_fixture, &recipe->making.fixture_request);
}

/* A packed file records its spec first among its inputs, under the spec's file name, and the
   spec's text under "pack". */
static int pack_read(struct reproduce_recipe *recipe, bool allow_extra)
{
    (void)allow_extra;
    json_t *provenance = recipe->recorded.provenance;
    json_t *spec = recipe->recorded.first_input;
    recipe->making.spec_name = json_string_value(json_object_get(spec, "name"));
    const char *typed = recipe->run->parsed->positional_count > 0
                            ? recipe->run->parsed->positionals[0]
                            : NULL;
    const char *base = typed != NULL ? strrchr(typed, '/') : NULL;
    base = base != NULL ? base + 1 : typed;
    if (!json_is_string(json_object_get(json_object_get(provenance, "pack"), "spec")) ||
        recipe->making.spec_name == NULL || base == NULL ||
        strcmp(recipe->making.spec_name, base) != 0)
        return malformed(recipe, "a packed file records its spec's text and the spec as its "
                         "first input");
    recipe->making.kind = REPRODUCE_PACK;
    output_name_read(recipe);
    return EXIT_OK;
}

static const struct recipe_reader readers[] = {
    {"convert", &convert_command_line, conversion_read},
    {"fetch", &fetch_command_line, conversion_read},
    {"fixture", &fixture_command_line, fixture_read},
    {"pack", &pack_command_line, pack_read},
};

static const struct recipe_reader *reader_find(const char *command)
{
    for (size_t index = 0; index < sizeof readers / sizeof readers[0]; index++)
        if (strcmp(readers[index].command, command) == 0)
            return &readers[index];
    return NULL;
}

bool reproduce_recipe_reads(const struct command_line *line)
{
    for (size_t index = 0; index < sizeof readers / sizeof readers[0]; index++)
        if (readers[index].line == line)
            return true;
    return false;
}

/* A name publish_file_name keeps in the output directory. */
static bool plain_name(const char *name)
{
    return name != NULL && name[0] != '\0' && strchr(name, '/') == NULL &&
           strcmp(name, ".") != 0 && strcmp(name, "..") != 0;
}

/* Every option of the recorded command's own table against its rule. */
static int options_check(const struct reproduce_recipe *recipe,
                         const struct recipe_reader *reader)
{
    const struct command_run *run = recipe->run;
    const struct dataset *record = run->dataset != NULL ? run->dataset->record : NULL;
    struct option_tables tables;
    struct tokenizer tokenizer;
    struct token token;
    int offset = recipe->recorded.offset + 1;
    command_tables(run->command->line, record, NULL, NULL, &tables);
    tokenizer_start(&tokenizer, &tables, run->dataset != NULL && run->dataset->extra != NULL,
                    recipe->recorded.argc - offset, recipe->recorded.argv + offset);
    while (tokenizer_next(&tokenizer, &token)) {
        if (token.kind != TOKEN_OPTION || token.table != &tables.tables[0])
            continue;
        enum reproduce_rule rule = token.option->reproduce;
        if (rule == REPRODUCE_UNDECLARED)
            return error_set(EXIT_CORRUPT_INPUT, "cannot reproduce: %s: the recorded option %s "
                             "is unknown to fuel-reproduce", recipe->making.file, token.name);
        if (rule == REPRODUCE_REFUSED)
            return malformed(recipe, "fuel %s %s makes no HDF5 file", reader->command,
                             token.name);
        if (rule == REPRODUCE_FILE_NAME && !plain_name(token.value))
            return error_set(EXIT_CORRUPT_INPUT, "hostile provenance: %s: %s %s would write "
                             "outside the output directory", recipe->making.file, token.name,
                             token.value != NULL ? token.value : "");
    }
    return EXIT_OK;
}

/* The command a reader knows, or why there is none. */
static int command_choose(const struct reproduce_recipe *recipe,
                          const struct recipe_reader **reader)
{
    const struct recorded_command *recorded = &recipe->recorded;
    if (recorded->name[0] == '\0')
        return malformed(recipe, "the recorded command is not fuel's: %s", recorded->argv[0]);
    if (recorded->command == NULL)
        return malformed(recipe, "unknown command: fuel %s", recorded->name);
    *reader = reader_find(recorded->name);
    if (*reader == NULL)
        return error_set(EXIT_CORRUPT_INPUT, "cannot reproduce: %s: fuel-reproduce makes no "
                         "files of fuel %s", recipe->making.file, recorded->name);
    return EXIT_OK;
}

/* The recorded command parsed, checked and read, its usage errors recorded, not printed. */
static int command_read(struct reproduce_recipe *recipe, const struct recipe_reader *reader,
                        bool allow_extra)
{
    struct recorded_command *recorded = &recipe->recorded;
    usage_errors_record(true);
    int result = command_invocation_parse(recorded->command, recorded->argc - recorded->offset,
                                          recorded->argv + recorded->offset, &recipe->typed,
                                          &recipe->invocation);
    if (result == EXIT_OK && command_invocation_help(recipe->invocation))
        result = error_set(EXIT_USAGE, "-h asks for help");
    if (result == EXIT_OK) {
        recipe->run = command_invocation_run(recipe->invocation);
        result = options_check(recipe, reader);
    }
    if (result == EXIT_OK)
        result = reader->read(recipe, allow_extra);
    usage_errors_record(false);
    if (result != EXIT_USAGE)
        return result;
    char message[2048];
    snprintf(message, sizeof message, "%s", error_message());
    return malformed(recipe, "the recorded command does not parse: %s", message);
}

int reproduce_recipe_read(const char *file, const char *provenance, bool allow_extra,
                          struct reproduce_recipe *recipe)
{
    *recipe = (struct reproduce_recipe){.making.file = file};
    int result = recorded_command_read(provenance, &recipe->recorded);
    recipe->making.provenance = recipe->recorded.provenance;
    recipe->making.provenance_text = provenance;
    recipe->making.typed = &recipe->typed;
    if (result != EXIT_OK) {
        char message[2048];
        snprintf(message, sizeof message, "%s", error_message());
        return malformed(recipe, "%s", message);
    }
    recipe->typed = (struct typed_command){recipe->recorded.argc, recipe->recorded.argv};
    const struct recipe_reader *reader = NULL;
    result = command_choose(recipe, &reader);
    if (result == EXIT_OK)
        result = command_read(recipe, reader, allow_extra);
    return result;
}

/* The maker's progress line (reproduce_makers.h's drawing), labelled like fuel-convert's. */
static void drawing_begin(void *context, const struct dataset *dataset,
                          const struct stage_listener **listener)
{
    struct reproduce_recipe *recipe = context;
    stage_progress_begin(&recipe->drawn, recipe->quiet, listener);
    if (*listener != NULL && dataset != NULL)
        snprintf(recipe->drawn.prefix, sizeof recipe->drawn.prefix, "%s%s%s: ", dataset->name,
                 dataset->variant ? " " : "", dataset->variant ? dataset->variant : "");
}

static void drawing_end(void *context)
{
    struct reproduce_recipe *recipe = context;
    stage_progress_end(&recipe->drawn);
}

void reproduce_recipe_request(struct reproduce_recipe *recipe, struct reproduce_request *request)
{
    recipe->making.drawing = (struct reproduce_drawing){drawing_begin, drawing_end, recipe};
    reproduce_making_request(&recipe->making, request);
}

void reproduce_recipe_free(struct reproduce_recipe *recipe)
{
    free(recipe->making.extra_words);
    command_invocation_free(recipe->invocation);
    recorded_command_free(&recipe->recorded);
    *recipe = (struct reproduce_recipe){0};
}
