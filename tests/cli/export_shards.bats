#!/usr/bin/env bats
# fuel-export --to webdataset and --to tfrecord: shards read back by readers written from the
# formats' specifications (tests/helpers/shard_check.py: Python's tarfile grouping members by key as
# WebDataset's tariterators does; tests/helpers/tfrecord.py checking both CRCs, the protobuf library
# decoding each Example) and compared value by value with the source file (h5py); shard counts and
# rank shares; the seeded order; reproducible bytes; refusals before anything is written; a full
# disk and a killed publishing leaving the earlier set.

bats_require_minimum_version 1.5.0

load ../helpers/processes
load ../helpers/export_sets

PYTHON=/usr/bin/python3

setup() {
    EXPECTED="$FUEL_FIXTURES/expected"
    CHECK="$BATS_TEST_DIRNAME/../helpers/shard_check.py"
    JPEGS="$BATS_TEST_DIRNAME/../helpers/jpeg_hdf5.py"
    OUT="$BATS_TEST_TMPDIR/out"
    export HOME="$BATS_TEST_TMPDIR/home" FUEL_CONFIG="$BATS_TEST_TMPDIR/empty-fuelrc"
    : >"$FUEL_CONFIG"
    export SOURCE_DATE_EPOCH=1700000000
    mkdir -p "$HOME"
    unset FUEL_DATA_PATH
}

teardown() {
    stop_jobs
}

# The shards' names and example counts of DIR/SPLIT.json: "NAME:COUNT ..." on one line.
shard_counts() {
    $PYTHON -c 'import json, sys
listing = json.load(open(sys.argv[1]))
print(" ".join("%s:%d" % (shard["name"], shard["examples"]) for shard in listing["shards"]))' "$1/$2.json"
}

# The sources of DIR/SPLIT.json: "NAME DTYPE SHAPE ROLE MEMBER-OR-FEATURE" lines.
shard_sources() {
    $PYTHON -c 'import json, sys
for source in json.load(open(sys.argv[1]))["sources"]:
    print(source["name"], source["dtype"], source["shape"], source["role"],
          source.get("member", source.get("feature")))' "$1/$2.json"
}

@test "webdataset: MNIST's shards read back by key equal the source; SPLIT.json lists shards and sources" {
    run fuel export "$EXPECTED/mnist.hdf5" --to webdataset -o "$OUT" --shards 2
    [ "$status" -eq 0 ]
    [ "$output" = "$OUT/test.json"$'\n'"$OUT/train.json" ]
    run $PYTHON "$CHECK" webdataset "$OUT" train "$EXPECTED/mnist.hdf5" --mtime 1700000000 \
        -- webdataset "$OUT" test "$EXPECTED/mnist.hdf5" --mtime 1700000000
    [ "$status" -eq 0 ]
    [ "$output" = "ok 12 examples in 2 shards"$'\n'"ok 2 examples in 2 shards" ]
    [ "$(shard_counts "$OUT" train)" = "train-000000.tar:6 train-000001.tar:6" ]
    [ "$(shard_sources "$OUT" train)" = "features uint8 [1, 28, 28] image KEY.png"$'\n'"targets uint8 [1] label KEY.cls" ]
    [ "$(tar tf "$OUT/train-000001.tar" | head -4 | tr '\n' ' ')" = "00000006.png 00000006.cls 00000007.png 00000007.cls " ]
    [ "$(tar xOf "$OUT/train-000000.tar" 00000000.cls)" = "$($PYTHON -c 'import h5py, sys; print(h5py.File(sys.argv[1])["targets"][0, 0])' "$EXPECTED/mnist.hdf5")" ]
    [ "$(entries "$OUT")" = "test-000000.tar test-000001.tar test.json train-000000.tar train-000001.tar train.json " ]
    run $PYTHON -c 'import json, sys; p = json.load(open(sys.argv[1]))["provenance"]; print(p["export"]["form"], p["export"]["split"], p["created"])' "$OUT/train.json"
    [ "$output" = "webdataset train 2023-11-14T22:13:20Z" ]
}

