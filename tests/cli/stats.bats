#!/usr/bin/env bats
# fuel-stats: every value compared with h5py + numpy float64 (tests/helpers/stats_check.py, 1e-12
# relative) on real Fashion-MNIST and on every dataset's fixture; hostile files get their exits.

bats_require_minimum_version 1.5.0

PYTHON=/usr/bin/python3

setup() {
    EXPECTED="$FUEL_FIXTURES/expected"
    CHECK="$BATS_TEST_DIRNAME/../helpers/stats_check.py"
    export HOME="$BATS_TEST_TMPDIR/home" FUEL_CONFIG="$BATS_TEST_TMPDIR/empty-fuelrc"
    : >"$FUEL_CONFIG"
    mkdir -p "$HOME"
    unset FUEL_DATA_PATH
    FILE="$BATS_TEST_TMPDIR/file.hdf5"
    REPORT="$BATS_TEST_TMPDIR/report.json"
}

# fuel stats --json of $1 (and the options after it), then numpy's verdict on every value.
numpy_agrees() {
    run --separate-stderr fuel stats --json "$@"
    [ "$status" -eq 0 ] || { echo "$stderr"; false; }
    printf '%s\n' "$output" > "$REPORT"
    run $PYTHON "$CHECK" "$1" "$REPORT"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
}

# A copy of mnist.hdf5 at $FILE changed by the Python statements of stdin, run on it as `f`.
changed_mnist() {
    cp "$EXPECTED/mnist.hdf5" "$FILE"
    chmod u+w "$FILE"
    $PYTHON -c '
import sys, h5py, numpy
f = h5py.File(sys.argv[1], "r+")
def replace(name, data, labels):
    del f[name]
    f.create_dataset(name, data=data)
    for axis, label in enumerate(labels):
        f[name].dims[axis].label = label
exec(sys.stdin.read())
f.close()
' "$FILE"
}

@test "real Fashion-MNIST: numpy's values, its ten class counts, Normalize's known constants" {
    local fashion=/usr/share/datasets/fashion-mnist
    fuel convert fashion_mnist -d "$fashion" -o "$BATS_TEST_TMPDIR" > /dev/null
    numpy_agrees "$BATS_TEST_TMPDIR/fashion_mnist.hdf5"
    [ "$output" = "train/features train/targets test/features test/targets" ]
    run fuel stats "$BATS_TEST_TMPDIR/fashion_mnist.hdf5" --sources targets
    [ "$status" -eq 0 ]
    [ "$(grep -c '^    class .* 6000$' <<< "$output")" -eq 10 ]
    [ "$(grep -c '^    class .* 1000$' <<< "$output")" -eq 10 ]
    run fuel stats "$BATS_TEST_TMPDIR/fashion_mnist.hdf5" --sources features
    [ "${lines[-1]}" = "normalize (train features, scaled to [0, 1]): transforms.Normalize(mean=(0.2860,), std=(0.3530,))" ]
}

