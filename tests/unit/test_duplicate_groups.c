/* Unit tests for duplicates/duplicate_groups.c: runs of equal digests cut into groups of the right
   kind, members in file, split and position order, label conflicts marked. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "duplicates/duplicate_groups.h"

#include <stdlib.h>
#include <string.h>

/* Appends a record of digest byte VALUE for example NUMBER of split SPLIT of file FILE. */
static void add(struct example_digests *digests, unsigned char value, uint16_t file,
                uint16_t split, uint32_t number)
{
    if (digests->count == digests->capacity) {
        digests->capacity = digests->capacity ? 2 * digests->capacity : 8;
        digests->records = realloc(digests->records, digests->capacity * sizeof *digests->records);
        assert_non_null(digests->records);
    }
    struct example_record *record = &digests->records[digests->count++];
    memset(record->digest, value, sizeof record->digest);
    record->file = file;
    record->split = split;
    record->number = number;
}

/* Label of a member: its position modulo 3, except example 9 of split 1 (label 7). */
static int label_of(void *context, const struct example_record *member, struct member_label *label)
{
    (*(int *)context)++;
    int64_t value = member->split == 1 && member->number == 9 ? 7 : member->number % 3;
    *label = (struct member_label){.known = true, .value = value};
    return EXIT_OK;
}

static void test_kinds_and_order(void **state)
{
    (void)state;
    struct example_digests digests = {0};
    add(&digests, 5, 0, 0, 6); /* within split 0: 3 and 6 */
    add(&digests, 1, 0, 0, 1); /* alone */
    add(&digests, 5, 0, 0, 3);
    add(&digests, 9, 0, 1, 9); /* across splits: split 0 example 0 and split 1 example 9 */
    add(&digests, 9, 0, 0, 0);
    add(&digests, 2, 1, 0, 4); /* across files, three members */
    add(&digests, 2, 0, 1, 4);
    add(&digests, 2, 0, 0, 7);
    add(&digests, 3, 1, 1, 2); /* alone */
    struct duplicate_groups groups;
    assert_int_equal(duplicate_groups_find(&digests, &groups), EXIT_OK);
    assert_int_equal(groups.group_count, 3);
    assert_int_equal(groups.kind_counts[GROUP_WITHIN_SPLIT], 1);
    assert_int_equal(groups.kind_counts[GROUP_ACROSS_SPLITS], 1);
    assert_int_equal(groups.kind_counts[GROUP_ACROSS_FILES], 1);
    assert_int_equal(groups.extra_copies, 4);
    assert_int_equal(groups.members, 7);
    /* sorted by digest: 2 (files), 5 (within), 9 (splits) */
    const struct duplicate_group *files = &groups.groups[0], *within = &groups.groups[1];
    assert_int_equal(files->kind, GROUP_ACROSS_FILES);
    assert_int_equal(files->count, 3);
    const struct example_record *first = &digests.records[files->first];
    assert_int_equal(first[0].file, 0);
    assert_int_equal(first[0].split, 0);
    assert_int_equal(first[0].number, 7);
    assert_int_equal(first[1].split, 1);
    assert_int_equal(first[2].file, 1);
    assert_int_equal(within->kind, GROUP_WITHIN_SPLIT);
    assert_int_equal(digests.records[within->first].number, 3);
    assert_int_equal(digests.records[within->first + 1].number, 6);
    assert_int_equal(groups.groups[2].kind, GROUP_ACROSS_SPLITS);

    int calls = 0;
    assert_int_equal(duplicate_groups_label(&groups, &digests, label_of, &calls), EXIT_OK);
    assert_int_equal(calls, 7);
    /* 7 % 3, 4 % 3, 4 % 3 = 1, 1, 1: agree; 3 and 6: 0, 0 agree; 0 against 7: conflict */
    assert_false(groups.groups[0].label_conflict);
    assert_false(groups.groups[1].label_conflict);
    assert_true(groups.groups[2].label_conflict);
    assert_int_equal(groups.conflict_count, 1);
    assert_int_equal(groups.labels[groups.groups[2].labelled + 1].value, 7);
    duplicate_groups_free(&groups);
    example_digests_free(&digests);
}

static void test_none(void **state)
{
    (void)state;
    struct example_digests digests = {0};
    for (unsigned char value = 0; value < 50; value++)
        add(&digests, value, 0, 0, value);
    struct duplicate_groups groups;
    assert_int_equal(duplicate_groups_find(&digests, &groups), EXIT_OK);
    assert_int_equal(groups.group_count, 0);
    assert_int_equal(groups.extra_copies, 0);
    duplicate_groups_free(&groups);
    example_digests_free(&digests);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kinds_and_order),
        cmocka_unit_test(test_none),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
