/* Unit tests for converters/adult_rows.c: Adult's rows checked and parsed (field count, '?',
   numbers, labels with and without adult.test's '.'), the sorted vocabulary, unseen values. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "converters/adult_rows.h"
#include "common/base/error.h"
#include "support.h"

#include <stdio.h>
#include <string.h>

#define ROW(label) "39, State-gov, 77516, Bachelors, 13, Never-married, Adm-clerical, " \
                   "Not-in-family, White, Male, 2174, 0, 40, United-States, " label "\n"

/* Reads the one row of TEXT and parses it; the reader stays open for the error's path. */
static int parse_text(const char *text, struct field_row_reader **reader, struct adult_row *row,
                      bool *missing)
{
    test_file_make(text);
    assert_int_equal(field_rows_open(reader, test_file), EXIT_OK);
    static struct field_row fields;
    bool read;
    assert_int_equal(field_rows_next(*reader, &fields, &read), EXIT_OK);
    assert_true(read);
    return adult_row_parse(*reader, &fields, row, missing);
}

static void expect_error(const char *text, const char *why)
{
    struct field_row_reader *reader;
    struct adult_row row;
    bool missing;
    assert_int_equal(parse_text(text, &reader, &row, &missing), EXIT_CORRUPT_INPUT);
    char expected[4400];
    snprintf(expected, sizeof expected, "malformed Adult row: %s:1: %s", test_file, why);
    assert_string_equal(error_message(), expected);
    field_rows_close(reader);
    test_file_remove();
}

static void test_rows_parsed(void **state)
{
    (void)state;
    const char *texts[] = {ROW("<=50K"), ROW(">50K."), ROW(">50K")};
    const bool labels[] = {false, true, true};
    for (size_t index = 0; index < 3; index++) {
        struct field_row_reader *reader;
        struct adult_row row;
        bool missing = true;
        assert_int_equal(parse_text(texts[index], &reader, &row, &missing), EXIT_OK);
        assert_false(missing);
        const double continuous[] = {39, 77516, 13, 2174, 0, 40};
        assert_memory_equal(row.continuous, continuous, sizeof continuous);
        assert_string_equal(row.categorical[0], "State-gov");
        assert_string_equal(row.categorical[7], "United-States");
        assert_int_equal(row.above_50k, labels[index]);
        field_rows_close(reader);
        test_file_remove();
    }
    assert_string_equal(adult_column_name(13), "native-country");
    assert_true(adult_column_continuous(12));
    assert_false(adult_column_continuous(1));
}

/* A '?' anywhere drops the row, as Fuel's line.find('?'); a number is not checked then. */
static void test_missing_values(void **state)
{
    (void)state;
    struct field_row_reader *reader;
    struct adult_row row;
    bool missing = false;
    assert_int_equal(parse_text("?, ?, 77516, Bachelors, 13, Never-married, ?, Not-in-family, "
                                "White, Male, 0, 0, 40, United-States, <=50K\n",
                                &reader, &row, &missing),
                     EXIT_OK);
    assert_true(missing);
    field_rows_close(reader);
    test_file_remove();
}

static void test_malformed_rows(void **state)
{
    (void)state;
    expect_error("39, State-gov, 77516\n", "3 fields, not 15");
    expect_error(ROW("<=50K, extra"), "16 fields, not 15");
    char many[512] = "";
    for (int field = 0; field < 100; field++)
        strcat(many, "1,");
    expect_error(many, "more than 64 fields, not 15");
    expect_error(ROW("=50K"), "the label is neither >50K nor <=50K: '=50K'");
    expect_error(ROW(">50K.."), "the label is neither >50K nor <=50K: '>50K..'");
    expect_error("thirty, State-gov, 77516, Bachelors, 13, Never-married, Adm-clerical, "
                 "Not-in-family, White, Male, 2174, 0, 40, United-States, <=50K\n",
                 "age is not a decimal number: 'thirty'");
}

static void add(struct adult_vocabulary *vocabulary, struct adult_row *row, const char *country)
{
    row->categorical[7] = country;
    assert_int_equal(adult_vocabulary_add(vocabulary, row, "adult.data", 1), EXIT_OK);
}

/* Values are numbered in byte order, whatever order they come in; a value unseen in the training
   rows is an error naming it. */
static void test_vocabulary(void **state)
{
    (void)state;
    struct adult_vocabulary vocabulary = {0};
    struct adult_row row = {.categorical = {"Private", "HS-grad", "Divorced", "Sales", "Wife",
                                            "White", "Female", NULL}};
    const char *countries[] = {"United-States", "Cuba", "Outlying-US(Guam-USVI-etc)", "cuba",
                               "Cuba", "Holand-Netherlands", "Trinadad&Tobago"};
    for (size_t index = 0; index < 7; index++)
        add(&vocabulary, &row, countries[index]);
    assert_int_equal(vocabulary.counts[7], 6);
    assert_int_equal(vocabulary.counts[0], 1);
    const char *sorted[] = {"Cuba", "Holand-Netherlands", "Outlying-US(Guam-USVI-etc)",
                            "Trinadad&Tobago", "United-States", "cuba"};
    for (size_t index = 0; index < 6; index++) {
        size_t found;
        row.categorical[7] = sorted[index];
        assert_int_equal(adult_vocabulary_index(&vocabulary, &row, 7, "adult.test", 3, &found),
                         EXIT_OK);
        assert_int_equal(found, index);
    }
    size_t found;
    row.categorical[7] = "Atlantis";
    assert_int_equal(adult_vocabulary_index(&vocabulary, &row, 7, "adult.test", 9, &found),
                     EXIT_CORRUPT_INPUT);
    assert_string_equal(error_message(),
                        "value unseen in adult.data: adult.test:9: native-country 'Atlantis'");
    adult_vocabulary_free(&vocabulary);
    assert_int_equal(vocabulary.counts[7], 0);
}

static void test_too_many_values(void **state)
{
    (void)state;
    struct adult_vocabulary vocabulary = {0};
    struct adult_row row = {.categorical = {"Private", "HS-grad", "Divorced", "Sales", "Wife",
                                            "White", "Female", "x"}};
    char value[16];
    for (int index = 0; index < ADULT_MAX_VALUES; index++) {
        snprintf(value, sizeof value, "v%d", index);
        row.categorical[1] = value;
        assert_int_equal(adult_vocabulary_add(&vocabulary, &row, "adult.data", 1), EXIT_OK);
    }
    row.categorical[1] = "one more";
    assert_int_equal(adult_vocabulary_add(&vocabulary, &row, "adult.data", 1001),
                     EXIT_CORRUPT_INPUT);
    assert_string_equal(error_message(), "too many values: adult.data:1001: education has more "
                                         "than 1000 distinct values");
    adult_vocabulary_free(&vocabulary);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows_parsed),
        cmocka_unit_test(test_missing_values),
        cmocka_unit_test(test_malformed_rows),
        cmocka_unit_test(test_vocabulary),
        cmocka_unit_test(test_too_many_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
