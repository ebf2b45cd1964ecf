/* Adult raw fixture: adult.data and adult.test as UCI writes them: rows of the 14 attributes and
   the label separated by ", ", rows with missing values ('?', which converters drop) between them,
   adult.test's labels ending in '.' and a blank last line. The mark of fuel fixture --raw takes the
   place of a line Python Fuel drops, as a '|' comment line (C4.5's, which fuel's reader skips):
   adult.test's first ("|1x3 Cross validator" in the real file), adult.data's last (blank). Python
   Fuel one-hot encodes each split over the values that split holds, so the fixture keeps the real
   files' value sets: the first 41 training rows go through every value of each categorical column
   (104 columns), the first 40 test rows through every value but Holand-Netherlands (which the real
   files hold once, in adult.data; Fuel pads test with one zero column for it); the rest take
   values training rows have, never Holand-Netherlands. Hence at least 41 and 40 examples. */
#include "fixture.h"
#include "downloaders/adult.h"

#include "common/base/error.h"
#include "common/formats/fixture_marker.h"
#include "common/base/random.h"

#include <stdbool.h>
#include <stdio.h>

#define CATEGORIES 8
#define COVERING_ROWS 41 /* the most values of one column: native-country's */
#define TEST_COVERING_ROWS (COVERING_ROWS - 1) /* all but Holand-Netherlands */

static const char *const splits[] = {"train", "test"};

static const char *const workclass[] = {"Private", "Self-emp-not-inc", "Self-emp-inc",
                                        "Federal-gov", "Local-gov", "State-gov", "Without-pay"};
/* In the order of their education-num, 1 to 16. */
static const char *const education[] = {
    "Preschool", "1st-4th", "5th-6th", "7th-8th", "9th", "10th", "11th", "12th", "HS-grad",
    "Some-college", "Assoc-voc", "Assoc-acdm", "Bachelors", "Masters", "Prof-school", "Doctorate"};
static const char *const marital[] = {"Married-civ-spouse", "Never-married", "Divorced",
                                      "Separated", "Widowed", "Married-spouse-absent",
                                      "Married-AF-spouse"};
static const char *const occupation[] = {
    "Prof-specialty", "Craft-repair", "Exec-managerial", "Adm-clerical", "Sales",
    "Other-service", "Machine-op-inspct", "Transport-moving", "Handlers-cleaners",
    "Farming-fishing", "Tech-support", "Protective-serv", "Priv-house-serv", "Armed-Forces"};
static const char *const relationship[] = {"Husband", "Not-in-family", "Own-child", "Unmarried",
                                           "Wife", "Other-relative"};
static const char *const race[] = {"White", "Black", "Asian-Pac-Islander", "Amer-Indian-Eskimo",
                                   "Other"};
static const char *const sex[] = {"Male", "Female"};
/* Holand-Netherlands last: only the covering rows of adult.data use it. */
static const char *const country[] = {
    "United-States", "Mexico", "Philippines", "Germany", "Canada", "Puerto-Rico", "El-Salvador",
    "India", "Cuba", "England", "Jamaica", "South", "China", "Italy", "Dominican-Republic",
    "Vietnam", "Guatemala", "Japan", "Poland", "Columbia", "Taiwan", "Haiti", "Iran", "Portugal",
    "Nicaragua", "Peru", "France", "Greece", "Ecuador", "Ireland", "Hong", "Cambodia",
    "Trinadad&Tobago", "Laos", "Thailand", "Yugoslavia", "Outlying-US(Guam-USVI-etc)",
    "Honduras", "Hungary", "Scotland", "Holand-Netherlands"};

#define COUNT(list) (sizeof list / sizeof list[0])

static const struct {
    const char *const *values;
    size_t count;
} categories[CATEGORIES] = {
    {workclass, COUNT(workclass)},     {education, COUNT(education)},
    {marital, COUNT(marital)},         {occupation, COUNT(occupation)},
    {relationship, COUNT(relationship)}, {race, COUNT(race)},
    {sex, COUNT(sex)},                 {country, COUNT(country)},
};

static const int gains[] = {2174, 3103, 5178, 7688, 14084, 15024, 99999};
static const int losses[] = {1590, 1887, 1902, 1977, 2415};

struct adult_example {
    size_t values[CATEGORIES];
    int age, education_number, gain, loss, hours;
    long weight;
    bool above;
};

/* A value of CATEGORY, the first (the commonest) half the time; never Holand-Netherlands. */
static size_t common_value(struct random_state *random, size_t category)
{
    size_t count = categories[category].count - (category == CATEGORIES - 1);
    return random_below(random, 2) == 0 ? 0 : (size_t)random_below(random, count);
}

