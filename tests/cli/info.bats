#!/usr/bin/env bats
# fuel-info: Fuel's block, the split table, sources, provenance, --json, data path, error paths.

bats_require_minimum_version 1.5.0

PYTHON=/usr/bin/python3

setup() {
    EXPECTED="$FUEL_FIXTURES/expected"
    export HOME="$BATS_TEST_TMPDIR/home" FUEL_CONFIG="$BATS_TEST_TMPDIR/empty-fuelrc"
    : >"$FUEL_CONFIG"
    mkdir -p "$HOME"
    unset FUEL_DATA_PATH
}

# The rows "FILE split source start stop count available" of each FILE as h5py reads them, one per
# line.
h5py_rows() {
    $PYTHON - "$@" <<'EOF'
import sys, h5py
for path in sys.argv[1:]:
    with h5py.File(path, "r") as f:
        for row in f.attrs["split"]:
            start, stop = int(row["start"]), int(row["stop"])
            count = f[row["indices"]].size if row["indices"] else max(stop - start, 0)
            print(path, row["split"].decode(), row["source"].decode(), start, stop,
                  count if row["available"] else 0, "yes" if row["available"] else "no")
EOF
}

# json_matches_h5py FILE: checks the --json document on stdin against h5py's view of FILE; prints
# the differences. json_matches_h5py DOCUMENT FILE...: each document file against the FILE after it,
# the differences after the file's name.
json_matches_h5py() {
    $PYTHON -c '
import json, sys, h5py
def matches(document, path):
    problems = []
    with h5py.File(path, "r") as f:
        rows = [(r["split"].decode(), r["source"].decode(), int(r["start"]), int(r["stop"]),
                 bool(r["available"]), r["comment"].decode()) for r in f.attrs["split"]]
        got = [(r["split"], r["source"], r["start"], r["stop"], r["available"], r["comment"])
               for r in document["split_rows"]]
        if rows != got:
            problems.append(f"rows {got} != {rows}")
        listed = [source["name"] for source in document["sources"]]
        sources = sorted({r["source"].decode() for r in f.attrs["split"]})
        if sorted(listed) != sources or len(set(listed)) != len(listed):
            problems.append(f"sources {listed} != {sources}")
        for source in document["sources"]:
            name, dataset = source["name"], f[source["name"]]
            if list(dataset.shape) != source["shape"]:
                problems.append(name + ": shape " + str(source["shape"]))
            if [d.label for d in dataset.dims] != source["axis_labels"]:
                problems.append(name + ": axis labels " + str(source["axis_labels"]))
            if source["variable_length"]:
                labels = [l.decode() for l in dataset.dims[0]["shape_labels"]]
                if labels != source["shape_labels"] or dataset.dtype.metadata["vlen"] != source["dtype"]:
                    problems.append(name + ": vlen " + str(source))
            elif str(dataset.dtype) != source["dtype"]:
                problems.append(name + ": dtype " + source["dtype"])
        for key in ("h5py_interface_version", "fuel_convert_version", "fuel_convert_command"):
            if f.attrs[key] != document[key]:
                problems.append(f"{key}: {document[key]}")
    return problems
pairs = [(None, sys.argv[1])] if len(sys.argv) == 2 else list(zip(sys.argv[1::2], sys.argv[2::2]))
problems = []
for document_path, path in pairs:
    document = json.load(open(document_path) if document_path else sys.stdin)
    problems += [(path + ": " if document_path else "") + problem for problem in matches(document, path)]
print("\n".join(problems))
sys.exit(1 if problems else 0)
' "$@"
}

@test "fuel-info prints Fuel's metadata block word for word" {
    run --separate-stderr fuel-info "$EXPECTED/mnist.hdf5"
    [ "$status" -eq 0 ]
    [ -z "$stderr" ]
    expected="
Metadata for mnist.hdf5
=======================

    The command used to generate this file is

        fuel-convert mnist -d raw/mnist -o expected

    Relevant versions are

        H5PYDataset     0.3
        fuel.converters 0.2"
    [ "$(printf '%s\n' "$output" | head -n 13)" = "$expected" ]
}

