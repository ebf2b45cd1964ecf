#!/usr/bin/env bats
# fuel fixture: synthetic files in the real layout, raw files the real pipeline reads, cuts of
# existing files, determinism, the provenance note, and every refusal.

bats_require_minimum_version 1.5.0

PYTHON=/usr/bin/python3
CHECK=tests/helpers/fixture_check.py

# dataset words, raw fixture folder under $FUEL_FIXTURES/raw, output file, fixture options for the
# layout check (Adult's 104 columns need 41 training rows, where each value occurs once)
DATASETS=(
    "mnist|mnist|mnist.hdf5"
    "fashion_mnist|mnist|fashion_mnist.hdf5"
    "binarized_mnist|binarized_mnist|binarized_mnist.hdf5"
    "cifar10|cifar10|cifar10.hdf5"
    "cifar100|cifar100|cifar100.hdf5"
    "iris|iris|iris.hdf5"
    "svhn 1|svhn1|svhn_format_1.hdf5"
    "svhn 2|svhn2|svhn_format_2.hdf5"
    "adult|adult|adult.hdf5|-n train=41"
    "caltech101_silhouettes 16|caltech101_silhouettes16|caltech101_silhouettes16.hdf5"
    "caltech101_silhouettes 28|caltech101_silhouettes28|caltech101_silhouettes28.hdf5"
    "celeba aligned_cropped|celeba|celeba_aligned_cropped.hdf5"
    "celeba 64|celeba|celeba_64.hdf5"
    "dogs_vs_cats|dogs_vs_cats|dogs_vs_cats.hdf5"
)

# at_least N WORDS: N, or the fewest examples per split WORDS's fixture takes when more (adult's:
# 41 training rows hold every value of each column).
at_least() {
    case $2 in
        adult) echo $(($1 > 41 ? $1 : 41)) ;;
        *) echo "$1" ;;
    esac
}

setup() {
    cd "$BATS_TEST_DIRNAME/../.."
    export HOME="$BATS_TEST_TMPDIR/home" FUEL_CONFIG="$BATS_TEST_TMPDIR/empty-fuelrc"
    : >"$FUEL_CONFIG"
    unset FUEL_EXTRA_DOWNLOADERS FUEL_EXTRA_CONVERTERS FUEL_MIRROR SOURCE_DATE_EPOCH
    OUT="$BATS_TEST_TMPDIR/out"
    mkdir -p "$HOME" "$OUT"
    CHECKS=()
}

# layout_matches "DATASET WORDS" RAW FILE [OPTIONS...]: the fixture and the real conversion of the
# shared raw files have the same fuel-info --json layout (counts, commands and provenance aside),
# once layouts_checked has run: each call adds its comparison to CHECKS.
layout_matches() {
    local words=$1 raw=$2 file=$3
    shift 3
    local pair="$BATS_TEST_TMPDIR/layout${#CHECKS[@]}"
    local real="$pair/real" fixture="$pair/fixture"
    mkdir -p "$real" "$fixture"
    # shellcheck disable=SC2086
    fuel-convert $words -d "$FUEL_FIXTURES/raw/$raw" -o "$real" "$@" > /dev/null
    # shellcheck disable=SC2086
    fuel-fixture $words -o "$fixture" ${FIXTURE_OPTIONS:-} "$@" > /dev/null
    fuel-info --check "$fixture/$file" > /dev/null
    fuel-info --json "$real/$file" > "$pair/real.json"
    fuel-info --json "$fixture/$file" > "$pair/fixture.json"
    CHECKS+=(layout "$pair/fixture.json" "$pair/real.json" --)
}

# checked: runs the fixture_check.py checks gathered in CHECKS in one start.
checked() {
    $PYTHON $CHECK "${CHECKS[@]}"
}

@test "every built-in dataset and format: the layout of the real conversion, fuel-info --check passes" {
    for entry in "${DATASETS[@]}"; do
        IFS='|' read -r words raw file options <<<"$entry"
        FIXTURE_OPTIONS=$options layout_matches "$words" "$raw" "$file"
    done
    checked
}

@test "mnist --dtype float32, float64, bool: the layout of the real conversion with that dtype" {
    layout_matches mnist mnist mnist_float32.hdf5 --dtype float32
    layout_matches mnist mnist mnist_float64.hdf5 --dtype float64
    layout_matches mnist mnist mnist_bool.hdf5 --dtype bool
    checked
}

