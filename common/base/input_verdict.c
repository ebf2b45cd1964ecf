/* The verdict on a dataset's inputs and its sentence (see input_verdict.h). */
#include "input_verdict.h"

#include <stdbool.h>
#include <stdlib.h>

enum input_verdict input_verdict_combine(const struct input_evidence *inputs, size_t count)
{
    bool unknown = count == 0, content = false;
    for (size_t index = 0; index < count; index++) {
        if (inputs[index].verdict == INPUT_VERDICT_NOT)
            return INPUT_VERDICT_NOT;
        unknown |= inputs[index].verdict == INPUT_VERDICT_UNKNOWN;
        content |= inputs[index].verdict == INPUT_VERDICT_CONTENT;
    }
    if (unknown)
        return INPUT_VERDICT_UNKNOWN;
    return content ? INPUT_VERDICT_CONTENT : INPUT_VERDICT_FILES;
}

const char *input_verdict_words(enum input_verdict verdict)
{
    static const char *const words[] = {"the published files",
                                        "the published content, re-compressed",
                                        "not the published files",
                                        "not checked against the published files"};
    return words[verdict];
}

const char *input_verdict_value(enum input_verdict verdict)
{
    static const char *const values[] = {"files", "content", "no", "unknown"};
    return values[verdict];
}

/* Whether INPUT is named after the sentence of VERDICT. */
static bool named(enum input_verdict verdict, const struct input_evidence *input)
{
    if (verdict == INPUT_VERDICT_CONTENT)
        return input->verdict == INPUT_VERDICT_CONTENT;
    return verdict != INPUT_VERDICT_FILES && input->verdict != INPUT_VERDICT_FILES &&
           input->verdict != INPUT_VERDICT_CONTENT;
}

void input_verdict_print(FILE *stream, const char *dataset, const struct input_evidence *inputs,
                         size_t count)
{
    if (count == 0) {
        fprintf(stream, "inputs of %s: none recorded", dataset);
        return;
    }
    enum input_verdict verdict = input_verdict_combine(inputs, count);
    fprintf(stream, "inputs of %s: %s", dataset, input_verdict_words(verdict));
    const char *separator = ": ";
    for (size_t index = 0; index < count; index++) {
        if (!named(verdict, &inputs[index]))
            continue;
        fprintf(stream, "%s%s", separator, inputs[index].name);
        if (inputs[index].reason != NULL && verdict != INPUT_VERDICT_CONTENT)
            fprintf(stream, " (%s)", inputs[index].reason);
        separator = ", ";
    }
}

char *input_verdict_sentence(const char *dataset, const struct input_evidence *inputs,
                             size_t count)
{
    char *text = NULL;
    size_t length = 0;
    FILE *stream = open_memstream(&text, &length);
    if (stream == NULL)
        return NULL;
    input_verdict_print(stream, dataset, inputs, count);
    if (fclose(stream) != 0) {
        free(text);
        return NULL;
    }
    return text;
}
