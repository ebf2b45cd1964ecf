#!/usr/bin/env bats
# fuel-convert mnist and fashion_mnist: Fuel's output, options, provenance, and every error path.

bats_require_minimum_version 1.5.0

load ../helpers/assertions

PYTHON=/usr/bin/python3

setup() {
    RAW="$FUEL_FIXTURES/raw/mnist"
    EXPECTED="$FUEL_FIXTURES/expected"
    OUT="$BATS_TEST_TMPDIR/out"
    mkdir -p "$OUT"
}

copy_raw() {
    mkdir -p "$BATS_TEST_TMPDIR/raw"
    cp "$RAW"/* "$BATS_TEST_TMPDIR/raw/"
    RAW="$BATS_TEST_TMPDIR/raw"
}

no_temporary_files() {
    [ -z "$(find "$OUT" -name '.fuel-staging-*')" ]
}

@test "mnist matches Fuel's mnist.hdf5 and prints the output path" {
    run fuel-convert mnist -d "$RAW" -o "$OUT"
    [ "$status" -eq 0 ]
    [ "$output" = "$OUT/mnist.hdf5" ]
    run $PYTHON tests/helpers/compare_hdf5.py "$OUT/mnist.hdf5" "$EXPECTED/mnist.hdf5"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    no_temporary_files
}

@test "mnist --dtype float32 matches Fuel's mnist_float32.hdf5" {
    run fuel-convert mnist -d "$RAW" -o "$OUT" --dtype float32
    [ "$status" -eq 0 ]
    run $PYTHON tests/helpers/compare_hdf5.py "$OUT/mnist_float32.hdf5" "$EXPECTED/mnist_float32.hdf5"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "mnist --dtype float64 and bool follow Fuel's semantics" {
    run fuel-convert mnist -d "$RAW" -o "$OUT" --dtype=float64
    [ "$status" -eq 0 ]
    run fuel convert mnist -d "$RAW" -o "$OUT" --dtype bool
    [ "$status" -eq 0 ]
    run $PYTHON - "$OUT" "$EXPECTED/mnist.hdf5" <<'PY'
import sys, h5py, numpy
out, reference = sys.argv[1], sys.argv[2]
pixels = h5py.File(reference, "r")["features"][...]
as_float = h5py.File(out + "/mnist_float64.hdf5", "r")["features"]
as_bool = h5py.File(out + "/mnist_bool.hdf5", "r")["features"]
assert as_float.dtype == numpy.float64, as_float.dtype
assert numpy.array_equal(as_float[...], pixels.astype(numpy.float64) / 255.0)
assert as_bool.dtype == numpy.bool_, as_bool.dtype
assert numpy.array_equal(as_bool[...], pixels >= 128)
PY
    [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "fuel_convert_command holds the command as typed; provenance names the inputs" {
    run fuel convert mnist -d "$RAW" -o "$OUT" -r typed
    [ "$status" -eq 0 ]
    [ -f "$OUT/typed.hdf5" ]
    run $PYTHON - "$OUT/typed.hdf5" "$RAW" <<'PY'
import sys, json, hashlib, os, h5py
handle = h5py.File(sys.argv[1], "r")
command = handle.attrs["fuel_convert_command"]
assert command == "fuel convert mnist -d %s -o %s -r typed" % (sys.argv[2], os.path.dirname(sys.argv[1])), command
assert handle.attrs["h5py_interface_version"] == "0.3"
provenance = json.loads(handle.attrs["fuel_provenance"])
names = [entry["name"] for entry in provenance["inputs"]]
assert sorted(names) == sorted(os.listdir(sys.argv[2])), names
for entry in provenance["inputs"]:
    data = open(os.path.join(sys.argv[2], entry["name"]), "rb").read()
    assert entry["sha256"] == hashlib.sha256(data).hexdigest()
    assert entry["size"] == len(data)
assert {"hdf5", "zlib", "libarchive", "libcurl", "libpng"} <= set(provenance["libraries"])
PY
    [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "-r keeps .h5, .hdf and .hdf5 extensions and adds .hdf5 otherwise" {
    run fuel-convert mnist -d "$RAW" -o "$OUT" -r a.h5
    [ "$output" = "$OUT/a.h5" ]
    run fuel-convert mnist -d "$RAW" -o "$OUT" --output_filename b.hdf
    [ "$output" = "$OUT/b.hdf" ]
    run fuel-convert mnist -d "$RAW" -o "$OUT" --output_filename=c.data
    [ "$output" = "$OUT/c.data.hdf5" ]
    [ "$(ls -A "$OUT" | tr '\n' ' ')" = "a.h5 b.hdf c.data.hdf5 " ]
    run $PYTHON tests/helpers/compare_hdf5.py "$OUT/a.h5" "$EXPECTED/mnist.hdf5" \
        "$OUT/b.hdf" "$EXPECTED/mnist.hdf5" "$OUT/c.data.hdf5" "$EXPECTED/mnist.hdf5"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "-r is joined to -o as Fuel's os.path.join: a subdirectory, or an absolute path" {
    mkdir "$OUT/sub" "$BATS_TEST_TMPDIR/elsewhere"
    run fuel-convert mnist -d "$RAW" -o "$OUT" -r sub/d
    [ "$status" -eq 0 ]
    [ "$output" = "$OUT/sub/d.hdf5" ]
    run fuel-convert mnist -d "$RAW" -o "$OUT" -r "$BATS_TEST_TMPDIR/elsewhere/e.h5"
    [ "$status" -eq 0 ]
    [ "$output" = "$BATS_TEST_TMPDIR/elsewhere/e.h5" ]
    fuel-info "$OUT/sub/d.hdf5" > /dev/null
    fuel-info "$BATS_TEST_TMPDIR/elsewhere/e.h5" > /dev/null
    [ -z "$(find "$BATS_TEST_TMPDIR" -name '.*.XXXXXX' -o -name '.fuel-staging-*')" ]
}

@test "the same inputs, command and SOURCE_DATE_EPOCH give a byte-identical file" {
    cd "$OUT"
    SOURCE_DATE_EPOCH=1700000000 fuel-convert mnist -d "$RAW" -r first.hdf5
    cp first.hdf5 kept.hdf5
    SOURCE_DATE_EPOCH=1700000000 fuel-convert mnist -d "$RAW" -r first.hdf5
    cmp first.hdf5 kept.hdf5
    run $PYTHON -c 'import sys, json, h5py; print(json.loads(h5py.File(sys.argv[1], "r").attrs["fuel_provenance"])["created"])' first.hdf5
    [ "$output" = "2023-11-14T22:13:20Z" ]
}

@test "h5py reads the split attribute as H5PYDataset expects" {
    fuel-convert mnist -d "$RAW" -o "$OUT"
    run $PYTHON - "$OUT/mnist.hdf5" <<'PY'
import sys, h5py, numpy
handle = h5py.File(sys.argv[1], "r")
split = handle.attrs["split"]
assert split.dtype.names == ("split", "source", "start", "stop", "indices", "available", "comment")
assert split.dtype["available"] == numpy.bool_
assert h5py.check_dtype(ref=split.dtype["indices"]) is h5py.Reference
rows = {(r["split"], r["source"]): (r["start"], r["stop"], bool(r["available"])) for r in split}
assert rows[(b"train", b"features")] == (0, 12, True), rows
assert rows[(b"test", b"targets")] == (12, 14, True), rows
assert all(not bool(r["indices"]) for r in split)
assert [d.label for d in handle["features"].dims] == ["batch", "channel", "height", "width"]
assert handle["features"].chunks is None and handle["features"].compression is None
PY
    [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "missing inputs: one line naming the first and the count with Fuel's hint, -v lists them; exit 3, nothing written" {
    copy_raw
    rm "$RAW/t10k-labels-idx1-ubyte.gz" "$RAW/train-images-idx3-ubyte.gz"
    run --separate-stderr fuel-convert mnist -d "$RAW" -o "$OUT"
    [ "$status" -eq 3 ]
    [ -z "$output" ]
    [ "$stderr" = "fuel-convert: 2 required files not found: $RAW/train-images-idx3-ubyte.gz and 1 more (-v lists them); Did you forget to run fuel-download?" ]
    run --separate-stderr fuel-convert mnist -d "$RAW" -o "$OUT" -v
    [ "$status" -eq 3 ]
    [ "$stderr" = "fuel-convert: 2 required files not found: $RAW/train-images-idx3-ubyte.gz and 1 more, listed below; Did you forget to run fuel-download?
   * $RAW/train-images-idx3-ubyte.gz
   * $RAW/t10k-labels-idx1-ubyte.gz" ]
    rm "$RAW"/*
    cp "$FUEL_FIXTURES/raw/mnist/train-labels-idx1-ubyte.gz" "$RAW/"
    run --separate-stderr fuel-convert mnist -d "$RAW" -o "$OUT"
    [ "$stderr" = "fuel-convert: 3 required files not found: $RAW/train-images-idx3-ubyte.gz and 2 more (-v lists them); Did you forget to run fuel-download?" ]
    cp "$FUEL_FIXTURES/raw/mnist/"* "$RAW/"
    rm "$RAW/t10k-images-idx3-ubyte.gz"
    run --separate-stderr fuel-convert mnist -d "$RAW" -o "$OUT" -v
    [ "$status" -eq 3 ]
    [ "$stderr" = "fuel-convert: required file not found: $RAW/t10k-images-idx3-ubyte.gz; Did you forget to run fuel-download?" ]
    [ -z "$(ls -A "$OUT")" ]
}

@test "a truncated gzip exits 4 naming the file and keeps the previous output" {
    copy_raw
    fuel-convert mnist -d "$RAW" -o "$OUT"
    cp "$OUT/mnist.hdf5" "$BATS_TEST_TMPDIR/previous.hdf5"
    head -c 2000 "$RAW/train-images-idx3-ubyte.gz" > "$BATS_TEST_TMPDIR/cut"
    mv "$BATS_TEST_TMPDIR/cut" "$RAW/train-images-idx3-ubyte.gz"
    run fuel-convert mnist -d "$RAW" -o "$OUT"
    [ "$status" -eq 4 ]
    [ "${#lines[@]}" -eq 1 ]
    [[ "$output" == "fuel-convert: cannot read IDX data: $RAW/train-images-idx3-ubyte.gz: "* ]]
    cmp "$OUT/mnist.hdf5" "$BATS_TEST_TMPDIR/previous.hdf5"
    no_temporary_files
}

@test "a wrong magic number exits 4" {
    copy_raw
    cp "$RAW/train-labels-idx1-ubyte.gz" "$RAW/train-images-idx3-ubyte.gz"
    run fuel-convert mnist -d "$RAW" -o "$OUT"
    [ "$status" -eq 4 ]
    [ "$output" = "fuel-convert: not an MNIST image file: $RAW/train-images-idx3-ubyte.gz: magic number 2049" ]
    [ -z "$(ls -A "$OUT")" ]
}

# Replaces the magic number of the gzipped IDX file FILE with MAGIC, keeping the rest.
set_magic() {
    $PYTHON -c 'import gzip, struct, sys
data = gzip.open(sys.argv[1]).read()
gzip.open(sys.argv[1], "wb").write(struct.pack(">I", int(sys.argv[2])) + data[4:])' "$1" "$2"
}

@test "an IDX magic number of another element type (3075: int32, 3 dimensions) exits 4 naming it" {
    copy_raw
    fuel-convert mnist -d "$RAW" -o "$OUT"
    cp "$OUT/mnist.hdf5" "$BATS_TEST_TMPDIR/previous.hdf5"
    set_magic "$RAW/train-images-idx3-ubyte.gz" 3075
    run --separate-stderr fuel-convert mnist -d "$RAW" -o "$OUT"
    [ "$status" -eq 4 ]
    [ -z "$output" ]
    [ "$stderr" = "fuel-convert: not an MNIST image file: $RAW/train-images-idx3-ubyte.gz: magic number 3075" ]
    cmp "$OUT/mnist.hdf5" "$BATS_TEST_TMPDIR/previous.hdf5"
    no_temporary_files
    set_magic "$RAW/train-images-idx3-ubyte.gz" 2051
    set_magic "$RAW/t10k-labels-idx1-ubyte.gz" 3329
    run --separate-stderr fuel-convert mnist -d "$RAW" -o "$OUT"
    [ "$status" -eq 4 ]
    [ "$stderr" = "fuel-convert: not an MNIST label file: $RAW/t10k-labels-idx1-ubyte.gz: magic number 3329" ]
    cmp "$OUT/mnist.hdf5" "$BATS_TEST_TMPDIR/previous.hdf5"
}

@test "an image and label count mismatch exits 4" {
    copy_raw
    cp "$RAW/t10k-labels-idx1-ubyte.gz" "$RAW/train-labels-idx1-ubyte.gz"
    run fuel-convert mnist -d "$RAW" -o "$OUT"
    [ "$status" -eq 4 ]
    [[ "$output" == *"count mismatch"*"12 images"*"2 labels"* ]]
    [ -z "$(ls -A "$OUT")" ]
}

@test "a split with no images gives an empty split" {
    copy_raw
    printf '\0\0\10\3\0\0\0\0\0\0\0\34\0\0\0\34' | gzip -c > "$RAW/train-images-idx3-ubyte.gz"
    printf '\0\0\10\1\0\0\0\0' | gzip -c > "$RAW/train-labels-idx1-ubyte.gz"
    run fuel-convert mnist -d "$RAW" -o "$OUT"
    [ "$status" -eq 0 ]
    run $PYTHON -c 'import h5py, sys
f = h5py.File(sys.argv[1], "r")
print(f["features"].shape, [(r["split"].decode(), r["start"], r["stop"]) for r in f.attrs["split"]][::2])' "$OUT/mnist.hdf5"
    [ "$output" = "(2, 1, 28, 28) [('train', 0, 0), ('test', 0, 2)]" ]
    no_temporary_files
}

@test "a corrupt gzip stream exits 4" {
    copy_raw
    printf 'not gzip at all, not idx either' | gzip -c | head -c 20 > "$RAW/t10k-images-idx3-ubyte.gz"
    run fuel-convert mnist -d "$RAW" -o "$OUT"
    [ "$status" -eq 4 ]
    [[ "$output" == "fuel-convert: "*"$RAW/t10k-images-idx3-ubyte.gz"* ]]
    [ -z "$(ls -A "$OUT")" ]
}

@test "usage errors exit 2; a missing output directory exits 7" {
    run --separate-stderr fuel-convert
    assert_usage_error fuel-convert "missing dataset"
    run --separate-stderr fuel-convert nosuchset
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-convert: unknown dataset: nosuchset; datasets: adult, binarized_mnist, caltech101_silhouettes, celeba, cifar10, cifar100, dogs_vs_cats, fashion_mnist, ilsvrc2010, ilsvrc2012, iris, mnist, svhn" ]
    run --separate-stderr fuel-convert mnist --dtype int7 -d "$RAW"
    [ "$status" -eq 2 ]
    [ -z "$output" ]
    [ "$stderr" = "fuel-convert: invalid --dtype: int7; expected one of uint8, float32, float64, bool" ]
    run --separate-stderr fuel-convert mnist --colour red
    assert_usage_error fuel-convert "unknown option" "--colour"
    touch "$OUT/plain"
    run fuel-convert mnist -d "$RAW" -o "$OUT/plain/absent"
    [ "$status" -eq 7 ]
    [ "$output" = "fuel-convert: cannot create directory: $OUT/plain: not a directory" ]
}

@test "-h lists the datasets, DATASET -h its inputs and options" {
    run fuel-convert -h
    [ "$status" -eq 0 ]
    [[ "$output" == *"mnist"*"fashion_mnist"* ]]
    [ "${lines[-2]}" = "Python Fuel 0.2's youtube_audio is out of scope: its raw files come from YouTube" ]
    [ "${lines[-1]}" = "itself, through youtube-dl, not from a published archive." ]
    run fuel-convert mnist -h
    [ "$status" -eq 0 ]
    [[ "$output" == *"train-images-idx3-ubyte.gz"* ]]
    [[ "$output" == *"--dtype {uint8,float32,float64,bool}"* ]]
    [[ "$output" == *"mnist.hdf5"* ]]
}

@test "Fashion-MNIST as Debian ships it: 70,000 images, values equal to the raw files" {
    FASHION=/usr/share/datasets/fashion-mnist
    run fuel-convert fashion_mnist -d "$FASHION" -o "$OUT"
    [ "$status" -eq 0 ]
    [ "$output" = "$OUT/fashion_mnist.hdf5" ]
    run $PYTHON - "$OUT/fashion_mnist.hdf5" "$FASHION" <<'PY'
import sys, gzip, h5py, numpy
handle = h5py.File(sys.argv[1], "r")
def raw(name, offset):
    return numpy.frombuffer(gzip.open(sys.argv[2] + "/" + name).read()[offset:], numpy.uint8)
images = numpy.concatenate([raw("train-images-idx3-ubyte.gz", 16), raw("t10k-images-idx3-ubyte.gz", 16)])
labels = numpy.concatenate([raw("train-labels-idx1-ubyte.gz", 8), raw("t10k-labels-idx1-ubyte.gz", 8)])
assert handle["features"].shape == (70000, 1, 28, 28)
assert numpy.array_equal(handle["features"][...].reshape(-1), images)
assert numpy.array_equal(handle["targets"][...].reshape(-1), labels)
rows = {(r["split"], r["source"]): (r["start"], r["stop"]) for r in handle.attrs["split"]}
assert rows[(b"train", b"features")] == (0, 60000) and rows[(b"test", b"targets")] == (60000, 70000)
PY
    [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "an option given as --name=value is recorded in fuel_convert_command as typed" {
    run fuel-convert mnist --directory="$RAW" -o "$OUT" --dtype=float32
    [ "$status" -eq 0 ]
    [ "$output" = "$OUT/mnist_float32.hdf5" ]
    run $PYTHON -c 'import sys, h5py; print(h5py.File(sys.argv[1], "r").attrs["fuel_convert_command"])' \
        "$OUT/mnist_float32.hdf5"
    [ "$output" = "fuel-convert mnist --directory=$RAW -o $OUT --dtype=float32" ]
}

@test "--threads 1 and --threads 4 write the same sources and splits (fixture and Fashion-MNIST)" {
    for dtype in uint8 float32; do
        run fuel-convert mnist -d "$RAW" -o "$OUT" --dtype $dtype --threads 1 -r one
        [ "$status" -eq 0 ]
        run fuel-convert mnist -d "$RAW" -o "$OUT" --dtype $dtype --threads 4 -r four
        [ "$status" -eq 0 ]
        run $PYTHON tests/helpers/compare_hdf5.py "$OUT/one.hdf5" "$OUT/four.hdf5"
        [ "$status" -eq 0 ] || { echo "$output"; false; }
    done
    local fashion=/usr/share/datasets/fashion-mnist
    [ -e "$fashion/train-images-idx3-ubyte.gz" ] || return 0
    run fuel-convert fashion_mnist -d "$fashion" -o "$OUT" --threads 1 -r fashion_one
    [ "$status" -eq 0 ]
    run fuel-convert fashion_mnist -d "$fashion" -o "$OUT" --threads 4 -r fashion_four
    [ "$status" -eq 0 ]
    run $PYTHON tests/helpers/compare_hdf5.py "$OUT/fashion_one.hdf5" "$OUT/fashion_four.hdf5"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    run $PYTHON -c "import h5py; f = h5py.File('$OUT/fashion_four.hdf5', 'r'); print(f['features'].shape, int(f['features'][69999].sum()))"
    [ "$output" = "$($PYTHON -c "import gzip, numpy; d = numpy.frombuffer(gzip.open('$fashion/t10k-images-idx3-ubyte.gz').read()[16:], numpy.uint8); print((70000, 1, 28, 28), int(d[-784:].astype(int).sum()))")" ]
}

@test "a truncated test image file with both inflating at once is exit 4, naming it" {
    copy_raw
    gzip -dc "$RAW/t10k-images-idx3-ubyte.gz" | head -c 1000 | gzip > "$BATS_TEST_TMPDIR/cut.gz"
    mv "$BATS_TEST_TMPDIR/cut.gz" "$RAW/t10k-images-idx3-ubyte.gz"
    run fuel-convert mnist -d "$RAW" -o "$OUT" --threads 2
    [ "$status" -eq 4 ]
    [[ "$output" == *"t10k-images-idx3-ubyte.gz"* ]]
    [ ! -e "$OUT/mnist.hdf5" ]
    no_temporary_files
}

# gzip as gzip reads it (common/formats/gzip/inflate.h says what gzip 1.12 does with each case).
@test "IDX files of several gzip members followed by zeros are read whole, as gzip -dc reads them" {
    copy_raw
    for file in "$RAW"/*.gz; do
        $PYTHON tests/helpers/gzip_variant.py members "$FUEL_FIXTURES/raw/mnist/${file##*/}" "$file"
    done
    run gzip -t "$RAW/train-images-idx3-ubyte.gz"
    [ "$status" -eq 0 ]
    run fuel-convert mnist -d "$RAW" -o "$OUT"
    [ "$status" -eq 0 ]
    run $PYTHON tests/helpers/compare_hdf5.py "$OUT/mnist.hdf5" "$EXPECTED/mnist.hdf5"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "trailing garbage, a wrong CRC-32 or ISIZE, a member cut after 1f 8b: exit 4 naming the file" {
    # MODE FILE, gzip -t's exit status, fuel's reason.
    cases='garbage train-images-idx3-ubyte.gz 2 trailing garbage after the gzip data
crc t10k-labels-idx1-ubyte.gz 1 invalid compressed data--crc error
length train-labels-idx1-ubyte.gz 1 invalid compressed data--length error
cut_member t10k-images-idx3-ubyte.gz 1 unexpected end of file'
    copy_raw
    while read -r mode file gzip_status reason; do
        cp "$FUEL_FIXTURES/raw/mnist"/* "$RAW/"
        $PYTHON tests/helpers/gzip_variant.py "$mode" "$FUEL_FIXTURES/raw/mnist/$file" "$RAW/$file"
        run gzip -t "$RAW/$file"
        [ "$status" -eq "$gzip_status" ]
        run fuel-convert mnist -d "$RAW" -o "$OUT"
        [ "$status" -eq 4 ]
        [ "$output" = "fuel-convert: cannot read IDX data: $RAW/$file: $reason" ]
        [ -z "$(ls -A "$OUT")" ]
    done <<< "$cases"
}
