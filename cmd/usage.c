/* The one-line usage error every command prints, and the option lists of -h, generated from the
   option tables (the usage line: usage_line.c). */
#include "usage.h"

#include "common/base/error.h"

#include <stdarg.h>
#include <string.h>

static bool recording;

void usage_errors_record(bool record)
{
    recording = record;
}

/* "PROGRAM: MESSAGE; ENDING" on stderr, or MESSAGE recorded with error_set while recording. */
static int usage_report(const char *program, const char *ending, const char *format,
                        va_list arguments)
{
    char message[2048];
    vsnprintf(message, sizeof message, format, arguments);
    if (recording)
        return error_set(EXIT_USAGE, "%s", message);
    if (ending[0] != '\0')
        fprintf(stderr, "%s: %s; %s\n", program, message, ending);
    else
        fprintf(stderr, "%s: %s; see '%s -h'\n", program, message, program);
    return EXIT_USAGE;
}

int usage_error(const char *program, const char *format, ...)
{
    va_list arguments;
    va_start(arguments, format);
    int result = usage_report(program, "", format, arguments);
    va_end(arguments);
    return result;
}

int usage_error_ending(const char *program, const char *ending, const char *format, ...)
{
    va_list arguments;
    va_start(arguments, format);
    int result = usage_report(program, ending, format, arguments);
    va_end(arguments);
    return result;
}

void usage_value_name(const struct command_option *option, char *text, size_t size)
{
    if (option->argument != NULL || option->choices == NULL) {
        snprintf(text, size, "%s", option->argument != NULL ? option->argument : "");
        return;
    }
    size_t used = (size_t)snprintf(text, size, "{");
    for (const char *word = option->choices; *word != '\0' && used < size;) {
        size_t length = strcspn(word, " ");
        used += (size_t)snprintf(text + used, size - used, "%s%.*s", used > 1 ? "," : "",
                                 (int)length, word);
        word += length;
        word += strspn(word, " ");
    }
    if (used < size)
        snprintf(text + used, size - used, "}");
}

/* "-d, --directory DIR" */
static void option_synopsis(const struct command_option *option, char *text, size_t size)
{
    char value[128];
    int used = 0;
    usage_value_name(option, value, sizeof value);
    if (option->short_name != 0)
        used = snprintf(text, size, "-%c%s", option->short_name, option->long_name ? ", " : "");
    if (option->long_name != NULL)
        used += snprintf(text + used, size - (size_t)used, "--%s", option->long_name);
    if (value[0] != '\0')
        snprintf(text + used, size - (size_t)used, " %s", value);
}

/* HELP from column 29, words carried to a new line past column 100. */
static void help_print(FILE *stream, const char *help)
{
    enum { COLUMN = 29, WIDTH = 100 };
    size_t used = COLUMN;
    for (const char *word = help; *word != '\0';) {
        size_t length = strcspn(word, " ");
        if (word != help && used + 1 + length > WIDTH) {
            fprintf(stream, "\n%*s", COLUMN, "");
            used = COLUMN;
        } else if (word != help) {
            fputc(' ', stream);
            used++;
        }
        fprintf(stream, "%.*s", (int)length, word);
        used += length;
        word += length;
        word += strspn(word, " ");
    }
    fputc('\n', stream);
}

void usage_print_options(FILE *stream, const char *title, const struct command_option *options,
                         size_t count, bool with_help)
{
    fprintf(stream, "%s:\n", title);
    for (size_t index = 0; index < count; index++) {
        char synopsis[192];
        option_synopsis(&options[index], synopsis, sizeof synopsis);
        if (strlen(synopsis) <= 26)
            fprintf(stream, "  %-26s ", synopsis);
        else
            fprintf(stream, "  %s\n  %-26s ", synopsis, "");
        help_print(stream, options[index].help);
    }
    if (with_help)
        fprintf(stream, "  %-26s %s\n", "-h, --help", "show this help and exit");
}
