/* Writes -h's usage line from the command's option table and positionals (see usage_line.h). */
#include "usage_line.h"

#include "usage.h"

#include <string.h>

/* Lines carried on past this column continue under the first item, below "usage: ". */
enum { USAGE_WIDTH = 132 };

struct usage_text {
    char *text;
    size_t size, used;
    size_t column;       /* of the end of the text */
    bool line_has_items; /* one item at least on the current line */
};

static void text_append(struct usage_text *usage, const char *piece)
{
    if (usage->used + 1 >= usage->size)
        return;
    int written = snprintf(usage->text + usage->used, usage->size - usage->used, "%s", piece);
    size_t length = (size_t)written;
    usage->used = usage->used + length < usage->size ? usage->used + length : usage->size - 1;
    const char *line_break = strrchr(piece, '\n');
    usage->column = line_break != NULL ? strlen(line_break + 1) : usage->column + length;
}

/* " ITEM", or ITEM on a new line when it would pass the width. */
static void item_add(struct usage_text *usage, const char *item)
{
    if (usage->line_has_items && usage->column + 1 + strlen(item) > USAGE_WIDTH)
        text_append(usage, "\n       ");
    else
        text_append(usage, " ");
    text_append(usage, item);
    usage->line_has_items = true;
}

/* "-d DIR", or "--url-prefix PREFIX" for an option without a short name or named long. */
static void synopsis(const struct command_option *option, char *text, size_t size)
{
    char value[128];
    usage_value_name(option, value, sizeof value);
    int used = option->short_name != 0 && !option->usage_long_name
                   ? snprintf(text, size, "-%c", option->short_name)
                   : snprintf(text, size, "--%s", option->long_name);
    if (value[0] != '\0' && (size_t)used < size)
        snprintf(text + used, size - (size_t)used, " %s", value);
}

static bool in_form(const struct command_option *option, bool second_form)
{
    if (second_form)
        return option->usage_form == USAGE_BOTH_FORMS || option->usage_form == USAGE_SECOND_FORM;
    return option->usage_form == USAGE_BOTH_FORMS || option->usage_form == USAGE_FIRST_FORM;
}

/* OPTIONS[INDEX] with the entries inside it or beside it that follow: "[--a N | -x K]". */
static void option_item(const struct command_option *options, size_t count, size_t index,
                        char *item, size_t size)
{
    const struct command_option *option = &options[index];
    char shown[192];
    synopsis(option, shown, sizeof shown);
    size_t used = (size_t)snprintf(item, size, "%s%s", option->required ? "" : "[", shown);
    for (size_t next = index + 1; next < count && used < size; next++) {
        const struct command_option *follower = &options[next];
        if (follower->usage != USAGE_INSIDE && follower->usage != USAGE_EITHER)
            break;
        synopsis(follower, shown, sizeof shown);
        if (follower->usage == USAGE_EITHER)
            used += (size_t)snprintf(item + used, size - used, " | %s", shown);
        else
            used += (size_t)snprintf(item + used, size - used, " [%s]%s", shown,
                                     follower->kind == OPTION_LIST ? "..." : "");
    }
    if (used < size)
        snprintf(item + used, size - used, "%s%s", option->required ? "" : "]",
                 option->kind == OPTION_LIST ? "..." : "");
}

/* Each shown option of the form, then "[options]" when some are listed below only. */
static void options_add(struct usage_text *usage, const struct command_option *options,
                        size_t count, bool second_form)
{
    bool folded = false;
    for (size_t index = 0; index < count; index++) {
        const struct command_option *option = &options[index];
        if (!in_form(option, second_form))
            continue;
        if (option->usage == USAGE_OPTIONS)
            folded = true;
        if (option->usage != USAGE_SHOWN)
            continue;
        char item[512];
        option_item(options, count, index, item, sizeof item);
        item_add(usage, item);
    }
    if (folded)
        item_add(usage, "[options]");
}

/* The positionals: as the line spells them, else its choices as "bash|zsh". */
static void positionals_add(struct usage_text *usage, const struct command_line *line)
{
    if (line->positional_usage != NULL) {
        item_add(usage, line->positional_usage);
        return;
    }
    if (line->positional_choices == NULL)
        return;
    char choices[256];
    snprintf(choices, sizeof choices, "%s", line->positional_choices);
    for (char *space = strchr(choices, ' '); space != NULL; space = strchr(space, ' '))
        *space = '|';
    item_add(usage, choices);
}

/* What the dataset given, or none, adds after the command's options. */
static void dataset_options_add(struct usage_text *usage, const struct command_line *line,
                                const struct usage_dataset *dataset)
{
    if (!line->dataset_options)
        return;
    if (dataset == NULL)
        item_add(usage, "[DATASET OPTIONS]");
    else if (dataset->extra)
        item_add(usage, "[ARGUMENTS]");
    else
        options_add(usage, dataset->options, dataset->option_count, false);
}

/* "       PROGRAM --from FILE ...": the second form, when the table has one. */
static void second_form_add(struct usage_text *usage, const char *program,
                            const struct command_line *line)
{
    for (size_t index = 0; index < line->option_count; index++) {
        const struct command_option *head = &line->options[index];
        if (head->usage_form != USAGE_SECOND_FORM_HEAD)
            continue;
        char item[512];
        synopsis(head, item, sizeof item);
        text_append(usage, "\n       ");
        text_append(usage, program);
        usage->line_has_items = false;
        item_add(usage, item);
        options_add(usage, line->options, line->option_count, true);
        return;
    }
}

size_t usage_line_format(char *text, size_t size, const char *program,
                         const struct command_line *line, const struct usage_dataset *dataset)
{
    struct usage_text usage = {.text = text, .size = size};
    text[0] = '\0';
    text_append(&usage, "usage: ");
    text_append(&usage, program);
    if (line->verbatim) {
        positionals_add(&usage, line);
        return usage.used;
    }
    bool takes_dataset = line->dataset != DATASET_NONE;
    if (dataset == NULL)
        item_add(&usage, "[-h]");
    if (takes_dataset && dataset != NULL)
        item_add(&usage, dataset->label);
    else if (takes_dataset || line->positionals_first)
        positionals_add(&usage, line);
    options_add(&usage, line->options, line->option_count, false);
    dataset_options_add(&usage, line, dataset);
    if (!takes_dataset && !line->positionals_first)
        positionals_add(&usage, line);
    if (dataset == NULL)
        second_form_add(&usage, program, line);
    return usage.used;
}

void usage_line_print(FILE *stream, const char *program, const struct command_line *line,
                      const struct usage_dataset *dataset)
{
    char text[4096];
    usage_line_format(text, sizeof text, program, line, dataset);
    fprintf(stream, "%s\n", text);
}
