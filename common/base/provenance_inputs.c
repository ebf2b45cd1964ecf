/* Finds a fuel_provenance text's top-level inputs list by its strings and brackets alone, parses
   the rest with jansson, and each entry of the list on its own when walked. */
#include "provenance_inputs.h"

#include "provenance_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool blank(char character)
{
    return character == ' ' || character == '\t' || character == '\n' || character == '\r';
}

static size_t blanks_skip(const char *text, size_t position, size_t end)
{
    while (position < end && blank(text[position]))
        position++;
    return position;
}

/* The end of the string whose opening quote is at POSITION; 0 when it does not close. */
static size_t string_end(const char *text, size_t position, size_t end)
{
    for (position++; position < end; position++) {
        if (text[position] == '\\')
            position++;
        else if (text[position] == '"')
            return position + 1;
    }
    return 0;
}

/* The end of the number or literal at POSITION; 0 when there is none. */
static size_t scalar_end(const char *text, size_t position, size_t end)
{
    size_t start = position;
    while (position < end && text[position] != '\0' && !blank(text[position]) &&
           strchr(",:[]{}\"", text[position]) == NULL)
        position++;
    return position > start ? position : 0;
}

/* The end of the JSON value at POSITION, by its strings and brackets alone (jansson checks the
   rest); 0 when it does not end before END. */
static size_t value_end(const char *text, size_t position, size_t end)
{
    size_t depth = 0;
    while (position < end) {
        char character = text[position];
        if (character == '"') {
            position = string_end(text, position, end);
        } else if (character == '[' || character == '{') {
            depth++;
            position++;
        } else if (depth > 0) {
            depth -= character == ']' || character == '}';
            position++;
        } else {
            position = scalar_end(text, position, end);
        }
        if (position == 0 || depth == 0)
            return position;
    }
    return 0;
}

/* Whether the key at KEY (LENGTH bytes with its quotes) is "inputs", escaped or not. */
static bool key_is_inputs(const char *key, size_t length)
{
    if (length == 8 && memcmp(key, "\"inputs\"", 8) == 0)
        return true;
    if (memchr(key, '\\', length) == NULL)
        return false;
    json_t *decoded = json_loadb(key, length, JSON_DECODE_ANY, NULL);
    bool inputs = json_is_string(decoded) && strcmp(json_string_value(decoded), "inputs") == 0;
    json_decref(decoded);
    return inputs;
}

/* What inputs_find saw: a text whose top-level "inputs" members cannot be told apart is refused. */
enum inputs_found { INPUTS_NONE, INPUTS_LIST, INPUTS_TWICE };

/* Where the list of TEXT's one top-level "inputs" member lies ([START, END) with its brackets);
   INPUTS_NONE when there is none or the text is not an object of members (jansson then parses it
   whole, and says what is wrong), INPUTS_TWICE when two members are named "inputs". */
static enum inputs_found inputs_find(const char *text, size_t length, size_t *start, size_t *end)
{
    size_t position = blanks_skip(text, 0, length);
    if (position >= length || text[position] != '{')
        return INPUTS_NONE;
    enum inputs_found found = INPUTS_NONE;
    bool named = false;
    for (position++;;) {
        position = blanks_skip(text, position, length);
        size_t key = position, key_end = position < length && text[position] == '"'
                                             ? string_end(text, position, length)
                                             : 0;
        position = key_end > 0 ? blanks_skip(text, key_end, length) : length;
        if (position >= length || text[position] != ':')
            return found;
        size_t value = blanks_skip(text, position + 1, length);
        size_t after = value_end(text, value, length);
        if (after == 0)
            return found;
        if (key_is_inputs(text + key, key_end - key)) {
            if (named)
                return INPUTS_TWICE;
            named = true;
            if (text[value] == '[') {
                *start = value;
                *end = after;
                found = INPUTS_LIST;
            }
        }
        position = blanks_skip(text, after, length);
        if (position >= length || text[position] != ',')
            return found;
        position++;
    }
}

/* The values TEXT holds in [FROM, TO), counted by their separators and brackets outside strings,
   up to one over LIMIT. */
static size_t values_count(const char *text, size_t from, size_t to, size_t limit)
{
    size_t values = 1;
    for (size_t position = from; position < to && values <= limit;) {
        char character = text[position];
        if (character == '"') {
            if ((position = string_end(text, position, to)) == 0)
                break;
            continue;
        }
        values += character == ',' || character == '[' || character == '{';
        position++;
    }
    return values;
}

static json_t *refused(json_error_t *error, const char *why)
{
    if (error != NULL)
        snprintf(error->text, sizeof error->text, "%s", why);
    return NULL;
}

/* Whether the members around the inputs list of TEXT ([START, END) of LENGTH bytes, START ==
   END when there is none) hold more values than the head's limit, ERROR saying so. */
static bool head_refused(const char *text, size_t length, size_t start, size_t end,
                         json_error_t *error)
{
    if (values_count(text, 0, start, PROVENANCE_HEAD_MAX_VALUES) +
            values_count(text, end, length, PROVENANCE_HEAD_MAX_VALUES) >
        PROVENANCE_HEAD_MAX_VALUES)
        return refused(error, "more than " PROVENANCE_HEAD_VALUES_TEXT " values outside the "
                              "inputs list"), true;
    return false;
}

