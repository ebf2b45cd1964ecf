/* Unit tests for common/base/provenance_inputs.c: the members around the inputs list parsed
   without it, its entries walked one at a time, a malformed entry or separator named where it
   is, texts it cannot take apart parsed whole by jansson within the head's limits, two lists
   compared entry by entry. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/provenance_inputs.h"

#include <stdlib.h>
#include <string.h>

/* The names of TEXT's entries, walked, joined by spaces; the walk's last answer in *LAST. */
static void walked_names(const char *text, char *names, size_t size, int *last)
{
    struct provenance_inputs inputs;
    json_t *head = provenance_head_parse(text, 0, NULL, &inputs);
    assert_true(json_is_object(head));
    assert_null(json_object_get(head, "inputs"));
    names[0] = '\0';
    json_t *entry;
    json_error_t error;
    while ((*last = provenance_inputs_next(&inputs, &entry, &error)) == 1) {
        const char *name = json_string_value(json_object_get(entry, "name"));
        strncat(names, name != NULL ? name : "?", size - strlen(names) - 2);
        strcat(names, " ");
        json_decref(entry);
    }
    json_decref(head);
}

static void the_entries_are_walked_in_order(void **state)
{
    (void)state;
    char names[256];
    int last;
    walked_names("{\"argv\": [\"fuel\", \"pack\"], \"inputs\" : [ {\"name\": \"a]}\\\"\"},"
                 "{\"name\":\"b\",\"x\":[1,{\"y\":[]}]} ,{\"name\":\"c\"}], \"created\": \"z\"}",
                 names, sizeof names, &last);
    assert_string_equal(names, "a]}\" b c ");
    assert_int_equal(last, 0);
    walked_names("{\"inputs\":[]}", names, sizeof names, &last);
    assert_string_equal(names, "");
    assert_int_equal(last, 0);
    /* Escaped, the key is still "inputs"; a list nested elsewhere is not the inputs. */
    walked_names("{\"conversion\": {\"inputs\": [{\"name\": \"no\"}]}, \"inp\\u0075ts\": "
                 "[{\"name\": \"yes\"}]}", names, sizeof names, &last);
    assert_string_equal(names, "yes ");
}

static void the_head_keeps_the_other_members(void **state)
{
    (void)state;
    struct provenance_inputs inputs;
    json_t *head = provenance_head_parse("{\"created\": \"2009-02-13T23:31:30Z\", \"inputs\": "
                                         "[{\"name\": \"a\"}], \"tool\": \"fuel\"}", 0, NULL,
                                         &inputs);
    assert_string_equal(json_string_value(json_object_get(head, "created")),
                        "2009-02-13T23:31:30Z");
    assert_string_equal(json_string_value(json_object_get(head, "tool")), "fuel");
    assert_int_equal(json_object_size(head), 2);
    assert_non_null(inputs.text);
    json_decref(head);
}

static void malformed_lists_stop_the_walk_where_they_break(void **state)
{
    (void)state;
    char names[256];
    int last;
    walked_names("{\"inputs\": [{\"name\": \"a\"} {\"name\": \"b\"}]}", names, sizeof names,
                 &last);
    assert_string_equal(names, "a ");
    assert_int_equal(last, -1);
    walked_names("{\"inputs\": [{\"name\": \"a\"},]}", names, sizeof names, &last);
    assert_int_equal(last, -1);
    walked_names("{\"inputs\": [{\"name\": \"a\"}, {\"name\" \"b\"}]}", names, sizeof names,
                 &last);
    assert_string_equal(names, "a ");
    assert_int_equal(last, -1);
    /* An entry that is no object is handed over as it is: its reader refuses it. */
    walked_names("{\"inputs\": [7]}", names, sizeof names, &last);
    assert_string_equal(names, "? ");
}

static void texts_not_taken_apart_are_parsed_whole(void **state)
{
    (void)state;
    struct provenance_inputs inputs;
    json_error_t error;
    assert_null(provenance_head_parse("{not json", 0, &error, &inputs));
    assert_non_null(strstr(error.text, "near 'not'"));
    assert_null(inputs.text);
    assert_null(provenance_head_parse("{\"a\": 1, \"a\": 2}", JSON_REJECT_DUPLICATES, &error,
                                      &inputs));
    assert_non_null(strstr(error.text, "duplicate"));
    json_t *head = provenance_head_parse("{\"inputs\": 5}", 0, NULL, &inputs);
    assert_int_equal(json_integer_value(json_object_get(head, "inputs")), 5);
    assert_null(inputs.text);
    json_t *entry;
    assert_int_equal(provenance_inputs_next(&inputs, &entry, NULL), 0);
    json_decref(head);
    assert_null(provenance_head_parse(NULL, 0, NULL, &inputs));
    assert_null(provenance_head_parse("{\"inputs\": [{\"name\": \"a\"}], \"tool\": }", 0, &error,
                                      &inputs));
}

