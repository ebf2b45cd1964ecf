/* Unit tests of the closest-name suggestions: folding of case, '-' and '_', swaps of neighbours,
   prefixes, the distance allowed, ties, spellings of one name kept once, and the lists joined. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/suggest.h"

#include <string.h>

static const char *const datasets[] = {"binarized_mnist", "cifar10", "cifar100", "fashion_mnist",
                                       "iris", "mnist", "svhn"};

/* The suggestion for TYPED among the datasets, "" when none. */
static const char *suggested(const char *typed, char *text, size_t size)
{
    struct suggestion suggestion;
    suggestion_begin(&suggestion, typed);
    for (size_t index = 0; index < sizeof datasets / sizeof datasets[0]; index++)
        suggestion_offer(&suggestion, datasets[index]);
    suggestion_text(&suggestion, text, size);
    return text;
}

static void test_case_dashes_and_underscores_fold_away(void **state)
{
    (void)state;
    char text[256];
    assert_string_equal(suggested("fashion-mnist", text, sizeof text),
                        "did you mean `fashion_mnist`?");
    assert_string_equal(suggested("FashionMNIST", text, sizeof text),
                        "did you mean `fashion_mnist`?");
    /* cifar-10 folds to cifar10 itself: cifar100, a longer name it prefixes, is not offered. */
    assert_string_equal(suggested("cifar-10", text, sizeof text), "did you mean `cifar10`?");
}

static void test_swaps_edits_and_prefixes(void **state)
{
    (void)state;
    char text[256];
    assert_string_equal(suggested("mnsit", text, sizeof text), "did you mean `mnist`?");
    assert_string_equal(suggested("svnh", text, sizeof text), "did you mean `svhn`?");
    assert_string_equal(suggested("irs", text, sizeof text), "did you mean `iris`?");
    assert_string_equal(suggested("cifar", text, sizeof text),
                        "did you mean `cifar10` or `cifar100`?");
    assert_string_equal(suggested("binarized", text, sizeof text),
                        "did you mean `binarized_mnist`?");
}

static void test_nothing_close_is_nothing(void **state)
{
    (void)state;
    char text[256] = "unchanged";
    struct suggestion suggestion;
    suggestion_begin(&suggestion, "zebra");
    for (size_t index = 0; index < sizeof datasets / sizeof datasets[0]; index++)
        suggestion_offer(&suggestion, datasets[index]);
    assert_false(suggestion_text(&suggestion, text, sizeof text));
    assert_string_equal(text, "");
    /* One letter is never close to another one letter: -Z is not -d. */
    suggestion_begin(&suggestion, "-Z");
    suggestion_offer(&suggestion, "-d");
    assert_false(suggestion_text(&suggestion, text, sizeof text));
    /* The name itself is no suggestion. */
    suggestion_begin(&suggestion, "mnist");
    suggestion_offer(&suggestion, "mnist");
    assert_int_equal(suggestion.count, 0);
}

static void test_options_and_spellings_of_one(void **state)
{
    (void)state;
    const char *const options[] = {"--directory", "--output-directory", "--output_directory",
                                   "-o", "--json", "--batch-size", "--dtype"};
    const char *const typed[] = {"--outptu-directory", "--jsno", "--batchsize", "--dtyp"};
    const char *const expected[] = {"did you mean `--output-directory`?", "did you mean `--json`?",
                                    "did you mean `--batch-size`?", "did you mean `--dtype`?"};
    for (size_t test = 0; test < sizeof typed / sizeof typed[0]; test++) {
        struct suggestion suggestion;
        char text[256];
        suggestion_begin(&suggestion, typed[test]);
        for (size_t index = 0; index < sizeof options / sizeof options[0]; index++)
            suggestion_offer(&suggestion, options[index]);
        assert_true(suggestion_text(&suggestion, text, sizeof text));
        assert_string_equal(text, expected[test]);
    }
}

static void test_closer_replaces_farther_and_ties_are_kept_to_four(void **state)
{
    (void)state;
    struct suggestion suggestion;
    char text[256];
    suggestion_begin(&suggestion, "abcd");
    suggestion_offer(&suggestion, "abxy");
    assert_int_equal(suggestion.distance, 2);
    suggestion_offer(&suggestion, "abce");
    assert_int_equal(suggestion.count, 1);
    assert_string_equal(suggestion.best[0], "abce");
    const char *const ties[] = {"abcf", "abcg", "abch", "abci", "abcj"};
    for (size_t index = 0; index < 5; index++)
        suggestion_offer(&suggestion, ties[index]);
    assert_int_equal(suggestion.count, SUGGESTION_MAX);
    suggestion_text(&suggestion, text, sizeof text);
    assert_string_equal(text, "did you mean `abce`, `abcf`, `abcg` or `abch`?");
}

static void test_lists_joined_and_cut(void **state)
{
    (void)state;
    char text[64], small[12];
    const char *const names[] = {"train", "test", "extra"};
    names_join(text, sizeof text, names, 3);
    assert_string_equal(text, "train, test, extra");
    names_join(text, sizeof text, names, 0);
    assert_string_equal(text, "");
    names_join(small, sizeof small, names, 3);
    assert_string_equal(small, "train, t...");
    words_join(text, sizeof text, "uint8 float32  float64 bool");
    assert_string_equal(text, "uint8, float32, float64, bool");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_case_dashes_and_underscores_fold_away),
        cmocka_unit_test(test_swaps_edits_and_prefixes),
        cmocka_unit_test(test_nothing_close_is_nothing),
        cmocka_unit_test(test_options_and_spellings_of_one),
        cmocka_unit_test(test_closer_replaces_farther_and_ties_are_kept_to_four),
        cmocka_unit_test(test_lists_joined_and_cut),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