@test "the layout check catches a different layout" {
    fuel-convert mnist -d "$FUEL_FIXTURES/raw/mnist" -o "$OUT" --dtype float32 > /dev/null
    fuel-fixture mnist -o "$OUT" > /dev/null
    fuel-info --json "$OUT/mnist_float32.hdf5" > "$BATS_TEST_TMPDIR/a.json"
    fuel-info --json "$OUT/mnist.hdf5" > "$BATS_TEST_TMPDIR/b.json"
    run $PYTHON $CHECK layout "$BATS_TEST_TMPDIR/b.json" "$BATS_TEST_TMPDIR/a.json"
    [ "$status" -eq 1 ]
    [[ "$output" == *"float32"* ]]
}

@test "values are plausible: labels in range, binarized 0/1, iris positive, svhn boxes inside" {
    declare -A keys=([mnist]=mnist [fashion_mnist]=fashion_mnist [binarized_mnist]=binarized_mnist
        [cifar10]=cifar10 [cifar100]=cifar100 [iris]=iris ["svhn 1"]=svhn1 ["svhn 2"]=svhn2
        [adult]=adult ["caltech101_silhouettes 16"]=caltech16 ["caltech101_silhouettes 28"]=caltech28
        ["celeba aligned_cropped"]=celeba ["celeba 64"]=celeba [dogs_vs_cats]=dogs_vs_cats)
    for entry in "${DATASETS[@]}"; do
        IFS='|' read -r words raw file _ <<<"$entry"
        # shellcheck disable=SC2086
        fuel-fixture $words -o "$OUT" -n "$(at_least 25 "$words")" --seed 11 > /dev/null
        CHECKS+=(plausible "${keys[$words]}" "$OUT/$file" --)
    done
    checked
}

@test "raw fixture -> fuel-download file:// with MD5SUMS -> fuel-convert: the HDF5 fixture's values" {
    local pairs=() number=0
    for entry in "${DATASETS[@]}"; do
        IFS='|' read -r words raw file _ <<<"$entry"
        number=$((number + 1))
        local dir="$BATS_TEST_TMPDIR/$raw" data="$BATS_TEST_TMPDIR/data$number"
        rm -rf "$dir" "$BATS_TEST_TMPDIR/downloaded"
        mkdir -p "$dir" "$data"
        # shellcheck disable=SC2086
        fuel-fixture $words --raw -o "$dir" -n "$(at_least 7 "$words")" --seed 5 > /dev/null
        # shellcheck disable=SC2086
        fuel-download $words --url-prefix "file://$dir/" --checksums "$dir/MD5SUMS" \
            -d "$BATS_TEST_TMPDIR/downloaded" > /dev/null 2>&1
        # shellcheck disable=SC2086
        fuel-convert $words -d "$BATS_TEST_TMPDIR/downloaded" -o "$data" > /dev/null
        # shellcheck disable=SC2086
        fuel-fixture $words -o "$OUT" -n "$(at_least 7 "$words")" --seed 5 > /dev/null
        pairs+=("$data/$file" "$OUT/$file")
    done
    $PYTHON tests/helpers/compare_hdf5.py "${pairs[@]}"
}

@test "a corrupted raw fixture fails fuel-download's --checksums check" {
    fuel-fixture mnist --raw -o "$OUT" > /dev/null
    printf 'x' >> "$OUT/t10k-labels-idx1-ubyte.gz"
    run fuel-download mnist --url-prefix "file://$OUT/" --checksums "$OUT/MD5SUMS" \
        -d "$BATS_TEST_TMPDIR/downloaded"
    [ "$status" -eq 6 ]
}

@test "raw files read back with Python's gzip, pickle, scipy.io.loadmat, h5py and PIL" {
    declare -A keys=([mnist]=mnist [fashion_mnist]=fashion_mnist [binarized_mnist]=binarized_mnist
        [cifar10]=cifar10 [cifar100]=cifar100 [iris]=iris ["svhn 1"]=svhn1 ["svhn 2"]=svhn2
        [adult]=adult ["caltech101_silhouettes 16"]=caltech16 ["caltech101_silhouettes 28"]=caltech28
        ["celeba aligned_cropped"]=celeba ["celeba 64"]=celeba [dogs_vs_cats]=dogs_vs_cats)
    local number=0
    for entry in "${DATASETS[@]}"; do
        IFS='|' read -r words raw file _ <<<"$entry"
        number=$((number + 1))
        local dir="$BATS_TEST_TMPDIR/$number/$raw"
        mkdir -p "$dir"
        # shellcheck disable=SC2086
        run --separate-stderr fuel-fixture $words --raw -o "$dir" -n "$(at_least 6 "$words")"
        [ "$status" -eq 0 ]
        [ -z "$stderr" ]
        [[ "$output" == *"$dir/MD5SUMS"* ]]
        CHECKS+=(raw "${keys[$words]}" "$dir" "$(at_least 6 "$words")" --)
        [ -z "$(find "$dir" -name '.*' -mindepth 1)" ]
    done
    checked
}