static void lists_are_compared_entry_by_entry(void **state)
{
    (void)state;
    assert_true(provenance_inputs_equal("{\"inputs\": [{\"a\": 1}, {\"b\": 2}], \"x\": 1}",
                                        "{\"x\": 2, \"inputs\":[{\"a\":1},{\"b\":2}]}"));
    assert_false(provenance_inputs_equal("{\"inputs\": [{\"a\": 1}, {\"b\": 2}]}",
                                         "{\"inputs\": [{\"a\": 1}]}"));
    assert_false(provenance_inputs_equal("{\"inputs\": [{\"a\": 1}]}", "{\"inputs\": [{\"a\": 2}]}"));
    assert_false(provenance_inputs_equal("{\"x\": 1}", "{\"x\": 1}"));
}

static void count_visit(json_t *entry, void *count)
{
    *(size_t *)count += json_integer_value(json_object_get(entry, "a")) > 0;
}

static void bounded_parses_keep_the_first_entries_and_count_them_all(void **state)
{
    (void)state;
    size_t total, visited = 0;
    json_t *parsed = provenance_bounded_parse(
        "{\"inputs\": [{\"a\": 1}, {\"a\": 2}, {\"a\": 0}], \"x\": 1}", 0, NULL, 2, &total,
        count_visit, &visited);
    assert_int_equal(total, 3);
    assert_int_equal(visited, 2);
    assert_int_equal(json_array_size(json_object_get(parsed, "inputs")), 2);
    assert_int_equal(json_integer_value(json_object_get(json_array_get(
                         json_object_get(parsed, "inputs"), 1), "a")), 2);
    assert_int_equal(json_integer_value(json_object_get(parsed, "x")), 1);
    json_decref(parsed);
    json_error_t error;
    assert_null(provenance_bounded_parse("{\"inputs\": [{}, {} {}]}", 0, &error, 0, &total, NULL,
                                         NULL));
    assert_string_equal(error.text, "',' or ']' expected after an entry of the inputs list");
    parsed = provenance_bounded_parse("{\"x\": 1}", 0, NULL, 5, &total, NULL, NULL);
    assert_int_equal(total, 0);
    assert_null(json_object_get(parsed, "inputs"));
    json_decref(parsed);
}

/* TEXT of the form PREFIX, COUNT times REPEATED, SUFFIX (caller frees). */
static char *repeated(const char *prefix, const char *item, size_t count, const char *suffix)
{
    size_t length = strlen(item);
    char *text = malloc(strlen(prefix) + length * count + strlen(suffix) + 1);
    assert_non_null(text);
    char *end = stpcpy(text, prefix);
    for (size_t index = 0; index < count; index++, end += length)
        memcpy(end, item, length);
    strcpy(end, suffix);
    return text;
}

static void what_would_stand_as_one_tree_is_bounded(void **state)
{
    (void)state;
    struct provenance_inputs inputs;
    json_error_t error;
    /* Two lists: the walk cannot tell which one jansson would keep, and never parses them whole. */
    assert_null(provenance_head_parse("{\"inputs\": [{}], \"x\": 1, \"inputs\": [{}, {}]}", 0,
                                      &error, &inputs));
    assert_string_equal(error.text, "two members named inputs");
    assert_null(provenance_head_parse("{\"inputs\": 5, \"inputs\": []}", 0, &error, &inputs));
    char *text = repeated("{\"inputs\": [], \"argv\": [", "0,", PROVENANCE_HEAD_MAX_VALUES, "0]}");
    assert_null(provenance_head_parse(text, 0, &error, &inputs));
    assert_string_equal(error.text, "more than 262144 values outside the inputs list");
    free(text);
    /* A text with no inputs list is all head; 65,536 values in the list itself are walked. */
    text = repeated("[", "0,", PROVENANCE_HEAD_MAX_VALUES, "0]");
    assert_null(provenance_head_parse(text, 0, &error, &inputs));
    free(text);
    text = repeated("{\"inputs\": [", "0,", PROVENANCE_HEAD_MAX_VALUES, "0], \"x\": \"[,{\"}");
    json_t *head = provenance_head_parse(text, 0, NULL, &inputs);
    assert_string_equal(json_string_value(json_object_get(head, "x")), "[,{");
    json_decref(head);
    free(text);
    text = repeated("{\"inputs\": [{}, \"", "a", PROVENANCE_ENTRY_MAX_BYTES, "\"]}");
    head = provenance_head_parse(text, 0, NULL, &inputs);
    json_t *entry;
    assert_int_equal(provenance_inputs_next(&inputs, &entry, &error), 1);
    json_decref(entry);
    assert_int_equal(provenance_inputs_next(&inputs, &entry, &error), -1);
    assert_string_equal(error.text, "an entry of the inputs list is longer than 65536 bytes");
    json_decref(head);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_entries_are_walked_in_order),
        cmocka_unit_test(the_head_keeps_the_other_members),
        cmocka_unit_test(malformed_lists_stop_the_walk_where_they_break),
        cmocka_unit_test(texts_not_taken_apart_are_parsed_whole),
        cmocka_unit_test(lists_are_compared_entry_by_entry),
        cmocka_unit_test(bounded_parses_keep_the_first_entries_and_count_them_all),
        cmocka_unit_test(what_would_stand_as_one_tree_is_bounded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
