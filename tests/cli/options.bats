#!/usr/bin/env bats
# The one option parser (cmd/parse_options) as every command sees it: --name=value, --name value,
# -xVALUE, -x VALUE, clustered flags, --, -h anywhere, and one usage-error line for all.

bats_require_minimum_version 1.5.0

setup() {
    export HOME="$BATS_TEST_TMPDIR/home" FUEL_CONFIG="$BATS_TEST_TMPDIR/empty-fuelrc"
    : >"$FUEL_CONFIG"
    unset FUEL_MIRROR FUEL_DATA_PATH FUEL_EXTRA_CONVERTERS FUEL_EXTRA_DOWNLOADERS
    mkdir -p "$HOME"
    DIR="$BATS_TEST_TMPDIR/target"
}

# The destination column of fuel-download --print-urls for ARGUMENTS, one per line.
destinations() {
    fuel download "$@" --print-urls | cut -f 2 | xargs -n 1 dirname | sort -u
}

@test "a value: --name=value, --name value, -xVALUE, -x VALUE, and after clustered flags" {
    [ "$(destinations mnist --directory="$DIR")" = "$DIR" ]
    [ "$(destinations mnist --directory "$DIR")" = "$DIR" ]
    [ "$(destinations mnist -d"$DIR")" = "$DIR" ]
    [ "$(destinations mnist -d "$DIR")" = "$DIR" ]
    [ "$(destinations -qd "$DIR" mnist)" = "$DIR" ]
    [ "$(destinations -qd"$DIR" mnist)" = "$DIR" ]
    run fuel download mnist -j4 --print-urls
    [ "$status" -eq 0 ]
    run fuel download mnist -j 4 --jobs=3 --jobs 2 --print-urls
    [ "$status" -eq 0 ]
}

@test "a number out of its bounds is refused whichever way it is given, named as typed" {
    for arguments in "-j0" "-j 0" "--jobs=0" "--jobs 0"; do
        run --separate-stderr fuel download mnist $arguments
        [ "$status" -eq 2 ]
        name=${arguments%%[ =0]*}
        [ "$stderr" = "fuel-download: invalid $name: 0: expected a whole number from 1 to 64; see 'fuel-download -h'" ]
    done
    run --separate-stderr fuel fetch mnist --retries=2.5
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-fetch: invalid --retries: 2.5: expected a whole number from 0 to 100; see 'fuel-fetch -h'" ]
    run --separate-stderr fuel fetch mnist --timeout soon
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-fetch: invalid --timeout: soon: expected a number from 0.001 to 86400; see 'fuel-fetch -h'" ]
}

@test "-- ends the options: what follows is an argument even when it starts with -" {
    run --separate-stderr fuel path -- --json
    [ "$status" -eq 3 ]
    [[ "$stderr" == "fuel-path: "*"--json"* ]]
    run --separate-stderr fuel path --json -- -d
    [ "$status" -eq 3 ]
    [[ "$stderr" == "fuel-path: "*"-d"* ]]
}

@test "one usage-error line for every command: unknown option, missing value, value on a flag" {
    for command in download info list path cache clean completion; do
        run --separate-stderr fuel "$command" --bogus
        [ "$status" -eq 2 ]
        [ "$stderr" = "fuel-$command: unknown option: --bogus; see 'fuel-$command -h'" ]
        run --separate-stderr "fuel-$command" -Z
        [ "$status" -eq 2 ]
        [ "$stderr" = "fuel-$command: unknown option: -Z; see 'fuel-$command -h'" ]
    done
    # convert and fetch pass unknown options to the dataset, which refuses them the same way.
    for command in convert fetch; do
        run --separate-stderr fuel "$command" mnist --bogus=1
        [ "$status" -eq 2 ]
        [ "$stderr" = "fuel-$command: unknown option: --bogus; see 'fuel-$command -h'" ]
        run --separate-stderr fuel "$command"
        [ "$status" -eq 2 ]
        [ "$stderr" = "fuel-$command: missing dataset name; see 'fuel-$command -h'" ]
    done
    run --separate-stderr fuel list --json=yes
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-list: option --json takes no value; see 'fuel-list -h'" ]
    run --separate-stderr fuel download mnist -d
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-download: option -d needs a value; see 'fuel-download -h'" ]
    run --separate-stderr fuel convert mnist --dtype
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-convert: option --dtype needs a value; see 'fuel-convert -h'" ]
}

@test "-h anywhere shows the help, the dataset named before or after it included" {
    run --separate-stderr fuel download mnist -h
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "usage: fuel-download mnist [-d DIR] [--clear] [--url-prefix PREFIX] [options]" ]
    run --separate-stderr fuel download -h mnist
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "usage: fuel-download mnist [-d DIR] [--clear] [--url-prefix PREFIX] [options]" ]
    run --separate-stderr fuel convert --help svhn 2
    [ "$status" -eq 0 ]
    [[ "${lines[0]}" == "usage: fuel-convert svhn 2 "* ]]
}

