/* The closest names to a mistyped one, by an edit distance on names folded for case, '-' and
   '_', and the lists of valid names that end the messages refusing one. */
#include "suggest.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

enum { NAME_MAX_LENGTH = 63 };

/* NAME without '-' and '_', in lower case: "--Batch_Size" and "batchsize" fold alike. */
static size_t fold(const char *name, char *folded)
{
    size_t length = 0;
    for (; *name != '\0' && length < NAME_MAX_LENGTH; name++)
        if (*name != '-' && *name != '_')
            folded[length++] = (char)tolower((unsigned char)*name);
    folded[length] = '\0';
    return length;
}

static size_t smallest(size_t first, size_t second, size_t third)
{
    size_t least = first < second ? first : second;
    return least < third ? least : third;
}

/* The optimal string alignment distance: insertions, deletions, substitutions and swaps of two
   neighbours, one edit each. */
static size_t edit_distance(const char *left, size_t left_length, const char *right,
                            size_t right_length)
{
    size_t rows[3][NAME_MAX_LENGTH + 1];
    size_t *before = rows[0], *previous = rows[1], *current = rows[2];
    for (size_t column = 0; column <= right_length; column++)
        previous[column] = column;
    for (size_t line = 1; line <= left_length; line++) {
        current[0] = line;
        for (size_t column = 1; column <= right_length; column++) {
            size_t cost = left[line - 1] != right[column - 1];
            current[column] = smallest(previous[column] + 1, current[column - 1] + 1,
                                       previous[column - 1] + cost);
            if (line > 1 && column > 1 && left[line - 1] == right[column - 2] &&
                left[line - 2] == right[column - 1] && before[column - 2] + 1 < current[column])
                current[column] = before[column - 2] + 1;
        }
        size_t *reused = before;
        before = previous;
        previous = current;
        current = reused;
    }
    return previous[right_length];
}

/* How far CANDIDATE is from TYPED; (size_t)-1 when too far to suggest. */
static size_t closeness(const char *typed, const char *candidate)
{
    char left[NAME_MAX_LENGTH + 1], right[NAME_MAX_LENGTH + 1];
    size_t left_length = fold(typed, left), right_length = fold(candidate, right);
    if (left_length == 0 || right_length == 0)
        return (size_t)-1;
    if (strcmp(left, right) == 0)
        return 0;
    if (left_length >= 3 && strncmp(left, right, left_length) == 0)
        return 1;
    size_t allowed = left_length < 4 ? 1 : left_length < 9 ? 2 : 3;
    size_t distance = edit_distance(left, left_length, right, right_length);
    return distance <= allowed && distance < left_length ? distance : (size_t)-1;
}

void suggestion_begin(struct suggestion *suggestion, const char *typed)
{
    *suggestion = (struct suggestion){.typed = typed, .distance = (size_t)-1};
}

void suggestion_offer(struct suggestion *suggestion, const char *candidate)
{
    size_t distance = closeness(suggestion->typed, candidate);
    if (distance == (size_t)-1 || distance > suggestion->distance ||
        strcmp(candidate, suggestion->typed) == 0)
        return;
    if (distance < suggestion->distance) {
        suggestion->distance = distance;
        suggestion->count = 0;
    }
    char folded[NAME_MAX_LENGTH + 1], kept[NAME_MAX_LENGTH + 1];
    fold(candidate, folded);
    for (size_t index = 0; index < suggestion->count; index++) {
        fold(suggestion->best[index], kept);
        if (strcmp(kept, folded) == 0)
            return; /* another spelling of one already kept (--output_directory) */
    }
    if (suggestion->count < SUGGESTION_MAX)
        suggestion->best[suggestion->count++] = candidate;
}

bool suggestion_text(const struct suggestion *suggestion, char *text, size_t size)
{
    size_t used = (size_t)snprintf(text, size, "did you mean ");
    if (suggestion->count == 0) {
        text[0] = '\0';
        return false;
    }
    for (size_t index = 0; index < suggestion->count && used < size; index++) {
        const char *separator = index == 0                          ? ""
                                : index + 1 == suggestion->count ? " or "
                                                                 : ", ";
        used += (size_t)snprintf(text + used, size - used, "%s`%s`", separator,
                                 suggestion->best[index]);
    }
    if (used < size)
        snprintf(text + used, size - used, "?");
    return true;
}

void names_join(char *text, size_t size, const char *const *names, size_t count)
{
    size_t used = 0;
    text[0] = '\0';
    for (size_t index = 0; index < count && used < size; index++)
        used += (size_t)snprintf(text + used, size - used, "%s%s", index > 0 ? ", " : "",
                                 names[index]);
    if (used >= size && size > 4)
        memcpy(text + size - 4, "...", 4);
}

void words_join(char *text, size_t size, const char *words)
{
    size_t used = 0;
    text[0] = '\0';
    for (const char *word = words; *word != '\0' && used < size;) {
        size_t length = strcspn(word, " ");
        used += (size_t)snprintf(text + used, size - used, "%s%.*s", used > 0 ? ", " : "",
                                 (int)length, word);
        word += length;
        word += strspn(word, " ");
    }
    if (used >= size && size > 4)
        memcpy(text + size - 4, "...", 4);
}
