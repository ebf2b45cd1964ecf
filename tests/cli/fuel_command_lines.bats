#!/usr/bin/env bats
# Python Fuel 0.2's command lines, as its documentation gives them and as its fill_subparsers
# accept them, run in fuel with the same meaning: a table of invocations, each run as written
# (the raw files served from fuel fixture --raw output through FUEL_MIRROR, offline).

bats_require_minimum_version 1.5.0

# fuel-download ARGUMENTS | the fixture whose files they fetch. Fuel's celeba takes no format:
# both formats convert from the same two files.
DOWNLOADS=(
    "adult|adult"
    "binarized_mnist|binarized_mnist"
    "caltech101_silhouettes 16|caltech101_silhouettes 16"
    "caltech101_silhouettes 28|caltech101_silhouettes 28"
    "celeba|celeba 64"
    "cifar10|cifar10"
    "cifar100|cifar100"
    "dogs_vs_cats|dogs_vs_cats"
    "ilsvrc2010|ilsvrc2010"
    "iris|iris"
    "mnist|mnist"
    "svhn 1|svhn 1"
    "svhn 2|svhn 2"
)

# fuel-convert ARGUMENTS | the fixture they convert | the file Fuel names.
CONVERTS=(
    "adult|adult|adult.hdf5"
    "binarized_mnist|binarized_mnist|binarized_mnist.hdf5"
    "caltech101_silhouettes 16|caltech101_silhouettes 16|caltech101_silhouettes16.hdf5"
    "caltech101_silhouettes 28|caltech101_silhouettes 28|caltech101_silhouettes28.hdf5"
    "celeba aligned_cropped|celeba aligned_cropped|celeba_aligned_cropped.hdf5"
    "celeba 64|celeba 64|celeba_64.hdf5"
    "cifar10|cifar10|cifar10.hdf5"
    "cifar100|cifar100|cifar100.hdf5"
    "dogs_vs_cats|dogs_vs_cats|dogs_vs_cats.hdf5"
    "ilsvrc2010|ilsvrc2010|ilsvrc2010.hdf5"
    "ilsvrc2010 --shuffle-seed 7|ilsvrc2010|ilsvrc2010.hdf5"
    "iris|iris|iris.hdf5"
    "mnist|mnist|mnist.hdf5"
    "mnist --dtype float32|mnist|mnist_float32.hdf5"
    "mnist --dtype float64|mnist|mnist_float64.hdf5"
    "mnist --dtype bool|mnist|mnist_bool.hdf5"
    "svhn 1|svhn 1|svhn_format_1.hdf5"
    "svhn 2|svhn 2|svhn_format_2.hdf5"
)

setup() {
    export HOME="$BATS_TEST_TMPDIR/home" FUEL_CONFIG=/dev/null
    unset FUEL_DATA_PATH FUEL_MIRROR FUEL_EXTRA_DOWNLOADERS FUEL_EXTRA_CONVERTERS
    mkdir -p "$HOME"
    FIXTURES="$BATS_TEST_TMPDIR/fixtures"
}

# fixture WORDS: the directory of WORDS's raw fixture, 2 examples a split (written once a test).
fixture() {
    local words="$*"
    local directory="$FIXTURES/${words// /_}"
    if [ ! -d "$directory" ]; then
        mkdir -p "$directory"
        local counts=(-n 2)
        if [ "$1" = adult ]; then
            counts=() # its default: the fewest it takes
        fi
        # shellcheck disable=SC2068
        fuel-fixture $@ --raw "${counts[@]}" -o "$directory" > /dev/null
    fi
    echo "$directory"
}

# raw_names DIRECTORY: the raw files of a fixture directory, as its MD5SUMS lists them.
raw_names() {
    sed 's/^[0-9a-f]*  //' "$1/MD5SUMS"
}

@test "fuel-download NAME [FORMAT], in the current directory: the dataset's files, from the mirror" {
    for row in "${DOWNLOADS[@]}"; do
        IFS='|' read -r arguments words <<<"$row"
        local raw here="$BATS_TEST_TMPDIR/here/${arguments// /_}"
        raw=$(fixture $words)
        mkdir -p "$here"
        # shellcheck disable=SC2086
        run --separate-stderr env -C "$here" FUEL_MIRROR="file://$raw/" fuel-download $arguments
        # The fixture's files are not the published ones: checked, and refused when published.
        if [ "$status" -eq 0 ]; then
            for name in $(raw_names "$raw"); do
                cmp "$raw/$name" "$here/$name"
            done
        else
            [ "$status" -eq 6 ] || { echo "fuel-download $arguments: exit $status: $stderr"; false; }
            [[ "$stderr" =~ ^fuel-download:\ (checksum|size)\ mismatch:\ ([^:]*): ]]
            raw_names "$raw" | grep -qx "${BASH_REMATCH[2]}"
        fi
    done
}