@test "every command answers an unknown option before -h, wherever each stands: one line, exit 2" {
    for command in download convert info list path fetch cache clean fixture completion export \
        preview serve stats; do
        for order in "--bogus -h" "-h --bogus"; do
            # shellcheck disable=SC2086
            run --separate-stderr fuel "$command" $order
            [ "$status" -eq 2 ] || { echo "$command $order: $status"; false; }
            [ -z "$output" ]
            [ "$stderr" = "fuel-$command: unknown option: --bogus; see 'fuel-$command -h'" ]
        done
    done
    run --separate-stderr fuel convert mnist -h --dtype int7
    [ "$status" -eq 2 ]
    [ -z "$output" ]
    [ "$stderr" = "fuel-convert: invalid --dtype: int7; expected one of uint8, float32, float64, bool" ]
}

@test "-h is generated from the table: each option with its value name and help" {
    run fuel fetch -h
    [ "$status" -eq 0 ]
    [[ "$output" == *"  -j, --jobs N               transfers at once (default 4)"* ]]
    [[ "$output" == *"  --retry-delay SECONDS      pause before the first retry, doubled each time (default 1)"* ]]
    [[ "$output" == *"  -h, --help                 show this help and exit"* ]]
    run fuel download -h
    [[ "$output" == *"  -j, --jobs N               transfers at once (default 4)"* ]]
    run fuel clean -h
    [[ "$output" == *"  -d, --directory DIR        look in DIR (may be given several times)"* ]]
}

@test "fuel-convert's aliases: --output_directory and --output-directory, -r and --output-filename" {
    raw=$FUEL_FIXTURES/raw/mnist
    mkdir "$DIR"
    run fuel convert iris -d "$FUEL_FIXTURES/raw/iris" --output_directory="$DIR" --output-filename a
    [ "$status" -eq 0 ]
    [ "$output" = "$DIR/a.hdf5" ]
    run fuel convert mnist -d "$raw" --output-directory "$DIR" -rb.h5
    [ "$status" -eq 0 ]
    [ "$output" = "$DIR/b.h5" ]
}

@test "CMD -h shows the command's own options before a dataset is named, and the dataset's after" {
    run --separate-stderr fuel convert -h
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "usage: fuel-convert [-h] DATASET [FORMAT] [-d DIR] [-o OUTDIR] [-r NAME] [--threads N] [-q] [-v] [options] [DATASET OPTIONS]" ]
    [[ "$output" == *"
options:
  -d, --directory DIR        where the input files are (default: .)
  -o, --output-directory OUTDIR
                             where to write the output (default: .)
"*"
  --threads N                worker threads of the conversion (default: the online CPUs)
"*"
datasets:
"* ]]
    [[ "$output" != *"--dtype"* ]]
    run --separate-stderr fuel convert mnist -h
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "usage: fuel-convert mnist [-d DIR] [-o OUTDIR] [-r NAME] [--threads N] [-q] [-v] [options] [--dtype {uint8,float32,float64,bool}]" ]
    [[ "$output" == *"
  -d, --directory DIR        where the input files are (default: .)
"*"
options of mnist:
  --dtype {uint8,float32,float64,bool}
"* ]]
    # The output named with the dataset options given.
    run --separate-stderr fuel convert mnist --dtype float32 -h
    [[ "$output" == *"
output (in OUTDIR): mnist_float32.hdf5
"* ]]
    for command in fetch fixture; do
        run --separate-stderr fuel "$command" -h
        [ "$status" -eq 0 ]
        [[ "$output" == *"
options:
"* ]]
        [[ "$output" != *"options of"* ]]
        run --separate-stderr fuel "$command" fashion_mnist -h
        [ "$status" -eq 0 ]
        [[ "$output" == *"
options of fashion_mnist:
  --dtype {uint8,float32,float64,bool}
"* ]]
    done
    run --separate-stderr fuel fetch -h
    [[ "$output" == *"  -d, --directory DIR        where the files go"* ]]
    run --separate-stderr fuel fixture -h
    [[ "$output" == *"  -o, --output-directory DIR where to write, a directory or s3://BUCKET/PREFIX (default: .)"* ]]
}

@test "a dataset option is an ordinary option of the dataset: any order, --name=value, one error format" {
    mkdir "$DIR"
    raw=$FUEL_FIXTURES/raw/mnist
    run --separate-stderr fuel convert --dtype=float64 -d "$raw" mnist -o "$DIR"
    [ "$status" -eq 0 ]
    [ "$output" = "$DIR/mnist_float64.hdf5" ]
    run --separate-stderr fuel convert -d "$raw" --dtype bool -o "$DIR" -q mnist
    [ "$status" -eq 0 ]
    [ "$output" = "$DIR/mnist_bool.hdf5" ]
    run --separate-stderr fuel convert iris --dtype float32
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-convert: unknown option: --dtype; see 'fuel-convert -h'" ]
    run --separate-stderr fuel convert mnist --dtype=float32=x
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-convert: invalid --dtype: float32=x; expected one of uint8, float32, float64, bool" ]
}