@test "CIFAR-10 spreads the training examples over the five batches, as in the real archive" {
    fuel-fixture cifar10 --raw -o "$OUT" -n train=7,test=1 > /dev/null
    run tar -tzf "$OUT/cifar-10-python.tar.gz"
    [ "$status" -eq 0 ]
    for member in data_batch_1 data_batch_2 data_batch_3 data_batch_4 data_batch_5 test_batch \
        batches.meta readme.html; do
        [[ "$output" == *"cifar-10-batches-py/$member"* ]]
    done
    $PYTHON - "$OUT/cifar-10-python.tar.gz" <<'PY'
import pickle, sys, tarfile
archive = tarfile.open(sys.argv[1])
counts = [len(pickle.load(archive.extractfile("cifar-10-batches-py/data_batch_%d" % n),
                          encoding="bytes")[b"labels"]) for n in range(1, 6)]
assert counts == [2, 2, 1, 1, 1], counts
PY
}

@test "-n SPLIT=N sets one split, the others keep 10; Fuel-style reading of the split attribute" {
    run fuel-fixture svhn 1 -o "$OUT" -n test=3,extra=1
    [ "$status" -eq 0 ]
    [ "$output" = "$OUT/svhn_format_1.hdf5" ]
    fuel-fixture binarized_mnist -o "$OUT" -n 4 -n valid=2 > /dev/null
    $PYTHON $CHECK splits "$OUT/svhn_format_1.hdf5" train=10 test=3 extra=1 \
        -- splits "$OUT/binarized_mnist.hdf5" train=4 valid=2 test=4
    run $PYTHON $CHECK splits "$OUT/binarized_mnist.hdf5" train=5
    [ "$status" -eq 1 ]
}

@test "the same command and SOURCE_DATE_EPOCH give the same bytes; another seed other values" {
    for dir in one two; do
        mkdir -p "$BATS_TEST_TMPDIR/$dir"
        (cd "$BATS_TEST_TMPDIR/$dir" && for words in mnist cifar100 iris "svhn 1" "svhn 2"; do
            # shellcheck disable=SC2086
            SOURCE_DATE_EPOCH=1700000000 fuel-fixture $words --seed 3 > /dev/null
            # shellcheck disable=SC2086
            SOURCE_DATE_EPOCH=1700000000 fuel-fixture $words --raw --seed 3 > /dev/null
        done)
    done
    files=$(ls "$BATS_TEST_TMPDIR/one")
    [ "$(echo "$files" | wc -l)" -ge 14 ]
    for file in $files; do
        cmp "$BATS_TEST_TMPDIR/one/$file" "$BATS_TEST_TMPDIR/two/$file"
    done
    (cd "$BATS_TEST_TMPDIR/two" && SOURCE_DATE_EPOCH=1700000000 fuel-fixture mnist --seed 4 > /dev/null)
    run $PYTHON tests/helpers/compare_hdf5.py "$BATS_TEST_TMPDIR/one/mnist.hdf5" "$BATS_TEST_TMPDIR/two/mnist.hdf5"
    [ "$status" -eq 1 ]
}

@test "the provenance says fixture with seed and examples; fuel-info says so first, in words" {
    fuel-fixture mnist -o "$OUT" --seed 9 -n train=4 > /dev/null
    fuel-info --json "$OUT/mnist.hdf5" | $PYTHON -c '
import json, sys
provenance = json.load(sys.stdin)["provenance"]
assert list(provenance)[0] == "fixture", provenance
assert provenance["fixture"] == {"seed": 9, "examples": {"train": 4, "test": 10}}, provenance
assert [entry["name"] for entry in provenance["inputs"]][0] == "train-images-idx3-ubyte.gz"
'
    run fuel-info "$OUT/mnist.hdf5"
    [ "$status" -eq 0 ]
    [[ "${lines[0]}" == "THIS IS A FIXTURE, NOT THE REAL DATA: synthetic examples"*"seed 9 (train 4, test 10)." ]]
    run fuel-info "$FUEL_FIXTURES/expected/mnist.hdf5"
    [[ "$output" != *"FIXTURE"* ]]
}

