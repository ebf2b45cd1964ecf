#!/usr/bin/env bats
# The config file and the data path as commands see them: ~/.fuelrc, FUEL_CONFIG, FUEL_DATA_PATH,
# lookups by name through fuel-info, and the one-line error of a malformed or unreadable config.

bats_require_minimum_version 1.5.0

setup() {
    export HOME="$BATS_TEST_TMPDIR/home"
    mkdir -p "$HOME" "$BATS_TEST_TMPDIR/first" "$BATS_TEST_TMPDIR/second" "$BATS_TEST_TMPDIR/work"
    unset FUEL_CONFIG FUEL_DATA_PATH FUEL_LOCAL_DATA_PATH FUEL_EXTRA_DOWNLOADERS \
        FUEL_EXTRA_CONVERTERS FUEL_MIRROR
    cp "$FUEL_FIXTURES/expected/iris.hdf5" "$BATS_TEST_TMPDIR/first/data.hdf5"
    cp "$FUEL_FIXTURES/expected/mnist.hdf5" "$BATS_TEST_TMPDIR/second/data.hdf5"
    cp "$FUEL_FIXTURES/expected/mnist.hdf5" "$BATS_TEST_TMPDIR/second/only-second.hdf5"
    cd "$BATS_TEST_TMPDIR/work"
}

# The file fuel-info resolved NAME to.
resolved() {
    fuel info --json "$1" | sed -n 's/^  "file": "\(.*\)",$/\1/p'
}

@test "a name is found in the first directory of data_path in ~/.fuelrc that holds it" {
    printf 'data_path: %s:%s:%s\n' "$BATS_TEST_TMPDIR/missing" "$BATS_TEST_TMPDIR/first" \
        "$BATS_TEST_TMPDIR/second" >"$HOME/.fuelrc"
    [ "$(resolved data.hdf5)" = "$BATS_TEST_TMPDIR/first/data.hdf5" ]
    [ "$(resolved only-second.hdf5)" = "$BATS_TEST_TMPDIR/second/only-second.hdf5" ]
    run --separate-stderr fuel info data.hdf5
    [ "$status" -eq 0 ]
    [[ "$output" == *"fuel-convert iris"* ]]
}

@test "data_path as a YAML list, with ~ standing for HOME" {
    mkdir -p "$HOME/datasets"
    cp "$FUEL_FIXTURES/expected/iris.hdf5" "$HOME/datasets/home.hdf5"
    printf 'data_path:\n  - ~/datasets\n  - %s\n' "$BATS_TEST_TMPDIR/second" >"$HOME/.fuelrc"
    [ "$(resolved home.hdf5)" = "$HOME/datasets/home.hdf5" ]
    [ "$(resolved data.hdf5)" = "$BATS_TEST_TMPDIR/second/data.hdf5" ]
}

@test "FUEL_DATA_PATH overrides data_path of the file" {
    printf 'data_path: %s\n' "$BATS_TEST_TMPDIR/first" >"$HOME/.fuelrc"
    export FUEL_DATA_PATH="$BATS_TEST_TMPDIR/second"
    [ "$(resolved data.hdf5)" = "$BATS_TEST_TMPDIR/second/data.hdf5" ]
}

@test "FUEL_CONFIG names the file read instead of ~/.fuelrc" {
    printf 'data_path: %s\n' "$BATS_TEST_TMPDIR/first" >"$HOME/.fuelrc"
    printf 'data_path: %s\n' "$BATS_TEST_TMPDIR/second" >"$BATS_TEST_TMPDIR/other.yaml"
    export FUEL_CONFIG="$BATS_TEST_TMPDIR/other.yaml"
    [ "$(resolved data.hdf5)" = "$BATS_TEST_TMPDIR/second/data.hdf5" ]
}

@test "a path to an existing file is used as it is, whatever the data path" {
    export FUEL_DATA_PATH="$BATS_TEST_TMPDIR/second"
    cp "$FUEL_FIXTURES/expected/iris.hdf5" data.hdf5
    [ "$(resolved data.hdf5)" = "data.hdf5" ]
}

@test "a name in no directory of the data path: exit 3 naming the directories searched" {
    export FUEL_DATA_PATH="$BATS_TEST_TMPDIR/first:$BATS_TEST_TMPDIR/second"
    run --separate-stderr fuel info absent.hdf5
    [ "$status" -eq 3 ]
    [ -z "$output" ]
    [ "$stderr" = "fuel-info: no such file: absent.hdf5, nor in the data path: searched $BATS_TEST_TMPDIR/first, $BATS_TEST_TMPDIR/second" ]
}