@test "webdataset: CIFAR-100's other labels become KEY.SOURCE.npy; SVHN's variable-size images PNGs of their size" {
    fuel export "$EXPECTED/cifar100.hdf5" --to webdataset -o "$OUT/cifar100"
    [ "$(shard_sources "$OUT/cifar100" train)" = "coarse_labels uint8 [1] array KEY.coarse_labels.npy"$'\n'"features uint8 [3, 32, 32] image KEY.png"$'\n'"fine_labels uint8 [1] array KEY.fine_labels.npy" ]
    fuel export "$EXPECTED/cifar100.hdf5" --to webdataset -o "$OUT/fine" --label fine_labels --split test
    [ "$(shard_sources "$OUT/fine" test | tail -1)" = "fine_labels uint8 [1] label KEY.cls" ]
    fuel export "$EXPECTED/svhn_format_1.hdf5" --to webdataset -o "$OUT/svhn" --source features
    run $PYTHON "$CHECK" webdataset "$OUT/cifar100" train "$EXPECTED/cifar100.hdf5" \
        -- webdataset "$OUT/cifar100" test "$EXPECTED/cifar100.hdf5" \
        -- webdataset "$OUT/svhn" train "$EXPECTED/svhn_format_1.hdf5" \
        -- webdataset "$OUT/svhn" test "$EXPECTED/svhn_format_1.hdf5" \
        -- webdataset "$OUT/svhn" extra "$EXPECTED/svhn_format_1.hdf5" \
        -- webdataset "$OUT/fine" test "$EXPECTED/cifar100.hdf5"
    [ "$status" -eq 0 ]
    # CIFAR-100 has no extra split: no extra set was written.
    [ ! -e "$OUT/cifar100/extra.json" ]
}

@test "tfrecord: CIFAR-10's records pass both CRCs and decode with protobuf to the source's values" {
    run fuel export "$EXPECTED/cifar10.hdf5" --to tfrecord -o "$OUT" --shards 3 --split train
    [ "$status" -eq 0 ]
    [ "$(shard_counts "$OUT" train)" = "train-00000-of-00003.tfrecord:20 train-00001-of-00003.tfrecord:20 train-00002-of-00003.tfrecord:20" ]
    [ "$(shard_sources "$OUT" train)" = "features uint8 [3, 32, 32] image image/encoded"$'\n'"targets uint8 [1] label image/class/label" ]
    run $PYTHON "$CHECK" tfrecord "$OUT" train "$EXPECTED/cifar10.hdf5"
    [ "$status" -eq 0 ]
    # The features of the first record, as the format's own decoder reads them.
    run $PYTHON "$BATS_TEST_DIRNAME/../helpers/tfrecord.py" examples "$OUT/train-00000-of-00003.tfrecord"
    [ "$status" -eq 0 ]
    [[ "${lines[0]}" == '{"image/channels":{"int64_list":[3]},"image/class/label":{"int64_list":['*']},"image/colorspace":{"bytes_list":["524742"]},"image/encoded":{"bytes_list":["89504e47'*'"]},"image/filename":{"bytes_list":["30303030303030302e706e67"]},"image/format":{"bytes_list":["504e47"]},"image/height":{"int64_list":[32]},"image/width":{"int64_list":[32]}}' ]]
}

@test "class names from the file's card: in SPLIT.json beside the label, image/class/text; .cls the index" {
    fuel fixture cifar10 -o "$BATS_TEST_TMPDIR" -n 4
    FILE="$BATS_TEST_TMPDIR/cifar10.hdf5"
    fuel export "$FILE" --to webdataset -o "$OUT/w" --split train
    fuel export "$FILE" --to tfrecord -o "$OUT/t" --split train
    run $PYTHON "$CHECK" webdataset "$OUT/w" train "$FILE" -- tfrecord "$OUT/t" train "$FILE"
    [ "$status" -eq 0 ]
    run $PYTHON -c 'import json, sys; print(json.load(open(sys.argv[1]))["sources"][1]["classes"][3])' "$OUT/w/train.json"
    [ "$output" = cat ]
    [ "$(tar xOf "$OUT/w/train-000000.tar" 00000000.cls)" = "$($PYTHON -c 'import h5py, sys; print(h5py.File(sys.argv[1])["targets"][0, 0])' "$FILE")" ]
}

@test "tfrecord: Iris's float32 features become a FloatList, its targets image/class/label" {
    fuel export "$EXPECTED/iris.hdf5" --to tfrecord -o "$OUT"
    run $PYTHON "$CHECK" tfrecord "$OUT" all "$EXPECTED/iris.hdf5"
    [ "$status" -eq 0 ]
    [ "$output" = "ok 150 examples in 1 shards" ]
    [ "$(shard_sources "$OUT" all)" = "features float32 [4] array features"$'\n'"targets uint8 [1] label image/class/label" ]
}