@test "inputs converted from raw files carry their md5 where it can match the published one" {
    local checks=() number=0
    for entry in "${DATASETS[@]}"; do
        IFS='|' read -r words raw file _ <<<"$entry"
        number=$((number + 1))
        local work="$OUT/$number"
        mkdir -p "$work/raw"
        # shellcheck disable=SC2086
        fuel-fixture $words --raw -o "$work/raw" -n "$(at_least 3 "$words")" > /dev/null
        # shellcheck disable=SC2086
        fuel-convert $words -d "$work/raw" -o "$work/fixture" -q > /dev/null
        # shellcheck disable=SC2086
        fuel-convert $words -d "$FUEL_FIXTURES/raw/$raw" -o "$work/real" -q > /dev/null
        # shellcheck disable=SC2086
        fuel-download $words -h > "$work/published"
        checks+=("$work/published" "$work/fixture/$file" "$work/raw" \
            "fuel fixture --raw" "$work/real/$file" "$FUEL_FIXTURES/raw/$raw" "")
    done
    # One start for every dataset: arguments in groups of seven.
    $PYTHON - "${checks[@]}" > "$BATS_TEST_TMPDIR/kinds" <<'PY'
import hashlib, json, os, re, sys
import h5py
def check(path, directory, origin):
    inputs = json.loads(h5py.File(path, "r").attrs["fuel_provenance"])["inputs"]
    assert inputs, path
    for entry in inputs:
        data = open(os.path.join(directory, entry["name"]), "rb").read()
        size = published.get(entry["name"])
        can_match = size is not None and size in ("size unknown", "%d bytes" % len(data))
        assert entry.get("md5") == (hashlib.md5(data).hexdigest() if can_match else None), entry
        assert entry["sha256"] == hashlib.sha256(data).hexdigest(), entry
        assert entry.get("origin") == (origin or None), entry
        assert list(entry)[:3] == ["name", "size", "sha256"], entry
        print("md5" if can_match else "none")
for first in range(1, len(sys.argv), 7):
    # The files' published sizes and md5s, as fuel download NAME -h lists them.
    published = {m.group(1): m.group(2) for m in re.finditer(
        r"^  (\S+)  (\d+ bytes|size unknown)  md5 [0-9a-f]{32}$", open(sys.argv[first]).read(), re.M)}
    check(*sys.argv[first + 1:first + 4])
    check(*sys.argv[first + 4:first + 7])
PY
    # Both kinds seen: md5s where no size is published (the silhouettes, CelebA), none for files
    # of another size than the published one (every other fixture and test file).
    grep -qx md5 "$BATS_TEST_TMPDIR/kinds"
    grep -qx none "$BATS_TEST_TMPDIR/kinds"
}

@test "an existing file is replaced atomically, as fuel-convert does; no scratch left behind" {
    TMPDIR=/nonexistent run fuel-fixture iris -o "$OUT"
    [ "$status" -eq 7 ]
    [ -z "$(ls -A "$OUT")" ]
    printf 'old' > "$OUT/iris.hdf5"
    before=$(stat -c %i "$OUT/iris.hdf5")
    mkdir -p "$BATS_TEST_TMPDIR/scratch"
    TMPDIR="$BATS_TEST_TMPDIR/scratch" run fuel-fixture iris -o "$OUT"
    [ "$status" -eq 0 ]
    [ -z "$(ls -A "$BATS_TEST_TMPDIR/scratch")" ]
    fuel-info --check "$OUT/iris.hdf5" > /dev/null
    [ "$(stat -c %i "$OUT/iris.hdf5")" != "$before" ]
    [ "$(ls -A "$OUT")" = "iris.hdf5" ]
}

