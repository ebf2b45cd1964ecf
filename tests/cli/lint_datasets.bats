#!/usr/bin/env bats
# tests/lint/datasets: the built-in datasets are listed once, in downloaders/datasets.def; a list
# planted elsewhere (names, records, cards, a declaration by name) is flagged, a comment or a
# dataset's own definitions are not. tests/lint/dataset_facts: a string typed in both a dataset's
# converter and its fixture maker is flagged.

setup() {
    repo=$BATS_TEST_TMPDIR/repo
    mkdir -p "$repo/tests/lint" "$repo/downloaders" "$repo/cmd"
    cp "$BATS_TEST_DIRNAME/../lint/datasets" "$BATS_TEST_DIRNAME/../lint/dataset_facts" \
        "$repo/tests/lint/"
    cp "$BATS_TEST_DIRNAME"/../../downloaders/*.c "$BATS_TEST_DIRNAME/../../downloaders/datasets.def" \
        "$repo/downloaders/"
    printf '/* fuel list: mnist, iris, svhn and adult, in a comment. */\nint list;\n' > "$repo/cmd/list.c"
    git -C "$repo" init -q
    git -C "$repo" add .
}

@test "the tree itself lists its datasets once" {
    run bash "$BATS_TEST_DIRNAME/../lint/datasets"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    [[ "$output" == "ok - the datasets are listed once, in downloaders/datasets.def ("*" files read)" ]]
}

@test "a copy of the tree with datasets named only in comments passes" {
    run bash "$repo/tests/lint/datasets"
    [ "$status" -eq 0 ]
    [[ "$output" == "ok - the datasets are listed once, in downloaders/datasets.def ("*" files read)" ]]
}

@test "three dataset names in a string are a list" {
    printf 'const char *help = "datasets: mnist, iris, svhn";\n' > "$repo/cmd/help.c"
    run bash "$repo/tests/lint/datasets"
    [ "$status" -eq 1 ]
    [ "$output" = "not ok - cmd/help.c names 3 datasets (iris mnist svhn): derive the list from downloaders/datasets.def" ]
}

@test "the records of three datasets are a list; two are one dataset's own" {
    printf 'const void *two[] = {&mnist_dataset, &fashion_mnist_converter};\n' > "$repo/cmd/two.c"
    printf 'const void *all[] = {&mnist_dataset, &iris_dataset, &adult_fixture};\n' > "$repo/cmd/all.c"
    run bash "$repo/tests/lint/datasets"
    [ "$status" -eq 1 ]
    [ "$output" = "not ok - cmd/all.c lists the records of 3 datasets (adult iris mnist): derive the list from downloaders/datasets.def" ]
}

@test "a dataset's converter declared by its name is a second list" {
    printf 'extern const struct converter iris_converter;\n' > "$repo/cmd/extern.c"
    run bash "$repo/tests/lint/datasets"
    [ "$status" -eq 1 ]
    [ "$output" = "not ok - cmd/extern.c declares iris_converter by name (declare them all from the list): derive the list from downloaders/datasets.def" ]
}

@test "a list of cards is a list; a file defining several cards, each under its name, is not" {
    printf 'const struct dataset_card mnist_card = {.dataset = "mnist"};\nconst struct dataset_card iris_card = {.dataset = "iris"};\nconst struct dataset_card adult_card = {.dataset = "adult"};\n' > "$repo/cmd/cards.c"
    run bash "$repo/tests/lint/datasets"
    [ "$status" -eq 0 ]
    printf 'static const void *const cards[] = {&mnist_card, &iris_card, &adult_card};\n' > "$repo/cmd/list.c"
    run bash "$repo/tests/lint/datasets"
    [ "$status" -eq 1 ]
    [ "$output" = "not ok - cmd/list.c lists the records of 3 datasets (adult iris mnist): derive the list from downloaders/datasets.def" ]
}

@test "a Makefile naming three datasets outside its comments is flagged" {
    printf '# mnist iris svhn\nall:\n' > "$repo/Makefile"
    run bash "$repo/tests/lint/datasets"
    [ "$status" -eq 0 ]
    printf 'SETS = mnist iris svhn\n' > "$repo/Makefile"
    run bash "$repo/tests/lint/datasets"
    [ "$status" -eq 1 ]
    [ "$output" = "not ok - Makefile names 3 datasets (iris mnist svhn): derive the list from downloaders/datasets.def" ]
}

@test "a raw file's fact typed in both a converter and its fixture maker is flagged" {
    run bash "$BATS_TEST_DIRNAME/../lint/dataset_facts"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    [[ "$output" == "ok - no fact of "*" datasets typed in both its converter and its fixture maker" ]]
    mkdir -p "$repo/converters" "$repo/fixtures"
    printf '#include "downloaders/cifar100.h"\n/* "coarse_labels" */\nconst char *key = "fine_labels", *split = "train";\n' \
        > "$repo/converters/cifar100.c"
    printf '#include "downloaders/cifar100.h"\nconst char *keys[] = {"fine_labels", "coarse_labels", "train"};\n' \
        > "$repo/fixtures/cifar.c"
    printf 'const char *key = "fine_labels";\n' > "$repo/fixtures/stroke_pictures.c"
    git -C "$repo" add .
    run bash "$repo/tests/lint/dataset_facts"
    [ "$status" -eq 1 ]
    [ "$output" = 'not ok - "fine_labels" is typed in converters/cifar100.c fixtures/cifar.c: write it once, in downloaders/
not ok - "train" is typed in converters/cifar100.c fixtures/cifar.c: write it once, in downloaders/' ]
}

@test "a printf format alone in both is not a fact; a one-letter name is" {
    mkdir -p "$repo/converters" "$repo/fixtures"
    printf 'const char *line = "%%s: %%zu", *source = "y";
' > "$repo/converters/iris.c"
    printf 'const char *line = "%%s: %%zu", *source = "y";
' > "$repo/fixtures/iris.c"
    git -C "$repo" add .
    run bash "$repo/tests/lint/dataset_facts"
    [ "$status" -eq 1 ]
    [ "$output" = 'not ok - "y" is typed in converters/iris.c fixtures/iris.c: write it once, in downloaders/' ]
}