@test "fuel-info on every reference file prints every split row with h5py's numbers" {
    all_rows=$(h5py_rows "$EXPECTED"/*.hdf5)
    for file in "$EXPECTED"/*.hdf5; do
        run --separate-stderr fuel-info "$file"
        [ "$status" -eq 0 ] || { echo "$file: $stderr"; false; }
        [[ "$output" == *"Metadata for $(basename "$file")"* ]]
        table=$(printf '%s\n' "$output" | sed -n '/^Splits/,/^Sources/p' | tr -s ' ')
        rows=0
        while read -r split source start stop count available; do
            grep -qx " $split $source $start $stop $count $available \. contiguous" <<<"$table" ||
                { echo "$file: no row $split $source $start $stop $count"; false; }
            rows=$((rows + 1))
        done < <(awk -v file="$file" '$1 == file { print $2, $3, $4, $5, $6, $7 }' <<<"$all_rows")
        [ "$(grep -c contiguous <<<"$table")" -eq "$rows" ]
    done
}

@test "fuel-info shows dtypes, shapes and axis labels of each source" {
    run fuel-info "$EXPECTED/mnist_float32.hdf5"
    [ "$status" -eq 0 ]
    sources=$(printf '%s\n' "$output" | sed -n '/^Sources/,$p' | tr -s ' ')
    grep -qx ' features float32 (14, 1, 28, 28) batch, channel, height, width' <<<"$sources"
    grep -qx ' targets uint8 (14, 1) batch, index' <<<"$sources"
    run fuel-info "$EXPECTED/iris.hdf5"
    [[ "$output" == *"features  float32  (150, 4)  batch, feature"* ]]
}

@test "fuel-info shows the shape labels of variable-length sources" {
    run fuel-info "$EXPECTED/svhn_format_1.hdf5"
    [ "$status" -eq 0 ]
    sources=$(printf '%s\n' "$output" | sed -n '/^Sources/,$p' | tr -s ' ')
    grep -qx ' features uint8 (22,) batch variable-length; shapes features_shapes (22 x 3); shape labels channel, height, width' <<<"$sources"
    grep -qx ' bbox_lefts uint16 (22,) batch variable-length; shapes bbox_lefts_shapes (22 x 2); shape labels bounding_box, x' <<<"$sources"
}

@test "the --json check itself fails on a document missing a source or a split row" {
    run --separate-stderr fuel-info --json "$EXPECTED/mnist.hdf5"
    [ "$status" -eq 0 ]
    document=$output
    run json_matches_h5py "$EXPECTED/mnist.hdf5" <<<"$document"
    [ "$status" -eq 0 ]
    drop='import json, sys; d = json.load(sys.stdin); exec(sys.argv[1]); print(json.dumps(d))'
    run json_matches_h5py "$EXPECTED/mnist.hdf5" \
        < <($PYTHON -c "$drop" 'd["sources"] = [s for s in d["sources"] if s["name"] != "targets"]' <<<"$document")
    [ "$status" -eq 1 ]
    [ "$output" = "sources ['features'] != ['features', 'targets']" ]
    run json_matches_h5py "$EXPECTED/mnist.hdf5" \
        < <($PYTHON -c "$drop" 'd["split_rows"].pop()' <<<"$document")
    [ "$status" -eq 1 ]
    [[ "$output" == "rows "* ]]
}

@test "fuel-info --json on every reference file parses and holds h5py's values" {
    local pairs=()
    for file in "$EXPECTED"/*.hdf5; do
        run --separate-stderr fuel-info --json "$file"
        [ "$status" -eq 0 ]
        printf '%s\n' "$output" | $PYTHON -m json.tool >/dev/null
        printf '%s\n' "$output" > "$BATS_TEST_TMPDIR/$(basename "$file").json"
        pairs+=("$BATS_TEST_TMPDIR/$(basename "$file").json" "$file")
    done
    json_matches_h5py "${pairs[@]}"
}

@test "fuel-info --json gives counts, layout, names and vlen shape labels" {
    run --separate-stderr fuel-info "$EXPECTED/svhn_format_1.hdf5" --json
    [ "$status" -eq 0 ]
    printf '%s\n' "$output" | $PYTHON -c '
import json, sys
d = json.load(sys.stdin)
assert d["name"] == "svhn_format_1.hdf5", d["name"]
assert d["splits"] == ["train", "test", "extra"], d["splits"]
assert [r["count"] for r in d["split_rows"] if r["source"] == "features"] == [12, 4, 6]
assert all(r["layout"] == "contiguous" and r["indices"] is None for r in d["split_rows"])
features = [s for s in d["sources"] if s["name"] == "features"][0]
assert features["dtype"] == "uint8" and features["variable_length"] is True, features
assert features["shape_labels"] == ["channel", "height", "width"], features
assert features["shapes"] == "features_shapes", features
assert d["provenance"] is None
assert d["attributes"]["fuel_convert_version"] == "0.2"
'
}

make_chapter_four_file() {
    $PYTHON - "$1" <<'EOF'
import sys, json, h5py, numpy
f = h5py.File(sys.argv[1], "w")
f.create_dataset("features", data=numpy.zeros((100, 3), "float32")).dims[0].label = "batch"
f["train_indices"] = numpy.arange(0, 100, 2)
f["test_indices"] = numpy.arange(1, 99, 2)
rows = numpy.empty(3, dtype=[("split", "S5"), ("source", "S8"), ("start", numpy.int64),
    ("stop", numpy.int64), ("indices", h5py.special_dtype(ref=h5py.Reference)),
    ("available", bool), ("comment", "S9")])
rows[0] = (b"train", b"features", -1, -1, f["train_indices"].ref, True, b"even rows")
rows[1] = (b"test", b"features", -1, -1, f["test_indices"].ref, True, b".")
rows[2] = (b"valid", b"features", 0, 0, h5py.Reference(), False, b".")
f.attrs["split"] = rows
f.attrs["h5py_interface_version"] = numpy.bytes_(b"0.3")
f.attrs["fuel_convert_command"] = numpy.bytes_(b"written by hand")
f.attrs["origin"] = "lab notebook 7"
f.attrs["fuel_provenance"] = json.dumps({"tool": "fuel", "argv": ["fuel-convert", "x"],
    "inputs": [{"name": "x.gz", "size": 42, "sha256": "ab" * 32},
               {"name": "longer.gz", "size": 1234, "sha256": "cd" * 32}],
    "libraries": {"hdf5": "1.10.8"}, "created": "2026-01-02T03:04:05Z"})
f.close()
EOF
}

@test "fuel-info reads h5py files with fixed-length attributes and indices references" {
    make_chapter_four_file "$BATS_TEST_TMPDIR/hand.hdf5"
    run --separate-stderr fuel-info "$BATS_TEST_TMPDIR/hand.hdf5"
    [ "$status" -eq 0 ]
    table=$(printf '%s\n' "$output" | tr -s ' ')
    grep -qx ' train features -1 -1 50 yes even rows train_indices' <<<"$table"
    grep -qx ' test features -1 -1 49 yes \. test_indices' <<<"$table"
    grep -qx ' valid features 0 0 0 no \. contiguous' <<<"$table"
    grep -qx '        written by hand' <<<"$output"
    grep -qx '        fuel.converters N/A' <<<"$output"
    grep -qx '    origin: lab notebook 7' <<<"$output"
}

@test "fuel-info reads h5py 3's str attributes and fields, variable-length UTF-8 strings" {
    $PYTHON - "$BATS_TEST_TMPDIR/utf8.hdf5" <<'PY'
import sys, h5py, numpy
text = h5py.string_dtype("utf-8")
with h5py.File(sys.argv[1], "w") as f:
    features = f.create_dataset("features", data=numpy.zeros((3, 2), "uint8"))
    features.dims[0].label = "batch"
    split = numpy.array([("train", "features", 0, 3, None, True, "café")],
                        dtype=[("split", text), ("source", text), ("start", "i8"), ("stop", "i8"),
                               ("indices", h5py.ref_dtype), ("available", "?"), ("comment", text)])
    f.attrs["split"] = split
    f.attrs["h5py_interface_version"] = "0.3"
    f.attrs["fuel_convert_command"] = "écrit à la main"
    f.attrs["fuel_provenance"] = '{"tool": "h5py"}'
PY
    run --separate-stderr fuel-info "$BATS_TEST_TMPDIR/utf8.hdf5"
    [ "$status" -eq 0 ] || { echo "$stderr"; false; }
    grep -qx '        écrit à la main' <<<"$output"
    grep -qx '        H5PYDataset     0.3' <<<"$output"
    grep -qx ' train features 0 3 3 yes café contiguous' <<<"$(printf '%s\n' "$output" | tr -s ' ')"
    run --separate-stderr fuel-info --json "$BATS_TEST_TMPDIR/utf8.hdf5"
    [ "$status" -eq 0 ]
    [ "$($PYTHON -c 'import json, sys; print(json.load(sys.stdin)["provenance"]["tool"])' <<<"$output")" = h5py ]
}

@test "fuel-info prints the provenance: inputs with checksums, libraries, created" {
    make_chapter_four_file "$BATS_TEST_TMPDIR/hand.hdf5"
    run fuel-info "$BATS_TEST_TMPDIR/hand.hdf5"
    provenance=$(printf '%s\n' "$output" | sed -n '/^Provenance/,$p')
    grep -qx "        x.gz       size    42  sha256  $(printf 'ab%.0s' {1..32})" <<<"$provenance"
    grep -qx "        longer.gz  size  1234  sha256  $(printf 'cd%.0s' {1..32})" <<<"$provenance"
    grep -qx '        hdf5  1.10.8' <<<"$provenance"
    grep -qx '    created: 2026-01-02T03:04:05Z' <<<"$provenance"
    grep -qx '    argv: fuel-convert x' <<<"$provenance"
    run fuel-info --json "$BATS_TEST_TMPDIR/hand.hdf5"
    printf '%s\n' "$output" | $PYTHON -c '
import json, sys
d = json.load(sys.stdin)
assert d["provenance"]["inputs"][0] == {"name": "x.gz", "size": 42, "sha256": "ab" * 32}
assert d["provenance"]["created"] == "2026-01-02T03:04:05Z"
assert [r["indices"] for r in d["split_rows"]] == ["train_indices", "test_indices", None]
assert [r["count"] for r in d["split_rows"]] == [50, 49, 0]
assert d["fuel_convert_version"] is None
assert d["attributes"]["origin"] == "lab notebook 7"
'
}

@test "fuel info FILE is fuel-info FILE" {
    run fuel-info "$EXPECTED/iris.hdf5"
    direct="$output"
    run fuel info "$EXPECTED/iris.hdf5"
    [ "$status" -eq 0 ]
    [ "$output" = "$direct" ]
}

@test "a file that is not HDF5: exit 4, one line, nothing on stdout" {
    echo "not hdf5" >"$BATS_TEST_TMPDIR/text.hdf5"
    run --separate-stderr fuel-info "$BATS_TEST_TMPDIR/text.hdf5"
    [ "$status" -eq 4 ]
    [ -z "$output" ]
    [ "$stderr" = "fuel-info: not an HDF5 file: $BATS_TEST_TMPDIR/text.hdf5: it does not start with the HDF5 signature" ]
}

@test "an HDF5 file without a split attribute: exit 4, one line" {
    $PYTHON -c 'import h5py, sys; h5py.File(sys.argv[1], "w").attrs["x"] = 1' "$BATS_TEST_TMPDIR/plain.hdf5"
    run --separate-stderr fuel-info "$BATS_TEST_TMPDIR/plain.hdf5"
    [ "$status" -eq 4 ]
    [ -z "$output" ]
    [ "$stderr" = "fuel-info: not an H5PYDataset file: $BATS_TEST_TMPDIR/plain.hdf5: no split attribute in the root group" ]
}

@test "a malformed split array: exit 4, one line" {
    $PYTHON -c '
import h5py, numpy, sys
f = h5py.File(sys.argv[1], "w")
f.attrs["split"] = numpy.zeros(3, dtype=[("split", "S5"), ("source", "S5"), ("start", "i8")])
' "$BATS_TEST_TMPDIR/bad.hdf5"
    run --separate-stderr fuel-info "$BATS_TEST_TMPDIR/bad.hdf5"
    [ "$status" -eq 4 ]
    [ -z "$output" ]
    [ "$stderr" = "fuel-info: malformed split attribute: $BATS_TEST_TMPDIR/bad.hdf5: no field stop" ]
}

@test "a truncated HDF5 file: exit 4, one line" {
    head -c 4000 "$EXPECTED/mnist.hdf5" >"$BATS_TEST_TMPDIR/cut.hdf5"
    run --separate-stderr fuel-info "$BATS_TEST_TMPDIR/cut.hdf5"
    [ "$status" -eq 4 ]
    [ -z "$output" ]
    [ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
    [[ "$stderr" == "fuel-info: "*"cut.hdf5"* ]]
}

@test "a missing file: exit 3, one line naming it" {
    run --separate-stderr fuel-info "$BATS_TEST_TMPDIR/absent.hdf5"
    [ "$status" -eq 3 ]
    [ -z "$output" ]
    [ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
    [[ "$stderr" == "fuel-info: "*"absent.hdf5"* ]]
}

@test "usage errors exit 2 with one line; -h prints the usage on stdout" {
    run --separate-stderr fuel-info
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-info: missing FILE or NAME; see 'fuel-info -h'" ]
    run --separate-stderr fuel-info --bogus "$EXPECTED/mnist.hdf5"
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-info: unknown option: --bogus; see 'fuel-info -h'" ]
    run --separate-stderr fuel-info -x "$EXPECTED/mnist.hdf5"
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-info: unknown option: -x; see 'fuel-info -h'" ]
    run --separate-stderr fuel-info -h
    [ "$status" -eq 0 ]
    [[ "$output" == "usage: fuel-info [-h] [--json] [--check] [--verify-inputs [-d DIR]... [--recorded-dirs]] [options] FILE|NAME..."* ]]
    [ -z "$stderr" ]
}

@test "an output that cannot be written: exit 7" {
    run --separate-stderr bash -c 'fuel-info "$1" >/dev/full' _ "$EXPECTED/mnist.hdf5"
    [ "$status" -eq 7 ]
    [[ "$stderr" == "fuel-info: cannot write: standard output"* ]]
}

@test "a NAME that is no file is found in the first FUEL_DATA_PATH directory holding it" {
    mkdir -p "$BATS_TEST_TMPDIR/first" "$BATS_TEST_TMPDIR/second" "$BATS_TEST_TMPDIR/third"
    cp "$EXPECTED/iris.hdf5" "$BATS_TEST_TMPDIR/second/data.hdf5"
    cp "$EXPECTED/mnist.hdf5" "$BATS_TEST_TMPDIR/third/data.hdf5"
    cd "$BATS_TEST_TMPDIR"
    FUEL_DATA_PATH="$BATS_TEST_TMPDIR/first:$BATS_TEST_TMPDIR/second:$BATS_TEST_TMPDIR/third" \
        run --separate-stderr fuel-info --json data.hdf5
    [ "$status" -eq 0 ]
    [ -z "$stderr" ]
    printf '%s\n' "$output" | $PYTHON -c '
import json, sys
d = json.load(sys.stdin)
assert d["file"] == sys.argv[1] + "/second/data.hdf5", d["file"]
assert d["name"] == "data.hdf5" and d["splits"] == ["all"], d
' "$BATS_TEST_TMPDIR"
    FUEL_DATA_PATH="$BATS_TEST_TMPDIR/first:$BATS_TEST_TMPDIR/second" run fuel-info data.hdf5
    [ "$status" -eq 0 ]
    [ "$(printf '%s\n' "$output" | sed -n 2p)" = "Metadata for data.hdf5" ]
    [[ "$output" == *"all    features      0   150    150  yes"* ]]
}

@test "an existing path is read as it is, before the data path" {
    mkdir -p "$BATS_TEST_TMPDIR/path" "$BATS_TEST_TMPDIR/here"
    cp "$EXPECTED/iris.hdf5" "$BATS_TEST_TMPDIR/path/data.hdf5"
    cp "$EXPECTED/mnist.hdf5" "$BATS_TEST_TMPDIR/here/data.hdf5"
    cd "$BATS_TEST_TMPDIR/here"
    FUEL_DATA_PATH="$BATS_TEST_TMPDIR/path" run fuel-info --json data.hdf5
    [ "$status" -eq 0 ]
    [[ "$output" == *'"file": "data.hdf5"'* ]]
    [[ "$output" == *'"splits": ['*'"test"'* ]]
}

@test "the data path of the configuration file is searched too" {
    mkdir -p "$BATS_TEST_TMPDIR/configured"
    cp "$EXPECTED/cifar10.hdf5" "$BATS_TEST_TMPDIR/configured/"
    printf 'data_path: %s\n' "$BATS_TEST_TMPDIR/configured" >"$BATS_TEST_TMPDIR/fuelrc"
    cd "$BATS_TEST_TMPDIR"
    FUEL_CONFIG="$BATS_TEST_TMPDIR/fuelrc" run --separate-stderr fuel-info cifar10.hdf5
    [ "$status" -eq 0 ]
    [[ "$output" == *"Metadata for cifar10.hdf5"* ]]
    [[ "$output" == *"train  features      0    60     60  yes"* ]]
}

@test "a NAME in no directory of the data path: exit 3, one line naming the directories" {
    mkdir -p "$BATS_TEST_TMPDIR/empty1" "$BATS_TEST_TMPDIR/empty2"
    cd "$BATS_TEST_TMPDIR"
    FUEL_DATA_PATH="$BATS_TEST_TMPDIR/empty1:$BATS_TEST_TMPDIR/empty2" \
        run --separate-stderr fuel-info nowhere.hdf5
    [ "$status" -eq 3 ]
    [ -z "$output" ]
    [ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
    [[ "$stderr" == "fuel-info: "*"nowhere.hdf5"*"$BATS_TEST_TMPDIR/empty1"*"$BATS_TEST_TMPDIR/empty2"* ]]
    run --separate-stderr fuel-info nowhere.hdf5
    [ "$status" -eq 3 ]
    [ "$stderr" = "fuel-info: no such file: nowhere.hdf5" ]
}

@test "a malformed configuration file: exit 2, one line naming it" {
    printf 'data_path: [unclosed\n' >"$BATS_TEST_TMPDIR/fuelrc"
    cd "$BATS_TEST_TMPDIR"
    FUEL_CONFIG="$BATS_TEST_TMPDIR/fuelrc" run --separate-stderr fuel-info absent.hdf5
    [ "$status" -eq 2 ]
    [ -z "$output" ]
    [ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
    [[ "$stderr" == "fuel-info: "*"$BATS_TEST_TMPDIR/fuelrc"* ]]
}

@test "fuel-info on a file fuel-convert wrote shows its provenance" {
    mkdir -p "$BATS_TEST_TMPDIR/out"
    SOURCE_DATE_EPOCH=1700000000 run fuel-convert mnist -d "$FUEL_FIXTURES/raw/mnist" -o "$BATS_TEST_TMPDIR/out"
    [ "$status" -eq 0 ]
    run --separate-stderr fuel-info "$BATS_TEST_TMPDIR/out/mnist.hdf5"
    [ "$status" -eq 0 ]
    [[ "$output" == *"        fuel-convert mnist -d $FUEL_FIXTURES/raw/mnist -o $BATS_TEST_TMPDIR/out"* ]]
    provenance=$(printf '%s\n' "$output" | sed -n '/^Provenance/,$p')
    sha=$(sha256sum "$FUEL_FIXTURES/raw/mnist/train-images-idx3-ubyte.gz" | cut -d' ' -f1)
    [[ "$provenance" == *"train-images-idx3-ubyte.gz"*"$sha"* ]]
    [[ "$provenance" == *"2023-11-14T22:13:20Z"* ]]
    run fuel-info --json "$BATS_TEST_TMPDIR/out/mnist.hdf5"
    printf '%s\n' "$output" | $PYTHON -c '
import json, sys
d = json.load(sys.stdin)
assert d["provenance"]["created"] == "2023-11-14T22:13:20Z", d["provenance"]
assert sys.argv[1] in json.dumps(d["provenance"]), d["provenance"]
' "$sha"
}

@test "a damaged file that makes HDF5 itself fault: exit 4, one line, no crash" {
    # One byte of mnist.hdf5's global heap changed: HDF5 1.10 reads out of bounds on it.
    cp "$EXPECTED/mnist.hdf5" "$BATS_TEST_TMPDIR/heap.hdf5"
    chmod u+w "$BATS_TEST_TMPDIR/heap.hdf5"
    printf '\x4c' | dd of="$BATS_TEST_TMPDIR/heap.hdf5" bs=1 seek=1038 conv=notrunc 2>/dev/null
    run --separate-stderr fuel-info "$BATS_TEST_TMPDIR/heap.hdf5"
    [ "$status" -eq 4 ]
    [ -z "$output" ]
    [ "$stderr" = "fuel-info: damaged HDF5 file: $BATS_TEST_TMPDIR/heap.hdf5: the HDF5 library failed reading it" ]
}

@test "a source the split array names but the file lacks is shown as missing" {
    $PYTHON - "$BATS_TEST_TMPDIR/ghost.hdf5" <<'PY'
import sys, h5py, numpy
f = h5py.File(sys.argv[1], "w")
f["features"] = numpy.zeros((4, 2), dtype="int16")
rows = numpy.array([(b"all", b"features", 0, 4, h5py.Reference(), True, b"."),
                    (b"all", b"ghost", 0, 4, h5py.Reference(), True, b".")],
                   dtype=[("split", "S3"), ("source", "S8"), ("start", "i8"), ("stop", "i8"),
                          ("indices", h5py.special_dtype(ref=h5py.Reference)),
                          ("available", bool), ("comment", "S1")])
f.attrs["split"] = rows
PY
    # Described, then refused as every command refuses it.
    run --separate-stderr fuel-info "$BATS_TEST_TMPDIR/ghost.hdf5"
    [ "$status" -eq 4 ]
    [ "$stderr" = "fuel-info: check failed: $BATS_TEST_TMPDIR/ghost.hdf5: source missing: ghost: named in the split attribute, no such dataset in the file" ]
    sources=$(printf '%s\n' "$output" | sed -n '/^Sources/,$p' | tr -s ' ')
    grep -qx ' features int16 (4, 2) -, -' <<<"$sources"
    grep -qx ' ghost - - - missing: no such dataset in the file' <<<"$sources"
    run --separate-stderr fuel-info --json "$BATS_TEST_TMPDIR/ghost.hdf5"
    [ "$status" -eq 4 ]
    [ "$stderr" = "fuel-info: check failed: $BATS_TEST_TMPDIR/ghost.hdf5: source missing: ghost: named in the split attribute, no such dataset in the file" ]
    printf '%s\n' "$output" | $PYTHON -c '
import json, sys
d = json.load(sys.stdin)
assert d["sources"][1] == {"name": "ghost", "present": False}, d["sources"]
assert d["sources"][0]["axis_labels"] == ["", ""], d["sources"]
'
}

@test "fuel-info shows the content digest of each source and of the whole content, as the encoding defines them" {
    for file in "$EXPECTED"/mnist.hdf5 "$EXPECTED"/svhn_format_1.hdf5 "$EXPECTED"/cifar100.hdf5; do
        expected=$($PYTHON "$BATS_TEST_DIRNAME/../helpers/content_digest.py" "$file")
        run --separate-stderr fuel-info "$file"
        [ "$status" -eq 0 ]
        section=$(printf '%s\n' "$output" | sed -n '/^Content digest: /,$p')
        whole=$(sed -n 's/^\* //p' <<<"$expected")
        [ "$(head -n 1 <<<"$section")" = "Content digest: $whole" ]
        while read -r source sha; do
            [ "$source" = "*" ] && continue
            grep -qE "^    $source +$sha\$" <<<"$section" || { echo "$file: $source"; false; }
        done <<<"$expected"
        [ "$(grep -c '^    ' <<<"$section")" -eq "$(($(wc -l <<<"$expected") - 1))" ]
        run --separate-stderr fuel-info --json "$file"
        printf '%s\n' "$output" | $PYTHON -c '
import json, sys
d = json.load(sys.stdin)
expected = dict(line.split() for line in sys.argv[1].splitlines())
assert d["content_digest"] == expected["*"], d["content_digest"]
assert {s["name"]: s["digest"] for s in d["sources"]} == {k: v for k, v in expected.items() if k != "*"}
' "$expected"
    done
}

@test "two conversions of the same inputs into other directories have one content digest, other bytes" {
    mkdir "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b"
    fuel-convert iris -d "$FUEL_FIXTURES/raw/iris" -o "$BATS_TEST_TMPDIR/a" >/dev/null
    fuel-convert iris -d "$FUEL_FIXTURES/raw/iris" -o "$BATS_TEST_TMPDIR/b" -r other >/dev/null
    run cmp -s "$BATS_TEST_TMPDIR/a/iris.hdf5" "$BATS_TEST_TMPDIR/b/other.hdf5"
    [ "$status" -eq 1 ]
    run --separate-stderr fuel-info "$BATS_TEST_TMPDIR/a/iris.hdf5" "$BATS_TEST_TMPDIR/b/other.hdf5" "$EXPECTED/iris.hdf5"
    [ "$status" -eq 0 ]
    [ "$(awk '{print $(NF - 1)}' <<<"$output" | sort -u)" = 1828279823eb ]
    [ "$(wc -l <<<"$output")" -eq 3 ]
}

@test "a file that fails the checks, or a source with no canonical form, has no content digest" {
    $PYTHON - "$BATS_TEST_TMPDIR/words.hdf5" <<'PY'
import sys, h5py, numpy
with h5py.File(sys.argv[1], "w") as f:
    f.create_dataset("words", data=numpy.array(["a", "bc"], dtype=object), dtype=h5py.string_dtype())
    f.attrs["split"] = numpy.array([(b"all", b"words", 0, 2, None, True, b".")],
        dtype=[("split", "S3"), ("source", "S5"), ("start", "i8"), ("stop", "i8"),
               ("indices", h5py.ref_dtype), ("available", "?"), ("comment", "S1")])
PY
    run --separate-stderr fuel-info "$BATS_TEST_TMPDIR/words.hdf5"
    [ "$status" -eq 0 ]
    [ "${lines[-1]}" = "Content digest: none: cannot read source words: its element type has no canonical form (only numbers, enums and fixed-length strings have)" ]
    run --separate-stderr fuel-info --json "$BATS_TEST_TMPDIR/words.hdf5"
    [ "$status" -eq 0 ]
    $PYTHON -c 'import json, sys; d = json.load(sys.stdin); assert d["content_digest"] is None and d["sources"][0]["digest"] is None, d' <<<"$output"
    $PYTHON - "$EXPECTED/iris.hdf5" "$BATS_TEST_TMPDIR/long.hdf5" <<'PY'
import shutil, sys, h5py
shutil.copy(sys.argv[1], sys.argv[2])
with h5py.File(sys.argv[2], "r+") as f:
    rows = f.attrs["split"]
    rows[0]["stop"] = 151
    f.attrs["split"] = rows
PY
    run --separate-stderr fuel-info "$BATS_TEST_TMPDIR/long.hdf5"
    [ "$status" -eq 4 ]
    [ "${lines[-1]}" = "Content digest: none: the file fails the checks" ]
    [[ "$stderr" == "fuel-info: check failed: $BATS_TEST_TMPDIR/long.hdf5: span outside the source"* ]]
}

@test "the inputs line: fixture raw files, other files than the published ones, the published files" {
    fuel-fixture mnist --raw -o "$BATS_TEST_TMPDIR/raw" >/dev/null
    fuel-convert mnist -d "$BATS_TEST_TMPDIR/raw" -o "$BATS_TEST_TMPDIR/fixture" >/dev/null
    run --separate-stderr fuel-info "$BATS_TEST_TMPDIR/fixture/mnist.hdf5"
    [ "$status" -eq 0 ]
    [ "$(grep -c '^    inputs of ' <<<"$output")" -eq 1 ]
    grep -qx '    inputs of mnist: not the published files: train-images-idx3-ubyte.gz (fuel fixture --raw output), train-labels-idx1-ubyte.gz (fuel fixture --raw output), t10k-images-idx3-ubyte.gz (fuel fixture --raw output), t10k-labels-idx1-ubyte.gz (fuel fixture --raw output)' <<<"$output"
    fuel-convert svhn 2 -d "$FUEL_FIXTURES/raw/svhn2" -o "$BATS_TEST_TMPDIR/svhn" >/dev/null
    run --separate-stderr fuel-info "$BATS_TEST_TMPDIR/svhn/svhn_format_2.hdf5"
    sizes=($(stat -c %s "$FUEL_FIXTURES"/raw/svhn2/{train,test,extra}_32x32.mat))
    grep -qx "    inputs of svhn 2: not the published files: train_32x32.mat (${sizes[0]} bytes, published 182040794), test_32x32.mat (${sizes[1]} bytes, published 64275384), extra_32x32.mat (${sizes[2]} bytes, published 1329278602)" <<<"$output"
    # The published MNIST files' sizes and md5s, written into the provenance by hand.
    $PYTHON - "$BATS_TEST_TMPDIR/fixture/mnist.hdf5" <<'PY'
import json, sys, h5py
published = {"train-images-idx3-ubyte.gz": (9912422, "f68b3c2dcbeaaa9fbdd348bbdeb94873"),
             "train-labels-idx1-ubyte.gz": (28881, "d53e105ee54ea40749a09fcbcd1e9432"),
             "t10k-images-idx3-ubyte.gz": (1648877, "9fb629c4189551a2d022fa330f9573f3"),
             "t10k-labels-idx1-ubyte.gz": (4542, "ec29112dd5afa0611ce80d1b7f02629c")}
with h5py.File(sys.argv[1], "r+") as f:
    provenance = json.loads(f.attrs["fuel_provenance"])
    for entry in provenance["inputs"]:
        entry["size"], entry["md5"] = published[entry["name"]]
        del entry["origin"]
    f.attrs["fuel_provenance"] = json.dumps(provenance)
PY
    run --separate-stderr fuel-info "$BATS_TEST_TMPDIR/fixture/mnist.hdf5"
    grep -qx '    inputs of mnist: the published files' <<<"$output"
    run --separate-stderr fuel-info --json "$BATS_TEST_TMPDIR/fixture/mnist.hdf5"
    [ "$($PYTHON -c 'import json, sys; print(json.load(sys.stdin)["published_inputs"])' <<<"$output")" = "inputs of mnist: the published files" ]
    [ "$($PYTHON -c 'import json, sys; print(json.load(sys.stdin)["published"])' <<<"$output")" = files ]
    # A file without provenance, and a cut (no dataset named): no line.
    run --separate-stderr fuel-info --json "$EXPECTED/mnist.hdf5"
    [ "$($PYTHON -c 'import json, sys; print(json.load(sys.stdin)["published_inputs"])' <<<"$output")" = None ]
    fuel-fixture --from "$EXPECTED/mnist.hdf5" -n 2 -o "$BATS_TEST_TMPDIR/cut" >/dev/null
    run --separate-stderr fuel-info "$BATS_TEST_TMPDIR/cut/mnist.hdf5"
    [ "$status" -eq 0 ]
    [ "$(grep -c '^    inputs: ' <<<"$output")" -eq 0 ]
}

@test "fuel-info shows recorded control characters escaped and cuts a line at 4096 bytes" {
    $PYTHON - "$EXPECTED/iris.hdf5" "$BATS_TEST_TMPDIR" <<'PY'
import json, shutil, sys, h5py
source, directory = sys.argv[1], sys.argv[2]
shutil.copy(source, f'{directory}/escapes.hdf5')
with h5py.File(f'{directory}/escapes.hdf5', 'r+') as f:
    f.attrs['fuel_provenance'] = json.dumps(
        {'tool': 'fuel', 'argv': ['fuel-convert', 'iris', '\x1b]0;pwned\x07\x1b[2J'], 'inputs': []})
    f.attrs['fuel_convert_command'] = 'fuel-convert iris \x1b[2J\u009b31m'
shutil.copy(source, f'{directory}/long.hdf5')
with h5py.File(f'{directory}/long.hdf5', 'r+') as f:
    f.attrs['fuel_provenance'] = 'x' * 200000
PY
    run --separate-stderr fuel-info "$BATS_TEST_TMPDIR/escapes.hdf5"
    [ "$status" -eq 0 ]
    [[ "$output" != *$'\e'* ]]
    [[ "$output" != *$'\a'* ]]
    [[ "$output" != *$'\xc2\x9b'* ]]
    [[ "$output" == *'argv: fuel-convert iris \x1b]0;pwned\x07\x1b[2J'* ]]
    [[ "$output" == *'fuel-convert iris \x1b[2J\u009b31m'* ]]
    run --separate-stderr fuel-info "$BATS_TEST_TMPDIR/long.hdf5"
    [ "$status" -eq 0 ]
    longest=$(printf '%s\n' "$output" | awk '{ if (length($0) > n) n = length($0) } END { print n }')
    [ "$longest" -le 4200 ]
    [[ "$output" == *"(not a JSON object) xxxx"*"x ... (195928 more bytes)"* ]]
}

@test "a provenance of 10 million inputs: walked in bounded memory, counted, the first 10 shown" {
    # Parsed whole (text, --json, the fixture note, the published check), it took 4.5 GiB.
    $PYTHON - "$EXPECTED/iris.hdf5" "$BATS_TEST_TMPDIR/many.hdf5" <<'PY'
import json, shutil, sys, h5py
shutil.copy(sys.argv[1], sys.argv[2])
with h5py.File(sys.argv[2], 'r+') as f:
    first = json.dumps({'name': 'iris.data', 'size': 4551, 'sha256': 'ab' * 32})
    f.attrs['fuel_provenance'] = ('{"tool": "fuel", "argv": ["fuel-convert", "iris"], "inputs": ['
                                  + first + ',{}' * (10**7 - 1) + '], "created": "2026-01-02T03:04:05Z"}')
PY
    # Under make check-sanitize: unwinding on every malloc (fast_unwind_on_malloc=0) made the walk,
    # a malloc an entry, overrun its timeout (10 million entries: over 300 s; 19 s unwound fast).
    export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0:thread_local_quarantine_size_kb=0:fast_unwind_on_malloc=1"
    run --separate-stderr /usr/bin/time -f 'peak %M' timeout 300 fuel-info "$BATS_TEST_TMPDIR/many.hdf5"
    [ "$status" -eq 0 ]
    [ "$(sed -n 's/^peak //p' <<< "$stderr")" -lt $((128 * 1024)) ]
    grep -qx '    inputs: 10000000 in all, the first 10 shown' <<<"$output"
    grep -qxF "    inputs: {\"name\":\"iris.data\",\"size\":4551,\"sha256\":\"$(printf 'ab%.0s' {1..32})\"}$(printf ' {}%.0s' {1..9})" <<<"$output"
    grep -qx '    created: 2026-01-02T03:04:05Z' <<<"$output"
    run --separate-stderr /usr/bin/time -f 'peak %M' timeout 300 fuel-info --json "$BATS_TEST_TMPDIR/many.hdf5"
    [ "$status" -eq 0 ]
    [ "$(sed -n 's/^peak //p' <<< "$stderr")" -lt $((128 * 1024)) ]
    $PYTHON -c '
import json, sys
d = json.load(sys.stdin)
assert d["provenance_input_count"] == 10**7, d["provenance_input_count"]
assert len(d["provenance"]["inputs"]) == 1024
assert d["provenance"]["inputs"][0]["name"] == "iris.data" and d["provenance"]["inputs"][1] == {}
assert d["provenance"]["created"] == "2026-01-02T03:04:05Z"
' <<<"$output"
}

@test "a file converted from fuel fixture --raw output says so on its first line, as fixtures do" {
    cd "$BATS_TEST_TMPDIR"
    fuel-fixture mnist --raw -o raw -n 3 > /dev/null
    fuel-convert mnist -d raw -o data -q > /dev/null
    run --separate-stderr fuel-info data/mnist.hdf5
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "THIS IS A FIXTURE, NOT THE REAL DATA: converted from fuel fixture --raw output, synthetic raw files (marked: 4 of its 4 inputs)." ]
    # ImageNet's tars of JPEGs have no place for the mark: the devkit's is enough.
    fuel-fixture ilsvrc2012 --raw -o imagenet -n 2 > /dev/null
    fuel-convert ilsvrc2012 -d imagenet -o data -q > /dev/null
    run --separate-stderr fuel-info data/ilsvrc2012.hdf5
    [ "${lines[0]}" = "THIS IS A FIXTURE, NOT THE REAL DATA: converted from fuel fixture --raw output, synthetic raw files (marked: 1 of its 4 inputs)." ]
    # Several files: one line each, the fixture column too.
    run --separate-stderr fuel-info data/mnist.hdf5 "$EXPECTED/mnist.hdf5"
    [ "$status" -eq 0 ]
    [[ "${lines[0]}" == "mnist.hdf5 "*" fixture" ]]
    [[ "${lines[1]}" != *fixture* ]]
    run fuel-info "$EXPECTED/mnist.hdf5"
    [[ "$output" != *FIXTURE* ]]
}