@test "--from: the first N of every split of Fuel's files equal h5py's slices of the parent" {
    for parent in "$FUEL_FIXTURES"/expected/*.hdf5; do
        name=$(basename "$parent")
        run fuel-fixture --from "$parent" -n 3 -o "$OUT"
        [ "$status" -eq 0 ]
        [ "$output" = "$OUT/$name" ]
        fuel-info --check "$OUT/$name" > /dev/null
        fuel-info --json "$parent" > "$BATS_TEST_TMPDIR/$name.parent.json"
        fuel-info --json "$OUT/$name" > "$BATS_TEST_TMPDIR/$name.child.json"
        CHECKS+=(cut "$parent" "$OUT/$name" 3 -- layout "$BATS_TEST_TMPDIR/$name.child.json" "$BATS_TEST_TMPDIR/$name.parent.json" --)
    done
    checked
}

@test "--from -n SPLIT=N, and a cut of a cut; a fixture of fuel's own file" {
    fuel-fixture --from "$FUEL_FIXTURES/expected/cifar10.hdf5" -n train=5,test=1 -o "$OUT" > /dev/null
    fuel-fixture --from "$OUT/cifar10.hdf5" -n 2 -o "$OUT" -r twice > /dev/null
    $PYTHON $CHECK splits "$OUT/cifar10.hdf5" train=5 test=1 \
        -- cut "$OUT/cifar10.hdf5" "$OUT/twice.hdf5" 2 -- splits "$OUT/twice.hdf5" train=2 test=1
}

@test "--from a parent whose split lists indices: the listed examples, in order" {
    fuel-fixture mnist -o "$OUT" -n 6 > /dev/null
    $PYTHON - "$OUT/mnist.hdf5" "$BATS_TEST_TMPDIR/indexed.hdf5" <<'PY'
import shutil, sys, h5py, numpy
shutil.copy(sys.argv[1], sys.argv[2])
handle = h5py.File(sys.argv[2], "r+")
handle["train_indices"] = numpy.array([5, 1, 3, 0], dtype=numpy.int64)
rows = handle.attrs["split"]
for row in rows:
    if row["split"].rstrip(b"\0") == b"train":
        row["indices"] = handle["train_indices"].ref
handle.attrs["split"] = rows
PY
    fuel-fixture --from "$BATS_TEST_TMPDIR/indexed.hdf5" -n 3 -o "$OUT" -r cut > /dev/null
    $PYTHON $CHECK cut "$BATS_TEST_TMPDIR/indexed.hdf5" "$OUT/cut.hdf5" 3
}

@test "--from --shuffle --seed: N random examples, the same ones in every source, reproducible" {
    parent="$FUEL_FIXTURES/expected/svhn_format_1.hdf5"
    fuel-fixture --from "$parent" -n 3 --shuffle --seed 2 -o "$OUT" -r a > /dev/null
    fuel-fixture --from "$parent" -n 3 --shuffle --seed 2 -o "$OUT" -r b > /dev/null
    $PYTHON tests/helpers/compare_hdf5.py "$OUT/a.hdf5" "$OUT/b.hdf5"
    fuel-fixture --from "$FUEL_FIXTURES/expected/iris.hdf5" -n 5 --shuffle --seed 1 -o "$OUT" > /dev/null
    $PYTHON $CHECK cut "$parent" "$OUT/a.hdf5" 3 2 -- cut "$FUEL_FIXTURES/expected/iris.hdf5" "$OUT/iris.hdf5" 5 1
    run $PYTHON $CHECK cut "$FUEL_FIXTURES/expected/iris.hdf5" "$OUT/iris.hdf5" 5
    [ "$status" -eq 1 ]
}

@test "--from: the provenance names the parent's sha256 and command; fuel-info says it first" {
    parent="$FUEL_FIXTURES/expected/mnist.hdf5"
    fuel-fixture --from "$parent" -n 1 -o "$OUT" > /dev/null
    sha=$(sha256sum "$parent" | cut -d' ' -f1)
    fuel-info --json "$OUT/mnist.hdf5" | $PYTHON -c '
import json, sys
fixture = json.load(sys.stdin)["provenance"]["fixture"]
parent = fixture["parent"]
assert parent["sha256"] == sys.argv[1], parent
assert parent["name"] == "mnist.hdf5" and parent["command"].startswith("fuel-convert"), parent
assert fixture["examples"] == {"test": 1, "train": 1} and fixture["shuffle"] is False, fixture
' "$sha"
    run fuel-info "$OUT/mnist.hdf5"
    [[ "${lines[0]}" == "THIS IS A FIXTURE, NOT THE REAL DATA: a cut of mnist.hdf5 (sha256 $sha)"* ]]
}

@test "bad input: unknown dataset or format (exit 2 with the list), N out of range (exit 2)" {
    run fuel-fixture nosuch -o "$OUT"
    [ "$status" -eq 2 ]
    [ "$output" = "fuel-fixture: unknown dataset: nosuch; datasets: adult, binarized_mnist, caltech101_silhouettes, celeba, cifar10, cifar100, dogs_vs_cats, fashion_mnist, ilsvrc2010, ilsvrc2012, iris, mnist, svhn" ]
    run fuel-fixture svhn 3 -o "$OUT"
    [ "$status" -eq 2 ]
    [ "$output" = "fuel-fixture: svhn needs a format, 1 or 2: 3; see 'fuel-fixture -h'" ]
    run fuel-fixture svhn -o "$OUT"
    [ "$status" -eq 2 ]
    [ "$output" = "fuel-fixture: svhn needs a format, 1 or 2: none given; see 'fuel-fixture -h'" ]
    for bad in 0 -3 1000001 ten train=0 =4; do
        run fuel-fixture mnist -n "$bad" -o "$OUT"
        [ "$status" -eq 2 ]
        [[ "$output" == *"invalid -n"* ]]
    done
    # A count given twice is refused, not the last one kept.
    run --separate-stderr fuel-fixture cifar10 -n 50,7 -o "$OUT"
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-fixture: invalid -n: 7 after 50: N, the count of every split, is given once; set one split with SPLIT=N; see 'fuel-fixture -h'" ]
    run --separate-stderr fuel-fixture cifar10 -n 5 -n 7 -o "$OUT"
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-fixture: invalid -n: 7 after 5: N, the count of every split, is given once; set one split with SPLIT=N; see 'fuel-fixture -h'" ]
    for twice in "-n train=5,train=7" "-n train=5 -n train=7"; do
        run --separate-stderr fuel-fixture cifar10 $twice -o "$OUT"
        [ "$status" -eq 2 ]
        [ "$stderr" = "fuel-fixture: invalid -n: train=7: train is given twice (train=5 first); see 'fuel-fixture -h'" ]
    done
    run fuel-fixture mnist -n valid=3 -o "$OUT"
    [ "$status" -eq 2 ]
    [ "$output" = "fuel-fixture: unknown split of mnist: valid; its splits: train, test" ]
    run fuel-fixture mnist --dtype int8 -o "$OUT"
    [ "$status" -eq 2 ]
    [ "$output" = "fuel-fixture: invalid --dtype: int8; expected one of uint8, float32, float64, bool" ]
    run fuel-fixture mnist --raw --dtype float32 -o "$OUT"
    [ "$status" -eq 2 ]
    [ "$output" = "fuel-fixture: --dtype is not for --raw: the raw files have no options; see 'fuel-fixture -h'" ]
    run fuel-fixture --shuffle -o "$OUT"
    [ "$status" -eq 2 ]
    run fuel-fixture mnist --raw -r name -o "$OUT"
    [ "$status" -eq 2 ]
    run fuel-fixture -o "$OUT"
    [ "$status" -eq 2 ]
    [ "$output" = "fuel-fixture: missing NAME; datasets: mnist, fashion_mnist, cifar10, cifar100, binarized_mnist, iris, svhn 1, svhn 2, adult, caltech101_silhouettes 16, caltech101_silhouettes 28, ilsvrc2010, ilsvrc2012, celeba aligned_cropped, celeba 64, dogs_vs_cats" ]
    [ -z "$(ls -A "$OUT")" ]
}

@test "--from reads its parent once: the cut and the parent's sha256 from the same bytes" {
    cd "$BATS_TEST_TMPDIR"
    $PYTHON -c "import numpy; numpy.save('rows.npy', (numpy.arange(1 << 22) % 251).astype('u1').reshape(1024, 4096)); numpy.save('labels.npy', (numpy.arange(1024) % 10).astype('u1').reshape(1024, 1))"
    printf 'name: rows\nsplits:\n  train: {examples: 768}\n  test: {examples: 256}\nsources:\n  features: {from: rows.npy}\n  targets: {from: labels.npy}\n' > rows.yaml
    fuel pack rows.yaml -o . -q
    ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" run --separate-stderr \
        strace -f -qq -y -e trace=read,pread64,copy_file_range -o trace.txt \
        fuel fixture --from rows.hdf5 -n 64 -o "$OUT"
    [ "$status" -eq 0 ]
    # 128 examples of 4 KiB cut, every byte hashed: the parent's size, with some metadata again.
    taken=$(awk '/rows\.hdf5>/ && / = [0-9]+$/ { total += $NF } END { print total + 0 }' trace.txt)
    size=$(stat -c %s rows.hdf5)
    echo "$taken of $size bytes taken"
    [ "$taken" -ge "$size" ]
    [ "$taken" -lt $((size + 65536)) ]
    "$PYTHON" - "$OUT/rows.hdf5" "$(sha256sum rows.hdf5 | cut -d' ' -f1)" <<'PY'
import json, sys, h5py, numpy
with h5py.File(sys.argv[1], 'r') as f, h5py.File('rows.hdf5', 'r') as parent:
    assert numpy.array_equal(f['features'][:64], parent['features'][:64])
    assert numpy.array_equal(f['features'][64:], parent['features'][768:832])
    inputs = json.loads(f.attrs['fuel_provenance'])['inputs']
assert [entry['sha256'] for entry in inputs] == [sys.argv[2]], inputs
PY
}

@test "bad input: --from a file that is not H5PYDataset: exit 4, nothing written" {
    printf 'not hdf5' > "$BATS_TEST_TMPDIR/plain.hdf5"
    run fuel-fixture --from "$BATS_TEST_TMPDIR/plain.hdf5" -o "$OUT"
    [ "$status" -eq 4 ]
    [[ "$output" == "fuel-fixture: "*"plain.hdf5"* ]]
    $PYTHON -c 'import h5py, sys; h5py.File(sys.argv[1], "w")["x"] = [1, 2]' "$BATS_TEST_TMPDIR/bare.hdf5"
    run fuel-fixture --from "$BATS_TEST_TMPDIR/bare.hdf5" -o "$OUT"
    [ "$status" -eq 4 ]
    run fuel-fixture --from "$BATS_TEST_TMPDIR/missing.hdf5" -o "$OUT"
    [ "$status" -eq 3 ]
    run fuel-fixture --from "$FUEL_FIXTURES/expected/mnist.hdf5" -n nosplit=2 -o "$OUT"
    [ "$status" -eq 2 ]
    [ "$output" = "fuel-fixture: no split nosplit: $FUEL_FIXTURES/expected/mnist.hdf5; its splits: test, train" ]
    run fuel-fixture --from "$FUEL_FIXTURES/expected/mnist.hdf5" mnist -o "$OUT"
    [ "$status" -eq 2 ]
    [ -z "$(ls -A "$OUT")" ]
}

@test "bad input: --from never replaces its parent; an unwritable output directory is exit 7" {
    cp "$FUEL_FIXTURES/expected/iris.hdf5" "$OUT/"
    run fuel-fixture --from "$OUT/iris.hdf5" -o "$OUT"
    [ "$status" -eq 2 ]
    [[ "$output" == *"would replace its parent"* ]]
    cmp "$OUT/iris.hdf5" "$FUEL_FIXTURES/expected/iris.hdf5"
    touch "$BATS_TEST_TMPDIR/plain"
    run fuel-fixture iris -o "$BATS_TEST_TMPDIR/plain/directory"
    [ "$status" -eq 7 ]
    [ "$output" = "fuel-fixture: cannot create directory: $BATS_TEST_TMPDIR/plain: not a directory" ]
}

@test "an extra (manifest) dataset: a clear error naming --from" {
    export FUEL_EXTRA_DOWNLOADERS="$PWD/examples/semeion.json"
    run fuel-fixture semeion -o "$OUT"
    [ "$status" -eq 2 ]
    [[ "$output" == *"no synthetic fixture for the extra dataset semeion"*"--from FILE"* ]]
    [ -z "$(ls -A "$OUT")" ]
}

@test "-h lists every option; fuel fixture and fuel help fixture are the same command" {
    run fuel-fixture -h
    [ "$status" -eq 0 ]
    for word in --output-directory --examples --seed --raw --from --shuffle --output_filename; do
        [[ "$output" == *"$word"* ]]
    done
    run fuel help fixture
    [ "$status" -eq 0 ]
    [[ "$output" == *"usage: fuel-fixture"* ]]
    run fuel fixture iris -o "$OUT"
    [ "$status" -eq 0 ]
    [ "$output" = "$OUT/iris.hdf5" ]
    run fuel -h
    [[ "$output" == *"fixture"* ]]
}

@test "examples/ci-fixture.sh runs both forms for every dataset and finds the same data in each" {
    for words in mnist fashion_mnist binarized_mnist cifar10 cifar100 iris "svhn 1" "svhn 2" adult \
        "caltech101_silhouettes 16" "caltech101_silhouettes 28"; do
        # shellcheck disable=SC2086
        run --separate-stderr env PYTHON=$PYTHON WORK="$BATS_TEST_TMPDIR/ci" \
            EXAMPLES="$(at_least 20 "$words")" bash examples/ci-fixture.sh $words
        [ "$status" -eq 0 ] || { echo "$words: $stderr"; false; }
        [[ "${lines[0]}" == "THIS IS A FIXTURE, NOT THE REAL DATA"* ]]
        [[ "$output" == *"/features: $(at_least 20 "$words") examples"* ]] || { echo "$words: $output"; false; }
        [[ "${lines[-1]}" == "fixture ready: $BATS_TEST_TMPDIR/ci/data/"* ]]
    done
}

@test "examples/ci-fixture.sh without WORK leaves the file in ./data and no temporary directory" {
    mkdir "$BATS_TEST_TMPDIR/job" "$BATS_TEST_TMPDIR/tmp"
    cd "$BATS_TEST_TMPDIR/job"
    run --separate-stderr env TMPDIR="$BATS_TEST_TMPDIR/tmp" PYTHON=$PYTHON bash "$BATS_TEST_DIRNAME/../../examples/ci-fixture.sh" iris
    [ "$status" -eq 0 ] || { echo "$stderr"; false; }
    [[ "$output" == *"all/features: 20 examples"* ]]
    [ "${lines[-1]}" = "fixture ready: data/iris.hdf5" ]
    [ -s data/iris.hdf5 ]
    [ -z "$(ls -A "$BATS_TEST_TMPDIR/tmp")" ] || { ls -A "$BATS_TEST_TMPDIR/tmp"; false; }
}

@test "--raw below a dataset's fewest that Python Fuel reads: exit 2 naming the fewest and why, nothing written" {
    why_iris="Python Fuel reads iris.data with numpy.loadtxt, which makes a single line a 1-d array its converter cannot index by column"
    why_truth="Python Fuel reads a ground truth with numpy.loadtxt, which makes a single line a 0-d array it cannot iterate"
    while IFS='|' read -r words counts message; do
        # shellcheck disable=SC2086
        run --separate-stderr fuel fixture $words --raw -n "$counts" -o "$OUT/below"
        [ "$status" -eq 2 ] || { echo "$words -n $counts: exit $status"; false; }
        [ "$stderr" = "fuel-fixture: $message; see 'fuel-fixture -h'" ] || { echo "$stderr"; false; }
        [ ! -e "$OUT/below" ]
    done <<ROWS
iris|1|iris needs at least all=2 examples (got all=1): $why_iris
ilsvrc2012|train=1,valid=1,test=1|ilsvrc2012 needs at least valid=2 examples (got valid=1): $why_truth
ilsvrc2010|train=1,valid=2,test=1|ilsvrc2010 needs at least valid=2,test=2 examples (got test=1): $why_truth
adult|train=40,test=40|adult needs at least train=41,test=40 examples (got train=40): Python Fuel's convert_adult one-hot encodes each split over the values it holds: train needs every value of each column, test every value but Holand-Netherlands
ROWS
    fuel fixture iris --raw -n 2 -o "$OUT/fewest" > /dev/null
    [ "$(grep -c ",Iris-" "$OUT/fewest/iris.data")" -eq 2 ]
}

@test "--quirks: accepted for exactly the datasets fuel-fixture(1)'s QUIRKS section names" {
    named=$(sed -n '/^\.SH QUIRKS/,/^\.SH /{/^\.TP/{n;s/^\.B //p}}' man/fuel-fixture.1 | sort | tr '\n' ' ')
    [ "$named" = "dogs_vs_cats " ]
    accepted=""
    for words in adult binarized_mnist "caltech101_silhouettes 16" "celeba 64" cifar10 cifar100 \
        dogs_vs_cats fashion_mnist ilsvrc2010 ilsvrc2012 iris mnist "svhn 1" "svhn 2"; do
        rm -rf "$OUT/quirks"
        # shellcheck disable=SC2086
        run --separate-stderr fuel fixture $words --raw --quirks -o "$OUT/quirks"
        if [ "$status" -eq 0 ]; then
            accepted+="${words%% *} "
        else
            [ "$status" -eq 2 ]
            [ "$stderr" = "fuel-fixture: ${words%% *} has no quirk that Python Fuel cannot read: --quirks is for dogs_vs_cats; see 'fuel-fixture -h'" ]
            [ ! -e "$OUT/quirks" ]
        fi
    done
    [ "$accepted" = "$named" ]
}