@test "fuel-download NAME [FORMAT] -d DIR --clear removes exactly the dataset's files" {
    for row in "${DOWNLOADS[@]}"; do
        IFS='|' read -r arguments words <<<"$row"
        local raw target="$BATS_TEST_TMPDIR/clear"
        raw=$(fixture $words)
        rm -rf "$target"
        mkdir -p "$target"
        cp "$raw"/* "$target/"
        # shellcheck disable=SC2086
        run --separate-stderr fuel-download $arguments -d "$target" --clear
        [ "$status" -eq 0 ] || { echo "fuel-download $arguments --clear: $stderr"; false; }
        [ "$(ls "$target")" = MD5SUMS ] || { echo "$arguments: $(ls "$target")"; false; }
    done
}

@test "fuel-download's directory forms: -d DIR, --directory DIR, --directory=DIR; ilsvrc2010's -P" {
    local raw
    raw=$(fixture iris)
    for form in "-d $BATS_TEST_TMPDIR/a" "--directory $BATS_TEST_TMPDIR/b" "--directory=$BATS_TEST_TMPDIR/c"; do
        # shellcheck disable=SC2086
        FUEL_MIRROR="file://$raw/" fuel-download iris $form 2> /dev/null
    done
    for directory in a b c; do
        cmp "$raw/iris.data" "$BATS_TEST_TMPDIR/$directory/iris.data"
    done
    # ImageNet publishes no checksums: the files are fetched from the prefix Fuel's -P gives.
    raw=$(fixture ilsvrc2010)
    for form in -P --url-prefix; do
        fuel-download ilsvrc2010 "$form" "file://$raw/" -d "$BATS_TEST_TMPDIR/$form" 2> /dev/null
        for name in $(raw_names "$raw"); do
            cmp "$raw/$name" "$BATS_TEST_TMPDIR/$form/$name"
        done
    done
}

@test "fuel-convert NAME [FORMAT] [OPTIONS] in the input directory: Fuel's file name, beside them" {
    for row in "${CONVERTS[@]}"; do
        IFS='|' read -r arguments words file <<<"$row"
        local raw here="$BATS_TEST_TMPDIR/convert"
        raw=$(fixture $words)
        rm -rf "$here"
        cp -r "$raw" "$here"
        # shellcheck disable=SC2086
        run --separate-stderr env -C "$here" fuel-convert $arguments
        [ "$status" -eq 0 ] || { echo "fuel-convert $arguments: $stderr"; false; }
        [ -f "$here/$file" ] || { echo "fuel-convert $arguments: $(ls "$here")"; false; }
        run fuel-info "$here/$file"
        [ "$status" -eq 0 ]
        [[ "$output" == *"Metadata for $file"* ]]
        [[ "$output" == *$'The command used to generate this file is\n\n'*" fuel-convert $arguments"$'\n'* ]]
    done
}

@test "fuel-convert NAME -d DIR -o OUTDIR, --directory and --output-directory, options anywhere" {
    local raw out="$BATS_TEST_TMPDIR/out"
    mkdir -p "$out"
    for row in "${CONVERTS[@]}"; do
        IFS='|' read -r arguments words file <<<"$row"
        raw=$(fixture $words)
        # shellcheck disable=SC2086
        run --separate-stderr fuel-convert $arguments -d "$raw" -o "$out"
        [ "$status" -eq 0 ] || { echo "fuel-convert $arguments -d: $stderr"; false; }
        [ -f "$out/$file" ]
        rm "$out/$file"
    done
    raw=$(fixture svhn 2)
    fuel-convert svhn --directory "$raw" --output-directory "$out" 2 > /dev/null
    fuel-convert svhn -d "$raw" 2 -o "$out/" > /dev/null
    [ -f "$out/svhn_format_2.hdf5" ]
    raw=$(fixture mnist)
    fuel-convert mnist --dtype=float32 --directory="$raw" --output-directory="$out" > /dev/null
    [ -f "$out/mnist_float32.hdf5" ]
}

@test "-h at every level, as Fuel's argparse gives it: the datasets, then each one's arguments" {
    for command in fuel-download fuel-convert fuel-info; do
        run --separate-stderr "$command" -h
        [ "$status" -eq 0 ]
        [[ "${lines[0]}" == "usage: $command"* ]]
    done
    for row in "${DOWNLOADS[@]}"; do
        IFS='|' read -r arguments _ <<<"$row"
        # shellcheck disable=SC2086
        run --separate-stderr fuel-download $arguments -h
        [ "$status" -eq 0 ] || { echo "fuel-download $arguments -h: $stderr"; false; }
        [[ "${lines[0]}" == "usage: fuel-download ${arguments%% *}"* ]]
    done
    for row in "${CONVERTS[@]}"; do
        IFS='|' read -r arguments _ <<<"$row"
        # shellcheck disable=SC2086
        run --separate-stderr fuel-convert ${arguments%% --*} -h
        [ "$status" -eq 0 ] || { echo "fuel-convert $arguments -h: $stderr"; false; }
        [[ "${lines[0]}" == "usage: fuel-convert ${arguments%% *}"* ]]
    done
}