@test "stored JPEGs: a heap object whose header disagrees with its heap ID is read through HDF5, as h5py reads it" {
    $PYTHON "$JPEGS" "$BATS_TEST_TMPDIR/jpegs.hdf5" 11 3 2
    # Example 8's object header claims one byte more than its heap ID: fuel's own walk refuses
    # the collection from there on, HDF5 reads those examples; the shards hold what h5py reads.
    $PYTHON - "$BATS_TEST_TMPDIR/jpegs.hdf5" <<'EOF'
import h5py, struct, sys
with h5py.File(sys.argv[1], 'r') as f:
    offset = f['encoded_images'].id.get_offset()
with open(sys.argv[1], 'r+b') as raw:
    raw.seek(offset + 16 * 8)
    length, collection, index = struct.unpack('<IQI', raw.read(16))
    raw.seek(collection)
    assert raw.read(4) == b'GCOL'
    position = collection + 16
    while True:
        raw.seek(position)
        number, _, _, size = struct.unpack('<HHIQ', raw.read(16))
        assert number != 0
        if number == index:
            raw.seek(position + 8)
            raw.write(struct.pack('<Q', size + 1))
            break
        position += 16 + ((size + 7) & ~7)
EOF
    fuel export "$BATS_TEST_TMPDIR/jpegs.hdf5" --to webdataset -o "$OUT/wds"
    run $PYTHON "$CHECK" webdataset "$OUT/wds" train "$BATS_TEST_TMPDIR/jpegs.hdf5" \
        -- webdataset "$OUT/wds" valid "$BATS_TEST_TMPDIR/jpegs.hdf5" \
        -- webdataset "$OUT/wds" test "$BATS_TEST_TMPDIR/jpegs.hdf5"
    [ "$status" -eq 0 ]
}

@test "stored JPEGs (ImageNet's layout): KEY.jpg and image/encoded hold the bytes as stored; strings kept" {
    $PYTHON "$JPEGS" "$BATS_TEST_TMPDIR/jpegs.hdf5" 11 3 2
    fuel export "$BATS_TEST_TMPDIR/jpegs.hdf5" --to webdataset -o "$OUT/wds" --shards 2
    fuel export "$BATS_TEST_TMPDIR/jpegs.hdf5" --to tfrecord -o "$OUT/tf" --ranks 2
    checks=()
    for split in train valid test; do
        checks+=(webdataset "$OUT/wds" $split "$BATS_TEST_TMPDIR/jpegs.hdf5" --
            tfrecord "$OUT/tf" $split "$BATS_TEST_TMPDIR/jpegs.hdf5" --ranks 2 --)
    done
    run $PYTHON "$CHECK" "${checks[@]}"
    [ "$status" -eq 0 ]
    [ "$(shard_sources "$OUT/wds" train)" = "encoded_images uint8 None encoded image KEY.jpg"$'\n'"targets int16 [1] label KEY.cls"$'\n'"filenames S32 [1] array KEY.filenames.npy" ]
    # The test split has no targets: no .cls member, no image/class/label.
    [ "$(tar tf "$OUT/wds/test-000000.tar" | tr '\n' ' ')" = "00000000.jpg 00000000.filenames.npy " ]
    [ "$(shard_sources "$OUT/tf" test)" = "encoded_images uint8 None encoded image image/encoded"$'\n'"filenames S32 [1] array filenames" ]
}