/* Example ROW of SPLIT: the covering rows take value ROW of each column (modulo its count, less
   Holand-Netherlands in test), the others common values. */
static void example_draw(const struct fixture_request *request, size_t split, uint64_t row,
                         struct adult_example *example)
{
    struct random_state random;
    random_seed(&random, request->seed, (uint64_t)split << 40 | row);
    bool covering = row < (split == 0 ? COVERING_ROWS : TEST_COVERING_ROWS);
    for (size_t category = 0; category < CATEGORIES; category++) {
        size_t count = categories[category].count - (split == 1 && category == CATEGORIES - 1);
        example->values[category] = covering ? (size_t)(row % count)
                                             : common_value(&random, category);
    }
    example->age = 17 + (int)random_below(&random, 40) + (int)random_below(&random, 34);
    example->weight = 19000 + (long)random_below(&random, 200000) + (long)random_below(&random, 200000);
    example->education_number = (int)example->values[1] + 1;
    example->gain = random_below(&random, 12) == 0 ? gains[random_below(&random, COUNT(gains))] : 0;
    example->loss = random_below(&random, 20) == 0 ? losses[random_below(&random, COUNT(losses))] : 0;
    example->hours = random_below(&random, 2) == 0 ? 40 : 1 + (int)random_below(&random, 99);
    example->above = random_below(&random, 4) == 0;
}

static void row_write(FILE *file, const struct adult_example *example, size_t split,
                      const char *const *fields)
{
    fprintf(file, "%d, %s, %ld, %s, %d, %s, %s, %s, %s, %s, %d, %d, %d, %s, %s%s\n", example->age,
            fields[0], example->weight, fields[1], example->education_number, fields[2],
            fields[3], fields[4], fields[5], fields[6], example->gain, example->loss,
            example->hours, fields[7], example->above ? ">50K" : "<=50K", split == 1 ? "." : "");
}

static void example_write(FILE *file, const struct adult_example *example, size_t split)
{
    const char *fields[CATEGORIES];
    for (size_t category = 0; category < CATEGORIES; category++)
        fields[category] = categories[category].values[example->values[category]];
    row_write(file, example, split, fields);
}

/* A row with missing values, as the real files have: no workclass and occupation, a worker who
   never worked without an occupation, or no native country. */
static void missing_write(FILE *file, struct adult_example *example, size_t split, uint64_t kind)
{
    const char *fields[CATEGORIES];
    for (size_t category = 0; category < CATEGORIES; category++)
        fields[category] = categories[category].values[example->values[category]];
    if (kind == 2) {
        fields[7] = "?";
    } else {
        fields[0] = kind == 0 ? "?" : "Never-worked";
        fields[3] = "?";
    }
    row_write(file, example, split, fields);
}

static int split_write(const struct fixture_request *request, const char *directory, size_t split)
{
    char path[4096];
    fixture_file_path(request, split == 0 ? ADULT_TRAIN : ADULT_TEST, directory, path, sizeof path);
    FILE *file = fopen(path, "w");
    if (file == NULL)
        return error_set(EXIT_WRITE, "cannot write: %s: %s", path, error_system_reason());
    if (split == 1)
        fputs("|" FIXTURE_MARKER "\n", file);
    struct random_state missing;
    random_seed(&missing, request->seed, 2 + split);
    for (uint64_t row = 0; row < request->examples[split]; row++) {
        struct adult_example example;
        example_draw(request, split, row, &example);
        example_write(file, &example, split);
        if (random_below(&missing, 8) == 0)
            missing_write(file, &example, split, random_below(&missing, 3));
    }
    fputs(split == 1 ? "\n" : "|" FIXTURE_MARKER "\n", file);
    int failed = ferror(file);
    if (fclose(file) != 0 || failed)
        return error_set(EXIT_WRITE, "cannot write: %s: %s", path, error_system_reason());
    return EXIT_OK;
}

static int adult_write(const struct fixture_request *request, const char *directory)
{
    return fixture_write_splits(request, directory, 2, split_write);
}

const struct raw_fixture adult_fixture = {
    .dataset = &adult_dataset, .splits = splits, .split_count = 2, .write = adult_write,
    .minimum_examples = {COVERING_ROWS, TEST_COVERING_ROWS},
    .minimum_reason = "Python Fuel's convert_adult one-hot encodes each split over the values it "
                      "holds: train needs every value of each column, test every value but "
                      "Holand-Netherlands",
};