@test "a name with an empty data path: exit 3 saying how to set it" {
    run --separate-stderr fuel info absent
    [ "$status" -eq 3 ]
    [ "$stderr" = "fuel-info: not found: absent: the data path is empty; set data_path in ~/.fuelrc or FUEL_DATA_PATH (directories separated by ':') (also looked for absent.hdf5)" ]
}

@test "a file name that does not exist: no such file, no data path advice" {
    for missing in absent.hdf5 sub/absent nonexist.h5; do
        run --separate-stderr fuel info "$missing"
        [ "$status" -eq 3 ]
        [ "$stderr" = "fuel-info: no such file: $missing" ]
    done
    export FUEL_DATA_PATH="$BATS_TEST_TMPDIR/first"
    run --separate-stderr fuel info absent.hdf5
    [ "$status" -eq 3 ]
    [ "$stderr" = "fuel-info: no such file: absent.hdf5, nor in the data path: searched $BATS_TEST_TMPDIR/first" ]
}

@test "a malformed config: exit 2, one line naming the file and the line" {
    printf 'data_path: %s\n\nmirrors: [http://a/, http://b/\nmirror: x\n' \
        "$BATS_TEST_TMPDIR/first" >"$HOME/.fuelrc"
    run --separate-stderr fuel info data.hdf5
    [ "$status" -eq 2 ]
    [ -z "$output" ]
    [ "${#stderr_lines[@]}" -eq 1 ]
    [ "$stderr" = "fuel-info: malformed config: $HOME/.fuelrc:4: did not find expected ',' or ']' while parsing a flow sequence" ]
}

@test "a two-line config with an unclosed quote: reported at the line where it began" {
    printf 'data_path: "/a\nmirror: x\n' >"$HOME/.fuelrc"
    run --separate-stderr fuel info data.hdf5
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-info: malformed config: $HOME/.fuelrc:1: found unexpected end of stream while scanning a quoted scalar" ]
}

@test "FUEL_CONFIG naming no file: exit 3 naming it, not the settings of ~/.fuelrc" {
    printf 'data_path: %s\n' "$BATS_TEST_TMPDIR/first" >"$HOME/.fuelrc"
    export FUEL_CONFIG="$BATS_TEST_TMPDIR/nonexist"
    run --separate-stderr fuel info data.hdf5
    [ "$status" -eq 3 ]
    [ -z "$output" ]
    [ "$stderr" = "fuel-info: config file not found: $BATS_TEST_TMPDIR/nonexist: named by FUEL_CONFIG" ]
    # /dev/null is the way to say none; the advice then names FUEL_CONFIG, not ~/.fuelrc.
    export FUEL_CONFIG=/dev/null
    run --separate-stderr fuel info absent
    [ "$status" -eq 3 ]
    [[ "$stderr" != *".fuelrc"* ]]
}

@test "an unknown key or a key of the wrong type in the config: exit 2 naming the line" {
    printf 'data_path: /a\nlocal_data_path: /b\ndatapath: /c\n' >"$BATS_TEST_TMPDIR/bad.yaml"
    export FUEL_CONFIG="$BATS_TEST_TMPDIR/bad.yaml"
    run --separate-stderr fuel info data.hdf5
    [ "$status" -eq 2 ]
    [[ "$stderr" == "fuel-info: malformed config: $FUEL_CONFIG:3: unknown key 'datapath'; did you mean \`data_path\`? (known keys: "* ]]
    printf 'data_pth: /a\n' >"$BATS_TEST_TMPDIR/bad.yaml"
    run --separate-stderr fuel info data.hdf5
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-info: malformed config: $FUEL_CONFIG:1: unknown key 'data_pth'; did you mean \`data_path\`? (known keys: data_path, local_data_path, extra_downloaders, extra_converters, mirror, mirrors, default_seed, floatX)" ]
    printf 'data_path: /a\nmirror:\n  url: http://x/\n' >"$BATS_TEST_TMPDIR/bad.yaml"
    run --separate-stderr fuel info data.hdf5
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-info: malformed config: $FUEL_CONFIG:3: mirror: expected a string, found a mapping" ]
}

@test "a config that is a symlink loop cannot be read: exit 2" {
    ln -s "$BATS_TEST_TMPDIR/loop" "$BATS_TEST_TMPDIR/loop"
    export FUEL_CONFIG="$BATS_TEST_TMPDIR/loop"
    run --separate-stderr fuel info data.hdf5
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-info: cannot read config: $FUEL_CONFIG: Too many levels of symbolic links" ]
}