json_t *provenance_head_parse(const char *text, size_t flags, json_error_t *error,
                              struct provenance_inputs *inputs)
{
    *inputs = (struct provenance_inputs){0};
    if (text == NULL)
        return NULL;
    size_t length = strnlen(text, PROVENANCE_TEXT_MAX_BYTES + 1), start = 0, end = 0;
    if (length > PROVENANCE_TEXT_MAX_BYTES)
        return provenance_text_parse(text, flags, error);
    enum inputs_found found = inputs_find(text, length, &start, &end);
    if (found == INPUTS_TWICE)
        return refused(error, "two members named inputs");
    if (head_refused(text, length, start, end, error))
        return NULL;
    if (found == INPUTS_NONE)
        return provenance_text_parse(text, flags, error);
    char *head = malloc(length - (end - start) + 3);
    if (head == NULL)
        return refused(error, "out of memory");
    memcpy(head, text, start);
    memcpy(head + start, "[]", 2);
    memcpy(head + start + 2, text + end, length - end + 1);
    json_t *parsed = json_loads(head, flags, error);
    free(head);
    if (json_is_object(parsed)) {
        json_object_del(parsed, "inputs");
        *inputs = (struct provenance_inputs){text, start + 1, end - 1, 0, flags | JSON_DECODE_ANY};
    }
    return parsed;
}

static int malformed(json_error_t *error, const char *why)
{
    if (error != NULL)
        snprintf(error->text, sizeof error->text, "%s", why);
    return -1;
}

int provenance_inputs_next(struct provenance_inputs *inputs, json_t **entry, json_error_t *error)
{
    *entry = NULL;
    if (inputs->text == NULL)
        return 0;
    const char *text = inputs->text;
    size_t position = blanks_skip(text, inputs->position, inputs->end);
    if (inputs->index > 0 && position < inputs->end) {
        if (text[position] != ',')
            return malformed(error, "',' or ']' expected after an entry of the inputs list");
        position = blanks_skip(text, position + 1, inputs->end);
        if (position == inputs->end)
            return malformed(error, "an entry expected after ',' in the inputs list");
    }
    if (position == inputs->end)
        return 0;
    size_t after = value_end(text, position, inputs->end);
    if (after == 0)
        return malformed(error, "an entry of the inputs list does not end");
    if (after - position > PROVENANCE_ENTRY_MAX_BYTES)
        return malformed(error, "an entry of the inputs list is longer than "
                                PROVENANCE_ENTRY_MAX_TEXT " bytes");
    if ((*entry = json_loadb(text + position, after - position, inputs->flags, error)) == NULL)
        return -1;
    inputs->position = after;
    inputs->index++;
    return 1;
}

json_t *provenance_bounded_parse(const char *text, size_t flags, json_error_t *error, size_t keep,
                                 size_t *total, provenance_entry_visit *visit, void *context)
{
    struct provenance_inputs inputs;
    json_t *head = provenance_head_parse(text, flags, error, &inputs), *entry;
    json_t *listed = json_object_get(head, "inputs");
    *total = json_array_size(listed);
    for (size_t index = 0; visit != NULL && index < *total; index++)
        visit(json_array_get(listed, index), context);
    while (json_array_size(listed) > keep)
        json_array_remove(listed, json_array_size(listed) - 1);
    if (head == NULL || inputs.text == NULL)
        return head;
    json_t *kept = json_array();
    int read = kept != NULL ? 1 : -1;
    while (read == 1 && (read = provenance_inputs_next(&inputs, &entry, error)) == 1) {
        if (visit != NULL)
            visit(entry, context);
        if (inputs.index <= keep)
            json_array_append(kept, entry);
        json_decref(entry);
    }
    if (read < 0 || json_object_set_new(head, "inputs", kept) != 0) {
        json_decref(read < 0 ? kept : NULL);
        json_decref(head);
        return NULL;
    }
    *total = inputs.index;
    return head;
}

bool provenance_inputs_equal(const char *left, const char *right)
{
    struct provenance_inputs walks[2];
    json_t *heads[2] = {provenance_head_parse(left, 0, NULL, &walks[0]),
                        provenance_head_parse(right, 0, NULL, &walks[1])};
    bool equal = heads[0] != NULL && heads[1] != NULL && walks[0].text != NULL &&
                 walks[1].text != NULL;
    for (bool more = equal; more;) {
        json_t *entries[2];
        int read[2] = {provenance_inputs_next(&walks[0], &entries[0], NULL),
                       provenance_inputs_next(&walks[1], &entries[1], NULL)};
        equal = read[0] == read[1] && read[0] >= 0 &&
                (read[0] == 0 || json_equal(entries[0], entries[1]));
        more = equal && read[0] == 1;
        json_decref(entries[0]);
        json_decref(entries[1]);
    }
    json_decref(heads[0]);
    json_decref(heads[1]);
    return equal;
}