# fuel stats --json of each file of the pairs "FILE ARGUMENTS", then numpy's verdict on all at once.
numpy_agrees_all() {
    local pair checked=() number=0
    for pair in "$@"; do
        number=$((number + 1))
        run --separate-stderr fuel stats --json $pair
        [ "$status" -eq 0 ] || { echo "$pair: $stderr"; false; }
        printf '%s\n' "$output" > "$BATS_TEST_TMPDIR/report$number.json"
        checked+=("${pair%% *}" "$BATS_TEST_TMPDIR/report$number.json")
    done
    run $PYTHON "$CHECK" "${checked[@]}"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "every dataset's fixture: numpy's values for every split and source" {
    local dataset pairs=()
    for dataset in mnist binarized_mnist cifar10 cifar100 "svhn 1" "svhn 2" iris adult \
        "caltech101_silhouettes 16" "celeba 64" dogs_vs_cats ilsvrc2012 ilsvrc2010; do
        local directory="$BATS_TEST_TMPDIR/fixture-${dataset// /-}"
        fuel fixture $dataset -o "$directory" > /dev/null
        local made=("$directory"/*.hdf5)
        pairs+=("${made[0]}")
    done
    numpy_agrees_all "${pairs[@]}"
    [ "${#lines[@]}" -eq 13 ]
}

@test "Python Fuel's own files: numpy's values, split indices and variable-length sources too" {
    local name pairs=()
    for name in mnist.hdf5 mnist_float32.hdf5 svhn_format_1.hdf5 svhn_format_2.hdf5 iris.hdf5 \
        caltech101_silhouettes28.hdf5 dogs_vs_cats.hdf5; do
        pairs+=("$EXPECTED/$name")
    done
    numpy_agrees_all "${pairs[@]}"
    [ "${#lines[@]}" -eq 7 ]
}

@test "floats far from zero, NaN and Inf among them: the finite values' numpy statistics" {
    changed_mnist <<'PY'
rng = numpy.random.RandomState(3)
data = (1e8 + rng.standard_normal((14, 3, 5, 7))).astype("float64")
data[0, 0, 0, :3] = numpy.nan
data[1, 2, 1, 0] = numpy.inf
data[2, 1, 3, 3] = -numpy.inf
replace("features", data, ["batch", "height", "channel", "width"])
PY
    numpy_agrees "$FILE"
    run fuel stats "$FILE" --split train --sources features
    [ "${lines[1]}" = "  features (float64, 12 examples)" ]
    [[ "${lines[2]}" == *"  NaN 3  Inf 2" ]]
}

# 960 KB examples: blocks of 4, three in train, summarised on workers and merged in order.
@test "blocks summarised on any threads: the bytes --threads 1 prints and draws, numpy's values" {
    changed_mnist <<'PY'
rng = numpy.random.RandomState(4)
data = (1e8 + rng.standard_normal((14, 3, 200, 200))).astype("float64")
replace("features", data, ["batch", "channel", "height", "width"])
PY
    numpy_agrees "$FILE" --threads 4
    run --separate-stderr fuel stats --json "$FILE" --threads 1 --plot "$BATS_TEST_TMPDIR/one.png"
    [ "$status" -eq 0 ]
    one=$output
    for threads in 2 4; do
        run --separate-stderr fuel stats --json "$FILE" --threads "$threads" --plot "$BATS_TEST_TMPDIR/many.png"
        [ "$status" -eq 0 ]
        [ "$output" = "$one" ]
        cmp "$BATS_TEST_TMPDIR/one.png" "$BATS_TEST_TMPDIR/many.png"
    done
}

@test "a NaN-only source and an empty split: counts, null statistics, exit 0" {
    changed_mnist <<'PY'
replace("features", numpy.full((14, 1, 2, 2), numpy.nan, "float32"), ["batch", "channel", "height", "width"])
rows = f.attrs["split"]
for row in range(len(rows)):
    if rows[row]["split"] == b"test":
        rows[row]["stop"] = rows[row]["start"]
f.attrs["split"] = rows
PY
    numpy_agrees "$FILE"
    $PYTHON - "$REPORT" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
train, test = [s["sources"][0] for s in sorted(report["splits"], key=lambda s: s["split"] != "train")]
assert train["values"] == {"count": 0, "nan": 48, "infinity": 0, "minimum": None, "maximum": None, "mean": None, "std": None}, train
assert test["examples"] == 0 and test["values"]["count"] == 0 and test["values"]["nan"] == 0, test
assert report["normalize"]["mean"] == [None], report["normalize"]
PY
    run fuel stats "$FILE" --split train --sources features
    [ "$status" -eq 0 ]
    [ "${lines[2]}" = "    values     0 values  NaN 48  Inf 0" ]
    [ "${lines[-1]}" = "normalize (train features): transforms.Normalize(mean=(nan,), std=(nan,))" ]
}

@test "a variable-length source without shapes: its lengths from the elements, the bytes" {
    changed_mnist <<'PY'
vlen = h5py.vlen_dtype(numpy.dtype("int16"))
data = numpy.empty(14, dtype=object)
for index in range(14):
    data[index] = numpy.arange(index % 5 + 1, dtype="int16") - 2
del f["features"]
f.create_dataset("features", data=data, dtype=vlen)
f["features"].dims[0].label = "batch"
PY
    numpy_agrees "$FILE"
    run fuel stats "$FILE" --split train --sources features
    [ "$status" -eq 0 ]
    [ "${lines[2]}" = "    values     33 values  min -2  max 2  mean -0.7575757576  std 1.231660693" ]
    [ "${lines[3]}" = "    length     min 1  median 2.5  max 5" ]
    [ "${lines[4]}" = "    bytes      66" ]
}

@test "stored JPEG files: their sizes; --decode: PIL's RGB pixels per channel, on any threads" {
    fuel fixture ilsvrc2012 -o "$BATS_TEST_TMPDIR" -n 20 > /dev/null
    local file="$BATS_TEST_TMPDIR/ilsvrc2012.hdf5"
    numpy_agrees "$file" --split train --sources encoded_images
    $PYTHON - "$REPORT" <<'PY'
import json, sys
entry = json.load(open(sys.argv[1]))["splits"][0]["sources"][0]
assert entry["jpeg"] is True and "values" not in entry and entry["lengths"][0]["axis"] == "length", entry
PY
    # the fixture's 20 train files hold RGB, gray and CMYK JPEGs and a PNG, as ImageNet's do
    numpy_agrees "$file" --decode --threads 3
    [ "$output" = "train/encoded_images train/filenames train/targets valid/encoded_images valid/filenames valid/targets test/encoded_images test/filenames" ]
    $PYTHON - "$REPORT" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
entry = report["splits"][0]["sources"][0]
assert entry["decoded"] is True and len(entry["channels"]) == 3, entry
assert report["normalize"]["source"] == "encoded_images" and report["normalize"]["scale"] == 255, report
PY
    run --separate-stderr fuel stats "$file" --decode --threads 1 --json
    [ "$output" = "$(cat "$REPORT")" ]
    run fuel stats "$file" --decode --split train --sources encoded_images
    [ "${lines[2]:0:32}" = "    pixels     117912 values  mi" ]
    [ "${lines[3]:0:15}" = "    red        " ]
    [ "${lines[-2]}" = "    bytes      26305 (stored JPEG files, decoded as RGB)" ]
    [[ "${lines[-1]}" == "normalize (train encoded_images, scaled to [0, 1]): transforms.Normalize(mean=("*", "*", "*"), std=("* ]]
}

@test "--decode: a damaged file or one of 600 scans is exit 4 naming the example, in bounded time" {
    fuel fixture ilsvrc2012 -o "$BATS_TEST_TMPDIR" -n 3 > /dev/null
    cp "$BATS_TEST_TMPDIR/ilsvrc2012.hdf5" "$FILE"
    $PYTHON - "$FILE" "$BATS_TEST_DIRNAME/../helpers" <<'PY'
import sys, h5py, numpy
sys.path.insert(0, sys.argv[2])
from hostile_jpeg import many_scans
f = h5py.File(sys.argv[1], "r+")
images = f["encoded_images"]
images[1] = numpy.frombuffer(images[1].tobytes()[:200], numpy.uint8)
images[2] = numpy.frombuffer(many_scans(images[0].tobytes(), 600), numpy.uint8)
PY
    run --separate-stderr fuel stats "$FILE" --decode --split train --sources encoded_images
    [ "$status" -eq 4 ]
    [ -z "$output" ]
    [[ "$stderr" == "fuel-stats: cannot decode JPEG: encoded_images[1]: "* ]]
    run --separate-stderr fuel stats "$FILE" --sources encoded_images
    [ "$status" -eq 0 ]
    $PYTHON - "$FILE" <<'PY'
import sys, h5py
f = h5py.File(sys.argv[1], "r+")
f["encoded_images"][1] = f["encoded_images"][0]
PY
    run --separate-stderr timeout 20 fuel stats "$FILE" --decode --split train --sources encoded_images
    [ "$status" -eq 4 ]
    [[ "$stderr" == "fuel-stats: cannot decode JPEG: encoded_images[2]: "*"500 scans"* ]]
}

@test "--plot: numpy's histograms drawn as bars PIL reads, a pixel column per count" {
    fuel fixture cifar10 -o "$BATS_TEST_TMPDIR" > /dev/null
    local file="$BATS_TEST_TMPDIR/cifar10.hdf5" plot="$BATS_TEST_TMPDIR/plot.png"
    numpy_agrees "$file" --plot "$plot"
    $PYTHON - "$REPORT" "$plot" <<'PY'
import json, sys, numpy
from PIL import Image
report = json.load(open(sys.argv[1]))
image = Image.open(sys.argv[2])
assert image.format == "PNG" and image.mode == "RGB", (image.format, image.mode)
split, = [s for s in report["splits"] if s["split"] == report["plotted_split"] == "train"]
panels = []
for entry in split["sources"]:
    if "classes" in entry:
        counts = [0] * (max(c["class"] for c in entry["classes"]) + 1)
        for c in entry["classes"]:
            counts[c["class"]] += c["examples"]
        panels.append(counts)
    panels += [h["counts"] for h in entry.get("histograms", [])]
assert [len(p) for p in panels] == [256, 256, 256, 10], [len(p) for p in panels]
assert image.size == (110 + 512 + 40, 12 + 4 * 244), image.size
pixels = numpy.asarray(image).astype(int)
for number, counts in enumerate(panels):
    base = 12 + number * 244 + 28 + 160
    width = 512 // len(counts)
    for bar, count in enumerate(counts):
        column = pixels[base - 160:base, 110 + bar * width]
        coloured = (column != 255).any(axis=1) & (column != 0).any(axis=1)
        height = (count * 320 + max(counts)) // (2 * max(counts))
        assert coloured.sum() == height and coloured[160 - height:].all(), (number, bar, count)
PY
    run --separate-stderr fuel stats "$EXPECTED/iris.hdf5" --plot "$plot" --json
    [ "$status" -eq 0 ]
    printf '%s\n' "$output" > "$REPORT"
    run $PYTHON "$CHECK" "$EXPECTED/iris.hdf5" "$REPORT"
    [ "$status" -eq 0 ]
    grep -q '"ranged": true' "$REPORT"
    run --separate-stderr fuel stats "$file" --plot "$BATS_TEST_TMPDIR/absent/plot.png"
    [ "$status" -eq 7 ]
    [ -z "$output" ]
    [ ! -e "$BATS_TEST_TMPDIR/absent" ]
    fuel fixture ilsvrc2012 -o "$BATS_TEST_TMPDIR" -n 3 > /dev/null
    run --separate-stderr fuel stats "$BATS_TEST_TMPDIR/ilsvrc2012.hdf5" --sources filenames --plot "$plot"
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-stats: nothing to plot: split train has no class counts or numbers" ]
}

@test "rows never written (chunks unallocated): the fill value counted, numpy's values, 10^9 at once" {
    changed_mnist <<'PY'
rng = numpy.random.RandomState(5)
del f["features"], f["targets"]
features = f.create_dataset("features", shape=(14, 2, 3, 4), dtype="float64", chunks=(2, 1, 3, 2), fillvalue=2.5)
features[3] = rng.standard_normal((2, 3, 4))
features[8:11, 1, :, 2:] = rng.standard_normal((3, 3, 2))
targets = f.create_dataset("targets", shape=(14, 1), dtype="uint8", chunks=(4, 1), fillvalue=7)
targets[4:8] = [[1], [2], [2], [3]]
for name, labels in (("features", ["batch", "channel", "height", "width"]), ("targets", ["batch", "index"])):
    for axis, label in enumerate(labels):
        f[name].dims[axis].label = label
PY
    numpy_agrees "$FILE" --plot "$BATS_TEST_TMPDIR/plot.png"
    $PYTHON - "$REPORT" <<'PY'
import json, sys
train = [s for s in json.load(open(sys.argv[1]))["splits"] if s["split"] == "train"][0]["sources"][1]
assert {c["class"]: c["examples"] for c in train["classes"]} == {1: 1, 2: 2, 3: 1, 7: 8}, train
PY
    changed_mnist <<'PY'
del f["features"], f["targets"]
f.create_dataset("features", shape=(10**9, 1, 28, 28), dtype="uint8", chunks=(1, 1, 28, 28))
f.create_dataset("targets", shape=(10**9, 1), dtype="uint8", chunks=(1024, 1), fillvalue=4)
rows = f.attrs["split"]
rows[0]["start"] = rows[1]["start"] = 10**9 - 2
rows[0]["stop"] = rows[1]["stop"] = 10**9
rows[2]["stop"] = rows[3]["stop"] = 10**9 - 2
f.attrs["split"] = rows
PY
    run --separate-stderr timeout 20 fuel stats "$FILE" --split train --json
    [ "$status" -eq 0 ]
    $PYTHON -c '
import json, sys
features, targets = json.loads(sys.argv[1])["splits"][0]["sources"]
assert features["values"] == {"count": 784 * (10**9 - 2), "nan": 0, "infinity": 0, "minimum": 0.0, "maximum": 0.0, "mean": 0.0, "std": 0.0}, features
assert targets["classes"] == [{"class": 4, "examples": 10**9 - 2}], targets["classes"]
' "$output"
}

@test "a split or source the file lacks: exit 2 naming those it has; not HDF5: exit 4" {
    run --separate-stderr fuel stats "$EXPECTED/mnist.hdf5" --split valid
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-stats: no split valid: $EXPECTED/mnist.hdf5; its splits: test, train" ]
    [ -z "$output" ]
    run --separate-stderr fuel stats "$EXPECTED/mnist.hdf5" --sources targets,labels
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-stats: no source labels: $EXPECTED/mnist.hdf5; its sources: features, targets" ]
    printf 'not hdf5\n' > "$FILE"
    run --separate-stderr fuel stats "$FILE"
    [ "$status" -eq 4 ]
    [ "$stderr" = "fuel-stats: not an HDF5 file: $FILE: it does not start with the HDF5 signature" ]
    run --separate-stderr fuel stats "$BATS_TEST_TMPDIR/absent.hdf5"
    [ "$status" -eq 3 ]
    run --separate-stderr fuel stats
    [ "$status" -eq 2 ]
}

@test "on a terminal a progress line per split and source on stderr, the report alone on stdout" {
    script -qec "fuel-stats $EXPECTED/mnist.hdf5 > $BATS_TEST_TMPDIR/stdout" \
        "$BATS_TEST_TMPDIR/typescript" > /dev/null || true
    grep -qF "train features  0 of 12 examples" "$BATS_TEST_TMPDIR/typescript"
    grep -qF "test targets  0 of 2 examples" "$BATS_TEST_TMPDIR/typescript"
    [ "$(head -1 "$BATS_TEST_TMPDIR/stdout")" = "split test" ]
    script -qec "fuel-stats -q $EXPECTED/mnist.hdf5 > /dev/null" "$BATS_TEST_TMPDIR/quiet" > /dev/null || true
    ! grep -qF "examples" "$BATS_TEST_TMPDIR/quiet"
}
