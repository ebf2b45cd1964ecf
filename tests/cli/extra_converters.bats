#!/usr/bin/env bats
# Extra converters: executables fuel-convert-NAME in the extra_converters directories, run by
# fuel-convert into a temporary file that is checked, tagged and published, or discarded.

bats_require_minimum_version 1.5.0

PYTHON=/usr/bin/python3

setup() {
    export HOME=$BATS_TEST_TMPDIR/home FUEL_CONFIG=$BATS_TEST_TMPDIR/fuelrc
    : >"$FUEL_CONFIG"
    mkdir -p "$HOME"
    unset FUEL_EXTRA_DOWNLOADERS FUEL_EXTRA_CONVERTERS
    CONVERTERS=$BATS_TEST_TMPDIR/converters
    RAW=$BATS_TEST_TMPDIR/raw
    OUT=$BATS_TEST_TMPDIR/out
    mkdir -p "$CONVERTERS" "$RAW" "$OUT"
    cp "$FUEL_FIXTURES/raw/iris/iris.data" "$RAW/"
    export FUEL_EXTRA_CONVERTERS=$CONVERTERS
}

# Writes the POSIX shell script of stdin as the executable $CONVERTERS/fuel-convert-$1.
make_converter() {
    { echo '#!/bin/sh'; cat; } > "$CONVERTERS/fuel-convert-$1"
    chmod +x "$CONVERTERS/fuel-convert-$1"
}

# A converter that copies Fuel's iris file to FUEL_OUTPUT_FILE and lists DIR/iris.data as input.
make_copying_converter() {
    make_converter "$1" <<EOF
cp "$FUEL_FIXTURES/expected/iris.hdf5" "\$FUEL_OUTPUT_FILE"
chmod u+w "\$FUEL_OUTPUT_FILE"
echo "\$2/iris.data"
EOF
}

# The string root attribute $2 of the HDF5 file $1.
attribute() {
    $PYTHON -c 'import sys, h5py; v = h5py.File(sys.argv[1], "r").attrs[sys.argv[2]]
print(v.decode() if isinstance(v, bytes) else v)' "$1" "$2"
}

@test "-h lists extra converters with the built-ins; NAME -h adds the converter's own help" {
    make_converter toy <<'EOF'
[ "$1" = -h ] && echo "toy's own help: $*"
EOF
    run fuel-convert -h
    [ "$status" -eq 0 ]
    [[ "$output" == *"  mnist "* ]]
    [[ "$output" =~ toy\ +extra\ converter\ $CONVERTERS/fuel-convert-toy ]]
    run fuel-convert toy -h
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "usage: fuel-convert toy [-d DIR] [-o OUTDIR] [-r NAME] [--threads N] [-q] [-v] [options] [ARGUMENTS]" ]
    [ "${lines[-1]}" = "toy's own help: -h" ]
}

