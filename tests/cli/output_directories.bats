#!/usr/bin/env bats
# Every command creates its output directory (-o, -d) as mkdir -p does; the README's CI example runs.

bats_require_minimum_version 1.5.0

setup() {
    export HOME="$BATS_TEST_TMPDIR/home" FUEL_CONFIG="$BATS_TEST_TMPDIR/empty-fuelrc"
    : >"$FUEL_CONFIG"
    export SOURCE_DATE_EPOCH=1700000000
    mkdir -p "$HOME"
    cd "$BATS_TEST_TMPDIR"
}

@test "fixture, convert, download, export, preview and fixture --from create missing directories" {
    run --separate-stderr fuel fixture mnist -o a/b -n 2
    [ "$status" -eq 0 ]
    [ -s a/b/mnist.hdf5 ]
    run --separate-stderr fuel fixture mnist --raw -o raw/x
    [ "$status" -eq 0 ]
    [ -s raw/x/MD5SUMS ]
    run --separate-stderr fuel download mnist --url-prefix "file://$PWD/raw/x/" --checksums raw/x/MD5SUMS -d dl/y -q
    [ "$status" -eq 0 ]
    [ -s dl/y/train-images-idx3-ubyte.gz ]
    run --separate-stderr fuel convert mnist -d dl/y -o c/d -q
    [ "$status" -eq 0 ]
    [ "$output" = "c/d/mnist.hdf5" ]
    run --separate-stderr fuel export a/b/mnist.hdf5 --to npy -o e/f -q
    [ "$status" -eq 0 ]
    [ -s e/f/mnist_train_features.npy ]
    run --separate-stderr fuel preview a/b/mnist.hdf5 -o p/q/grid.png
    [ "$status" -eq 0 ]
    [ -s p/q/grid.png ]
    run --separate-stderr fuel fixture --from a/b/mnist.hdf5 -n 1 -o g/h
    [ "$status" -eq 0 ]
    [ -s g/h/mnist.hdf5 ]
}

@test "a directory that cannot be created: exit 7, one line naming what is in the way" {
    touch plain
    run --separate-stderr fuel fixture mnist -o plain/sub -n 2
    [ "$status" -eq 7 ]
    [ "$stderr" = "fuel-fixture: cannot create directory: plain: not a directory" ]
    run --separate-stderr fuel preview "$FUEL_FIXTURES/expected/mnist.hdf5" -o plain/sub/grid.png
    [ "$status" -eq 7 ]
    [ "$stderr" = "fuel-preview: cannot create directory: plain: not a directory" ]
    [ ! -e plain/sub ]
}

@test "the README's GitHub Actions jobs run as written, each in a checkout of its own" {
    readme="$BATS_TEST_DIRNAME/../../README.md"
    # Each job's fuel commands, in order, as a CI job would run them, in a directory of its own.
    for job in fixture pipeline; do
        mkdir "$job"
        sed -n '/^jobs:/,/^```/p' "$readme" | awk -v job="  $job:" '
            $0 == job { on = 1; next } /^  [a-z_]+:$/ { on = 0 } on' |
            sed -n 's/^ *\(- run: \)\{0,1\}\(fuel .*\)$/\2/p' > "$job/commands"
        (cd "$job" && while IFS= read -r command; do
            eval "$command" || { echo "failed in $job: $command"; exit 1; }
        done < commands)
        [ -s "$job/tests/data/mnist.hdf5" ]
        run fuel info --check "$job/tests/data/mnist.hdf5"
        [ "$status" -eq 0 ]
    done
    [ "$(wc -l < fixture/commands)" -eq 1 ]
    [ "$(wc -l < pipeline/commands)" -eq 3 ]
    [ -s pipeline/raw/train-images-idx3-ubyte.gz ]
    # Both files say first that they hold fixture data.
    for job in fixture pipeline; do
        run fuel info "$job/tests/data/mnist.hdf5"
        [[ "${lines[0]}" == "THIS IS A FIXTURE"* ]] || { echo "$job: ${lines[0]}"; false; }
    done
}

@test "the README's first command runs as written once fuel is built" {
    readme="$BATS_TEST_DIRNAME/../../README.md"
    command=$(sed -n 's|^    bash scripts/setup && make && \(build/fuel convert .*\)$|\1|p' "$readme")
    [ -n "$command" ]
    command=${command//build\/fuel/fuel}
    command=${command//\/tmp/$BATS_TEST_TMPDIR}
    run eval "$command"
    [ "$status" -eq 0 ]
    [ -s "$BATS_TEST_TMPDIR/fashion_mnist.hdf5" ]
    [[ "$output" == *"fashion_mnist.hdf5"* ]]
    grep -q "^    bash scripts/setup && make check$" "$readme"
}