@test "shard counts: a multiple of --ranks, counts differing by at most one, the remainder spread" {
    cd "$BATS_TEST_TMPDIR"
    mnist_large big.hdf5 103
    # Each set in its own directory, all read back by one shard_check.py start at the end.
    checks=()
    check_counts() {
        local expected=$1 ranks=$2 directory=shards${#checks[@]}
        shift 2
        fuel export big.hdf5 --to webdataset -o $directory -q "$@"
        [ "$(shard_counts $directory train | tr ' ' '\n' | cut -d: -f2 | tr '\n' ' ')" = "$expected" ]
        checks+=(webdataset $directory train big.hdf5 --ranks "$ranks" --)
    }
    check_counts "103 " 1
    check_counts "35 34 34 " 1 --shards 3
    check_counts "26 26 26 25 " 2 --shards 3 --ranks 2
    check_counts "21 21 21 20 20 " 5 --ranks 5
    check_counts "12 12 12 12 11 11 11 11 11 " 1 --shard-examples 12
    check_counts "11 11 11 10 10 10 10 10 10 10 " 5 --shard-examples 12 --ranks 5
    check_counts "$(printf "1 %.0s" $(seq 103))" 103 --ranks 103
    # A size below one example's: as many shards as examples allow, a multiple of --ranks.
    check_counts "2 2 2 $(printf "1 %.0s" $(seq 97))" 4 --shard-size 1 --ranks 4
    # About 2.5 KiB an example (a 512-byte header and a PNG, a header and a block for the label).
    check_counts "52 51 " 1 --shard-size 200K
    run $PYTHON "$CHECK" "${checks[@]}"
    [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "--shuffle --seed S writes numpy's RandomState(S).permutation of the split, keys unchanged" {
    fuel export "$EXPECTED/mnist.hdf5" --to webdataset -o "$OUT/a" --shuffle --seed 9 --shards 2 --split train
    fuel export "$EXPECTED/cifar10.hdf5" --to tfrecord -o "$OUT/b" --shuffle --ranks 3 --split train
    run $PYTHON "$CHECK" webdataset "$OUT/a" train "$EXPECTED/mnist.hdf5" --seed 9 \
        -- tfrecord "$OUT/b" train "$EXPECTED/cifar10.hdf5" --seed 0 --ranks 3
    [ "$status" -eq 0 ]
    first=$(tar tf "$OUT/a/train-000000.tar" | head -1)
    [ "$first" = "$($PYTHON -c 'import numpy; print("%08d.png" % numpy.random.RandomState(9).permutation(12)[0])')" ]
    run $PYTHON "$CHECK" webdataset "$OUT/a" train "$EXPECTED/mnist.hdf5"
    [ "$status" -eq 1 ]
    [[ "$output" == "shard_check.py: example order "* ]]
}

@test "the same command and SOURCE_DATE_EPOCH give the same bytes, with any thread count; mtime from the input's creation" {
    for form in webdataset tfrecord; do
        fuel export "$EXPECTED/cifar10.hdf5" --to $form -o "$OUT/one" --shards 2 --shuffle --seed 4 --threads 1
        fuel export "$EXPECTED/cifar10.hdf5" --to $form -o "$OUT/two" --shards 2 --shuffle --seed 4 --threads 3
        [ "$(cd "$OUT/one" && sha256sum *-0000*)" = "$(cd "$OUT/two" && sha256sum *-0000*)" ]
        before=$(set_digest "$OUT/one")
        fuel export "$EXPECTED/cifar10.hdf5" --to $form -o "$OUT/one" --shards 2 --shuffle --seed 4 --threads 1
        [ "$(set_digest "$OUT/one")" = "$before" ]
        rm -rf "$OUT"
    done
    # Without SOURCE_DATE_EPOCH, the members' time is the input's own creation time.
    fuel fixture mnist -o "$BATS_TEST_TMPDIR" -n 20
    unset SOURCE_DATE_EPOCH
    fuel export "$BATS_TEST_TMPDIR/mnist.hdf5" --to webdataset -o "$OUT" --split train
    [ "$(tar --utc -tvf "$OUT/train-000000.tar" | head -1 | awk '{print $2, $4, $5}')" = "0/0 2023-11-14 22:13" ]
    run $PYTHON "$CHECK" webdataset "$OUT" train "$BATS_TEST_TMPDIR/mnist.hdf5" --mtime 1700000000
    [ "$status" -eq 0 ]
}

# A variable-length float32 source without a shapes scale: neither images nor JPEGs.
ragged_floats() {
    PYTHONPATH="$BATS_TEST_DIRNAME/../helpers" $PYTHON -c 'import sys, h5py, numpy
from chapter4 import create_split_array
with h5py.File(sys.argv[1], "w") as f:
    features = f.create_dataset("features", (4,), dtype=h5py.vlen_dtype(numpy.float32))
    for index in range(4):
        features[index] = numpy.arange(index + 1, dtype=numpy.float32)
    features.dims[0].label = "batch"
    f.attrs["split"] = create_split_array({"train": {"features": (0, 4)}})' "$1"
}

@test "a variable-length float source without shapes: one line and exit 2 in every form" {
    ragged_floats "$BATS_TEST_TMPDIR/ragged.hdf5"
    for form in webdataset tfrecord; do
        run --separate-stderr fuel export "$BATS_TEST_TMPDIR/ragged.hdf5" --to $form -o "$OUT"
        [ "$status" -eq 2 ]
        [ "$stderr" = "fuel-export: source features is variable-length and neither images nor encoded JPEG images: $form cannot hold it; name the sources to export with --source" ]
    done
    for form in npy recordio image-list hdf5-layer; do
        run --separate-stderr fuel export "$BATS_TEST_TMPDIR/ragged.hdf5" --to $form -o "$OUT"
        [ "$status" -eq 2 ]
        [ "$stderr" = "fuel-export: source features is variable-length and neither images nor encoded JPEG images: no export form holds it" ]
    done
    [ ! -e "$OUT" ]
}

@test "bad requests exit 2 naming the problem before anything is written" {
    refused() {
        local message=$1
        shift
        run --separate-stderr fuel export "$@" -o "$OUT"
        [ "$status" -eq 2 ] || { echo "$* -> $status $stderr"; false; }
        [ "$stderr" = "fuel-export: $message" ] || { echo "$stderr"; false; }
        [ ! -e "$OUT" ]
    }
    refused "--shards and --shard-size conflict: give one of --shards, --shard-size and --shard-examples" \
        "$EXPECTED/mnist.hdf5" --to webdataset --shards 2 --shard-size 1M
    refused "--shard-size and --shard-examples conflict: give one of --shards, --shard-size and --shard-examples" \
        "$EXPECTED/mnist.hdf5" --to tfrecord --shard-size 1M --shard-examples 3
    refused "--ranks 3 is more than the 2 examples of split test" \
        "$EXPECTED/mnist.hdf5" --to webdataset --ranks 3
    refused "--shards 13 is more than the 12 examples of split train" \
        "$EXPECTED/mnist.hdf5" --to tfrecord --shards 13 --split train
    refused "--shards 8 (a multiple of --ranks) is more than the 2 examples of split test" \
        "$EXPECTED/cifar10.hdf5" --to tfrecord --shards 7 --ranks 2
    refused "source bbox_heights is variable-length and neither images nor encoded JPEG images: webdataset cannot hold it; name the sources to export with --source" \
        "$EXPECTED/svhn_format_1.hdf5" --to webdataset
    refused "--seed applies with --shuffle" "$EXPECTED/mnist.hdf5" --to webdataset --seed 3
    refused "--shards applies to webdataset and tfrecord, not npy" "$EXPECTED/mnist.hdf5" --to npy --shards 2
    refused "--dtype does not apply to tfrecord: it writes the sources' values as stored" \
        "$EXPECTED/mnist.hdf5" --to tfrecord --dtype float32
    refused "--shard-size 12Q is not a size: give BYTES, or a number with K, M or G" \
        "$EXPECTED/mnist.hdf5" --to webdataset --shard-size 12Q
    refused "label source features does not hold one integer per example: --label must name one that does" \
        "$EXPECTED/mnist.hdf5" --to webdataset --label features
    refused "source targets is not an image (uint8 with (channel,) height and width axes, or encoded JPEGs): tfrecord writes --data as its image" \
        "$EXPECTED/mnist.hdf5" --to tfrecord --data targets
    # A variable-length uint8 source whose bytes are not a JPEG.
    $PYTHON "$JPEGS" "$BATS_TEST_TMPDIR/bytes.hdf5" 3 1 1
    $PYTHON -c 'import h5py, numpy, sys
with h5py.File(sys.argv[1], "r+") as f:
    f["encoded_images"][3] = numpy.frombuffer(b"\x89PNG" + bytes(f["encoded_images"][3][4:]), numpy.uint8)' "$BATS_TEST_TMPDIR/bytes.hdf5"
    refused "source encoded_images is variable-length and neither images nor encoded JPEG images (example 0 of split valid does not start with FF D8 FF): name the sources to export with --source" \
        "$BATS_TEST_TMPDIR/bytes.hdf5" --to webdataset
}

@test "a non-JPEG example past the first: exit 4 naming it, the earlier set intact" {
    $PYTHON "$JPEGS" "$BATS_TEST_TMPDIR/bytes.hdf5" 6 0 0
    fuel export "$BATS_TEST_TMPDIR/bytes.hdf5" --to webdataset -o "$OUT" --split train
    before=$(set_digest "$OUT")
    $PYTHON -c 'import h5py, numpy, sys
with h5py.File(sys.argv[1], "r+") as f:
    f["encoded_images"][4] = numpy.zeros(40, numpy.uint8)
    f["encoded_images_shapes"][4] = [40]' "$BATS_TEST_TMPDIR/bytes.hdf5"
    run --separate-stderr fuel export "$BATS_TEST_TMPDIR/bytes.hdf5" --to webdataset -o "$OUT" --shards 3 --split train
    [ "$status" -eq 4 ]
    [ "$stderr" = "fuel-export: cannot export example 4 of source encoded_images: it does not start with FF D8 FF, it is not a JPEG" ]
    [ "$(set_digest "$OUT")" = "$before" ]
    [ -z "$(stagings "$OUT")" ]
}

@test "ENOSPC midway: exit 7 naming the shard and why, the earlier set intact" {
    [ -f "$SHIM" ] || { echo "missing $SHIM: run make check"; false; }
    cd "$BATS_TEST_TMPDIR"
    mnist_large big.hdf5 3000
    fuel export big.hdf5 --to webdataset -o "$OUT" --shards 2
    before=$(set_digest "$OUT")
    # Shards are written a MiB at a time: a tar shard here takes 3 writes, a tfrecord one 2.
    for form in webdataset:3 tfrecord:2; do
        after=${form#*:}
        form=${form%:*}
        FAIL_IO_CALLS=write FAIL_IO_ERRNO=ENOSPC FAIL_IO_AFTER=$after \
            FAIL_IO_PATH="$OUT/.fuel-staging-train.*/train-*" LD_PRELOAD="$SHIM" \
            ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
            run --separate-stderr fuel-export big.hdf5 --to $form -o "$OUT" -q --shards 3
        [ "$status" -eq 7 ]
        [ "$form" = tfrecord ] || [ "$stderr" = "fuel-export: cannot write: $OUT/train-000001.tar: No space left on device" ]
        [ "$form" = webdataset ] || [ "$stderr" = "fuel-export: cannot write: $OUT/train-00001-of-00003.tfrecord: No space left on device" ]
        [ "$(set_digest "$OUT")" = "$before" ]
        [ -z "$(stagings "$OUT")" ]
    done
}

@test "a new set with fewer shards removes the earlier set's others; a killed publishing is finished by fuel clean" {
    cd "$BATS_TEST_TMPDIR"
    fuel export "$EXPECTED/mnist.hdf5" --to tfrecord -o new --split train --shards 2
    new=$(set_digest new)
    # Killed before the first move, and once train.json (the listing that named the earlier
    # shards) is replaced but before the earlier shards are removed.
    for after in 2 5; do
        rm -rf set
        fuel export "$EXPECTED/mnist.hdf5" --to webdataset -o set --split train --shards 4
        run export_killed_at_rename $after "$EXPECTED/mnist.hdf5" --to tfrecord --split train --shards 2
        [ "$status" -eq 137 ]
        [ "$(stagings set)" = ".fuel-staging-train.publishing" ]
        [ -e set/train-000003.tar ]
        run fuel clean -d set
        [ "$status" -eq 0 ]
        [ "$output" = "finished publishing set/.fuel-staging-train.publishing" ]
        [ "$(entries set)" = "train-00000-of-00002.tfrecord train-00001-of-00002.tfrecord train.json " ]
        [ "$(set_listing set | grep -v train.json)" = "$(set_listing new | grep -v train.json)" ]
    done
}

# make check kills each export at five moments spread over its duration.
@test "SIGKILL at any moment, then fuel clean: the split's shard set is entirely the earlier one or the new one" {
    cd "$BATS_TEST_TMPDIR"
    mnist_large big.hdf5 6000
    kill_loop big.hdf5 "--to webdataset --shards 3" "--to tfrecord --shards 2 --shuffle" spread_moments
}

@test "progress on a terminal, none without one; -h lists the shard options, completion offers them" {
    run --separate-stderr fuel export "$EXPECTED/mnist.hdf5" --to webdataset -o "$OUT"
    [ "$stderr" = "" ]
    command -v script >/dev/null
    script -qec "fuel export '$EXPECTED/mnist.hdf5' --to tfrecord -o '$OUT/tty' --split train" /dev/null > "$BATS_TEST_TMPDIR/tty.txt"
    grep -q "mnist_train: " "$BATS_TEST_TMPDIR/tty.txt"
    run fuel-export -h
    [ "$status" -eq 0 ]
    for option in "--source SOURCE" "--shards N" "--shard-size BYTES" "--shard-examples K" "--ranks R" "--shuffle" "--seed S"; do
        [[ "$output" == *"$option"* ]]
    done
    [ "$(fuel __complete fuel export --to "" | tail -2 | tr '\n' ' ')" = "webdataset tfrecord " ]
    [ "$(fuel __complete fuel export --shard | tr '\n' ' ')" = "words --shards --shard-size --shard-examples " ]
}