@test "a converter gets -d, -o, its arguments and FUEL_OUTPUT_FILE; the file is tagged and published" {
    make_converter toy <<EOF
printf '%s\n' "\$@" > "$BATS_TEST_TMPDIR/arguments"
printf '%s\n' "\$FUEL_OUTPUT_FILE" > "$BATS_TEST_TMPDIR/output"
cp "$FUEL_FIXTURES/expected/iris.hdf5" "\$FUEL_OUTPUT_FILE"
echo "\$2/iris.data"
echo
EOF
    cd "$BATS_TEST_TMPDIR"
    run --separate-stderr fuel-convert toy -d raw --flag value -o out last
    [ "$status" -eq 0 ]
    [ "$output" = "out/toy.hdf5" ]
    [ -z "$stderr" ]
    [ "$(cat arguments)" = "-d
raw
-o
out
--flag
value
last" ]
    [[ "$(cat output)" == out/.fuel-staging-toy.hdf5.??????/toy.hdf5 ]]
    [ ! -e "$(cat output)" ]
    [ "$(ls -A out)" = toy.hdf5 ]
    [ "$(attribute out/toy.hdf5 fuel_convert_command)" = "fuel-convert toy -d raw --flag value -o out last" ]
    [ "$(attribute out/toy.hdf5 h5py_interface_version)" = 0.3 ]
    [ "$(attribute out/toy.hdf5 fuel_convert_version)" = "$(fuel --version | head -n 1 | awk '{print $2}')" ]
    provenance=$(attribute out/toy.hdf5 fuel_provenance)
    sha=$(sha256sum < raw/iris.data | cut -d' ' -f1)
    [[ "$provenance" == *'"name": "iris.data"'* ]] || [[ "$provenance" == *'"name":"iris.data"'* ]]
    [[ "$provenance" == *"$sha"* ]]
    run fuel-info --check out/toy.hdf5
    [ "$status" -eq 0 ]
    run fuel-convert toy -d raw -o out -r custom
    [ "$status" -eq 0 ]
    [ "$output" = "out/custom.hdf5" ]
}

@test "a converter that fails: exit 4 with its exit code, nothing published, the old file kept" {
    make_converter toy <<EOF
cp "$FUEL_FIXTURES/expected/iris.hdf5" "\$FUEL_OUTPUT_FILE"
echo "it broke" >&2
exit 3
EOF
    echo previous > "$OUT/toy.hdf5"
    run fuel-convert toy -d "$RAW" -o "$OUT"
    [ "$status" -eq 4 ]
    [ "$output" = "it broke
fuel-convert: converter failed: $CONVERTERS/fuel-convert-toy exited with status 3; its output is discarded" ]
    [ "$(ls -A "$OUT")" = toy.hdf5 ]
    [ "$(cat "$OUT/toy.hdf5")" = previous ]
}

@test "a converter killed by a signal: exit 4 naming the signal, nothing left" {
    make_converter toy <<'EOF'
echo partial > "$FUEL_OUTPUT_FILE"
kill -KILL $$
EOF
    run fuel-convert toy -d "$RAW" -o "$OUT"
    [ "$status" -eq 4 ]
    [ "$output" = "fuel-convert: converter failed: $CONVERTERS/fuel-convert-toy was killed by signal 9; its output is discarded" ]
    [ -z "$(ls -A "$OUT")" ]
}

@test "a converter that writes an invalid file: one line per violation, exit 4, nothing published" {
    make_converter toy <<EOF
cp "$FUEL_FIXTURES/expected/iris.hdf5" "\$FUEL_OUTPUT_FILE"
chmod u+w "\$FUEL_OUTPUT_FILE"
$PYTHON -c '
import sys, h5py
f = h5py.File(sys.argv[1], "r+")
rows = f.attrs["split"]
rows[0]["stop"] = 1000
f.attrs["split"] = rows
f.close()
' "\$FUEL_OUTPUT_FILE"
EOF
    run --separate-stderr fuel-convert toy -d "$RAW" -o "$OUT"
    [ "$status" -eq 4 ]
    [ -z "$output" ]
    # the violation lines are fuel-info --check's, prefixed with the command
    [ "${#stderr_lines[@]}" -eq 3 ]
    [[ "${stderr_lines[0]}" == "fuel-convert: "*"features"*"[0, 1000)"* ]]
    [[ "${stderr_lines[1]}" == "fuel-convert: "*"features 1000, targets 150"* ]]
    [ "${stderr_lines[2]}" = "fuel-convert: invalid output of $CONVERTERS/fuel-convert-toy (it exited with status 0): 2 violations of the H5PYDataset rules" ]
    [ -z "$(ls -A "$OUT")" ]
}

@test "a converter that writes something not HDF5: exit 4, nothing published" {
    make_converter toy <<'EOF'
echo "not hdf5" > "$FUEL_OUTPUT_FILE"
EOF
    run fuel-convert toy -d "$RAW" -o "$OUT"
    [ "$status" -eq 4 ]
    [[ "$output" == "fuel-convert: invalid output of $CONVERTERS/fuel-convert-toy (it exited with status 0): "* ]]
    [ "$(echo "$output" | wc -l)" -eq 1 ]
    [ -z "$(ls -A "$OUT")" ]
}

@test "a converter that writes nothing: exit 4, nothing published" {
    make_converter toy <<'EOF'
echo "I did my best" >&2
EOF
    run fuel-convert toy -d "$RAW" -o "$OUT"
    [ "$status" -eq 4 ]
    [ "$output" = "I did my best
fuel-convert: converter wrote nothing: $CONVERTERS/fuel-convert-toy (it exited with status 0) left FUEL_OUTPUT_FILE empty" ]
    [ -z "$(ls -A "$OUT")" ]
}

@test "a converter listing an input that is no file: exit 4, nothing published" {
    make_converter toy <<EOF
cp "$FUEL_FIXTURES/expected/iris.hdf5" "\$FUEL_OUTPUT_FILE"
echo "\$2/nowhere.data"
EOF
    run fuel-convert toy -d "$RAW" -o "$OUT"
    [ "$status" -eq 4 ]
    [ "$output" = "fuel-convert: converter listed an input that is no file: $RAW/nowhere.data" ]
    [ -z "$(ls -A "$OUT")" ]
}

@test "name clashes with a built-in or between directories exit 2; non-executables are ignored" {
    make_copying_converter mnist
    run fuel-convert -h
    [ "$status" -eq 2 ]
    [ "$output" = "fuel-convert: name clash: $CONVERTERS/fuel-convert-mnist: mnist is a built-in converter" ]
    rm "$CONVERTERS/fuel-convert-mnist"
    make_copying_converter toy
    mkdir "$BATS_TEST_TMPDIR/more"
    cp "$CONVERTERS/fuel-convert-toy" "$BATS_TEST_TMPDIR/more/"
    FUEL_EXTRA_CONVERTERS="$CONVERTERS $BATS_TEST_TMPDIR/more" run fuel-convert toy -d "$RAW" -o "$OUT"
    [ "$status" -eq 2 ]
    [ "$output" = "fuel-convert: name clash: $BATS_TEST_TMPDIR/more/fuel-convert-toy: toy is also $CONVERTERS/fuel-convert-toy" ]
    [ -z "$(ls -A "$OUT")" ]
    chmod -x "$BATS_TEST_TMPDIR/more/fuel-convert-toy"
    FUEL_EXTRA_CONVERTERS="$CONVERTERS $BATS_TEST_TMPDIR/more" run fuel-convert toy -d "$RAW" -o "$OUT"
    [ "$status" -eq 0 ]
    [ "$output" = "$OUT/toy.hdf5" ]
}

@test "FUEL_EXTRA_CONVERTERS overrides extra_converters of the config; a missing directory exits 2" {
    make_copying_converter toy
    mkdir "$BATS_TEST_TMPDIR/other"
    unset FUEL_EXTRA_CONVERTERS
    printf 'extra_converters: %s\n' "$CONVERTERS" > "$FUEL_CONFIG"
    run fuel-convert toy -d "$RAW" -o "$OUT"
    [ "$status" -eq 0 ]
    [ "$output" = "$OUT/toy.hdf5" ]
    FUEL_EXTRA_CONVERTERS=$BATS_TEST_TMPDIR/other run fuel-convert toy -d "$RAW" -o "$OUT"
    [ "$status" -eq 2 ]
    [[ "$output" == *"unknown dataset: toy"* ]]
    FUEL_EXTRA_CONVERTERS=$BATS_TEST_TMPDIR/none run fuel-convert mnist -h
    [ "$status" -eq 2 ]
    [ "$output" = "fuel-convert: cannot list extra converters: $BATS_TEST_TMPDIR/none: No such file or directory" ]
}

@test "a converter's output directory that cannot be created: exit 7, it is not run" {
    make_converter toy <<EOF
touch "$BATS_TEST_TMPDIR/ran"
EOF
    touch "$BATS_TEST_TMPDIR/plain"
    run fuel-convert toy -d "$RAW" -o "$BATS_TEST_TMPDIR/plain/none"
    [ "$status" -eq 7 ]
    [ "$output" = "fuel-convert: cannot create directory: $BATS_TEST_TMPDIR/plain: not a directory" ]
    [ ! -e "$BATS_TEST_TMPDIR/ran" ]
}

@test "extra_converters entries get ~ and \$VAR expanded, as data_path's" {
    mkdir "$HOME/converters"
    CONVERTERS=$HOME/converters make_copying_converter toy
    unset FUEL_EXTRA_CONVERTERS
    printf 'extra_converters: ~/converters\n' > "$FUEL_CONFIG"
    run fuel-convert toy -d "$RAW" -o "$OUT"
    [ "$status" -eq 0 ]
    [ "$output" = "$OUT/toy.hdf5" ]
    FUEL_EXTRA_CONVERTERS='$HOME/converters' run fuel-convert -h
    [ "$status" -eq 0 ]
    [[ "$output" == *"extra converter $HOME/converters/fuel-convert-toy"* ]]
}

@test "--directory=DIR and --output-directory=DIR reach the converter as -d and -o; argv is recorded as typed" {
    make_converter toy <<EOF2
printf '%s\n' "\$@" > "$BATS_TEST_TMPDIR/arguments"
cp "$FUEL_FIXTURES/expected/iris.hdf5" "\$FUEL_OUTPUT_FILE"
EOF2
    run fuel-convert --directory="$RAW" toy --output-directory="$OUT" --option=x
    [ "$status" -eq 0 ]
    [ "$output" = "$OUT/toy.hdf5" ]
    [ "$(cat "$BATS_TEST_TMPDIR/arguments")" = "-d
$RAW
-o
$OUT
--option=x" ]
    [ "$(attribute "$OUT/toy.hdf5" fuel_convert_command)" = "fuel-convert --directory=$RAW toy --output-directory=$OUT --option=x" ]
    [ "$(attribute "$OUT/toy.hdf5" fuel_provenance | $PYTHON -c 'import json, sys; print(json.load(sys.stdin)["inputs"])')" = "[]" ]
}

@test "fuel list shows an extra converter without a manifest, and its NAME.hdf5 in the data path" {
    make_copying_converter toy
    run fuel-convert toy -d "$RAW" -o "$OUT"
    [ "$status" -eq 0 ]
    FUEL_DATA_PATH=$OUT run fuel list
    [ "$status" -eq 0 ]
    [[ "$output" == *"toy  $CONVERTERS/fuel-convert-toy
    toy.hdf5                         converted   $OUT/toy.hdf5  "* ]]
}

@test "fuel fetch of a manifest's format: the extra converter gets -d, -o, FORMAT and the options" {
    cat > "$BATS_TEST_TMPDIR/flower.json" <<'JSON'
{"datasets": {"flower": {"summary": "iris twice", "formats": {
  "a": {"files": [{"name": "iris.data", "urls": ["http://example.invalid/a/iris.data"]}]},
  "b": {"files": [{"name": "iris.data", "urls": ["http://example.invalid/b/iris.data"]}]}}}}}
JSON
    make_converter flower <<EOF
echo "\$@" > "$BATS_TEST_TMPDIR/arguments"
cp "$FUEL_FIXTURES/expected/iris.hdf5" "\$FUEL_OUTPUT_FILE"
chmod u+w "\$FUEL_OUTPUT_FILE"
echo "\$2/iris.data"
EOF
    export FUEL_EXTRA_DOWNLOADERS=$BATS_TEST_TMPDIR/flower.json
    sums=$BATS_TEST_TMPDIR/sums
    (cd "$RAW" && sha256sum iris.data) > "$sums"
    run --separate-stderr fuel fetch flower b --level 3 -d "$OUT" --url-prefix "file://$RAW" \
        --checksums "$sums" -q
    [ "$status" -eq 0 ]
    [ "$output" = "$OUT/flower.hdf5" ]
    [ "$(cat "$BATS_TEST_TMPDIR/arguments")" = "-d $OUT -o $OUT b --level 3" ]
    [ ! -e "$OUT/iris.data" ]
    [ "$(attribute "$OUT/flower.hdf5" fuel_convert_command)" = "fuel fetch flower b --level 3 -d $OUT --url-prefix file://$RAW --checksums $sums -q" ]
    run --separate-stderr fuel fetch flower
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-fetch: flower needs a format, a or b: none given; see 'fuel-fetch -h'" ]
}
