#!/usr/bin/env bats
# fuel-export: every form read back independently (h5py, a RecordIO reader written from the format,
# PIL, numpy.load with mmap) and compared value by value with the source file; refusals; the
# atomic publication of each set under SIGKILL.

bats_require_minimum_version 1.5.0

load ../helpers/processes
load ../helpers/export_sets

PYTHON=/usr/bin/python3

setup() {
    EXPECTED="$FUEL_FIXTURES/expected"
    CHECK="$BATS_TEST_DIRNAME/../helpers/export_check.py"
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

# Copies mnist.hdf5 with float32 targets set to VALUE for example 0 (other labels kept).
mnist_with_label() {
    $PYTHON - "$EXPECTED/mnist.hdf5" "$1" "$2" <<'EOF2'
import shutil, sys, h5py, numpy as np
shutil.copy(sys.argv[1], sys.argv[2])
with h5py.File(sys.argv[2], "r+") as f:
    labels = f["targets"][...].astype(np.float32)
    labels[0, 0] = np.frombuffer(bytes.fromhex(sys.argv[3]), "<f4")[0]
    del f["targets"]
    f["targets"] = labels
    f["targets"].dims[0].label = "batch"
    f["targets"].dims[1].label = "index"
EOF2
}

@test "hdf5-layer: every split's data and labels read back with h5py equal the source" {
    run fuel export "$EXPECTED/mnist.hdf5" --to hdf5-layer -o "$OUT"
    [ "$status" -eq 0 ]
    [ "$(printf '%s\n' "${lines[@]}" | sort | tr '\n' ' ')" = "$OUT/mnist_test.txt $OUT/mnist_train.txt " ]
    run $PYTHON "$CHECK" hdf5-layer "$OUT/mnist_train.txt" "$EXPECTED/mnist.hdf5" train 1 float32 0 \
        -- hdf5-layer "$OUT/mnist_test.txt" "$EXPECTED/mnist.hdf5" test 1 float32 0
    [ "$status" -eq 0 ]
    [ "$(cat "$OUT/mnist_train.txt")" = "$(cd "$OUT" && pwd -P)/mnist_train.h5" ]
}

@test "hdf5-layer: --scale and --dtype float64 convert the data, not the labels" {
    run fuel export "$EXPECTED/cifar10.hdf5" --to hdf5-layer -o "$OUT" --split train --scale 0.00390625 --dtype float64
    [ "$status" -eq 0 ]
    run $PYTHON "$CHECK" hdf5-layer "$OUT/cifar10_train.txt" "$EXPECTED/cifar10.hdf5" train 0.00390625 float64 0
    [ "$status" -eq 0 ]
    [ ! -e "$OUT/cifar10_test.txt" ]
}

@test "hdf5-layer: --examples-per-file splits a split into files listed in order" {
    run fuel export "$EXPECTED/cifar10.hdf5" --to hdf5-layer -o "$OUT" --split train --examples-per-file 25 --scale 0.5
    [ "$status" -eq 0 ]
    [ "$(wc -l < "$OUT/cifar10_train.txt")" -eq 3 ]
    [ "$(sed -n 3p "$OUT/cifar10_train.txt")" = "$(cd "$OUT" && pwd -P)/cifar10_train_2.h5" ]
    run $PYTHON "$CHECK" hdf5-layer "$OUT/cifar10_train.txt" "$EXPECTED/cifar10.hdf5" train 0.5 float32 25
    [ "$status" -eq 0 ]
}

@test "hdf5-layer: the provenance attribute names the input's sha256, its provenance and the command" {
    fuel export "$EXPECTED/mnist.hdf5" --to hdf5-layer -o "$OUT" --split test
    run $PYTHON - "$OUT/mnist_test.h5" "$EXPECTED/mnist.hdf5" <<'EOF2'
import hashlib, json, sys, h5py
provenance = json.loads(h5py.File(sys.argv[1], "r").attrs["fuel_provenance"])
digest = hashlib.sha256(open(sys.argv[2], "rb").read()).hexdigest()
print(provenance["inputs"][0]["sha256"] == digest, provenance["export"]["command"],
      provenance["export"]["form"], provenance["created"], "input_provenance" in provenance)
EOF2
    [ "$output" = "True fuel export $EXPECTED/mnist.hdf5 --to hdf5-layer -o $OUT --split test hdf5-layer 2023-11-14T22:13:20Z True" ]
}

@test "hdf5-layer: an input whose provenance lists 2^20 inputs: 4096 kept, counted, bounded memory" {
    # Parsed whole by json_loads, without the 256 MiB cap, such a list took 280 MiB.
    cp "$EXPECTED/iris.hdf5" "$BATS_TEST_TMPDIR/many.hdf5"
    chmod u+w "$BATS_TEST_TMPDIR/many.hdf5"
    $PYTHON - "$BATS_TEST_TMPDIR/many.hdf5" <<'EOF2'
import sys, h5py
with h5py.File(sys.argv[1], "r+") as f:
    f.attrs["fuel_provenance"] = '{"tool": "fuel", "inputs": [' + '{"a": 1},' * ((1 << 20) - 1) + '{}]}'
EOF2
    # Under make check-sanitize: unwinding on every malloc (fast_unwind_on_malloc=0) made the walk,
    # a malloc an entry, overrun its timeout (2^20 entries a side: over 120 s).
    export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0:thread_local_quarantine_size_kb=0:fast_unwind_on_malloc=1"
    run --separate-stderr /usr/bin/time -f 'peak %M' timeout 120 fuel export "$BATS_TEST_TMPDIR/many.hdf5" --to hdf5-layer -o "$OUT" --split all
    [ "$status" -eq 0 ]
    [ "$(sed -n 's/^peak //p' <<< "$stderr")" -lt $((128 * 1024)) ]
    run $PYTHON - "$OUT/many_all.h5" <<'EOF2'
import json, sys, h5py
provenance = json.loads(h5py.File(sys.argv[1], "r").attrs["fuel_provenance"])
inputs = provenance["input_provenance"]["inputs"]
print(len(inputs), inputs[0], inputs[-1], provenance["input_provenance_input_count"])
EOF2
    [ "$output" = "4096 {'a': 1} {'a': 1} 1048576" ]
}

@test "recordio: records read back by the format's rules: header, label, id, PNG pixels, .idx, .lst" {
    run fuel export "$EXPECTED/cifar100.hdf5" --to recordio -o "$OUT" --label fine_labels
    [ "$status" -eq 0 ]
    run $PYTHON "$CHECK" recordio "$OUT/cifar100_train" "$EXPECTED/cifar100.hdf5" train fine_labels \
        -- recordio "$OUT/cifar100_test" "$EXPECTED/cifar100.hdf5" test fine_labels
    [ "$status" -eq 0 ]
    [ "$output" = "whole"$'\n'"whole" ]
    for split in train test; do
        [ -s "$OUT/cifar100_$split.provenance.json" ]
    done
}

@test "recordio: a payload holding the magic at an aligned offset is split into cflag parts" {
    # label 0xced7230a: the header's bytes 4..8 are the magic
    mnist_with_label "$BATS_TEST_TMPDIR/magic.hdf5" 0a23d7ce
    run fuel export "$BATS_TEST_TMPDIR/magic.hdf5" --to recordio -o "$OUT" --split train --threads 3
    [ "$status" -eq 0 ]
    run $PYTHON "$CHECK" recordio "$OUT/magic_train" "$BATS_TEST_TMPDIR/magic.hdf5" train
    [ "$status" -eq 0 ]
    [ "$output" = "parts" ]
    # the first record: a part of cflag 1 and length 4 (the flag), then cflag 3
    run $PYTHON -c 'import struct,sys; d=open(sys.argv[1],"rb").read(); print(hex(struct.unpack("<I",d[4:8])[0]), hex(struct.unpack("<I",d[16:20])[0]>>29))' "$OUT/magic_train.rec"
    [ "$output" = "0x20000004 0x3" ]
}

@test "recordio: the same bytes with one thread and with several, and from run to run" {
    mkdir -p "$OUT/first" "$OUT/second"
    fuel export "$EXPECTED/cifar10.hdf5" --to recordio -o "$OUT/one" --threads 1
    (cd "$OUT/first" && fuel export "$EXPECTED/cifar10.hdf5" --to recordio -o set --threads 4)
    (cd "$OUT/second" && fuel export "$EXPECTED/cifar10.hdf5" --to recordio -o set --threads 4)
    cmp "$OUT/one/cifar10_train.rec" "$OUT/first/set/cifar10_train.rec"
    cmp "$OUT/one/cifar10_train.idx" "$OUT/first/set/cifar10_train.idx"
    for file in rec idx lst provenance.json; do
        cmp "$OUT/first/set/cifar10_train.$file" "$OUT/second/set/cifar10_train.$file"
    done
}

@test "recordio: SVHN format 1's variable-size images become PNGs of their own size" {
    run fuel export "$EXPECTED/svhn_format_1.hdf5" --to recordio -o "$OUT" --split test
    [ "$status" -eq 0 ]
    run $PYTHON - "$OUT/svhn_format_1_test.rec" "$EXPECTED/svhn_format_1.hdf5" <<'EOF2'
import io, struct, sys, h5py, numpy as np
from PIL import Image
f = h5py.File(sys.argv[2], "r")
data = open(sys.argv[1], "rb").read()
offset, number = 0, 12
while offset < len(data):
    magic, word = struct.unpack("<II", data[offset:offset + 8])
    length = word & ((1 << 29) - 1)
    payload = data[offset + 8:offset + 8 + length]
    offset += 8 + (length + 3) // 4 * 4
    pixels = np.asarray(Image.open(io.BytesIO(payload[24:])))
    expected = f["features"][number].reshape(f["features_shapes"][number]).transpose(1, 2, 0)
    assert np.array_equal(pixels, expected), number
    number += 1
print(number)
EOF2
    [ "$output" = "16" ]
}

@test "image-list: SPLIT/LABEL/N.png decoded with PIL equal the examples; the list names them" {
    run fuel export "$EXPECTED/svhn_format_2.hdf5" --to image-list -o "$OUT"
    [ "$status" -eq 0 ]
    run $PYTHON "$CHECK" image-list "$OUT" svhn_format_2 "$EXPECTED/svhn_format_2.hdf5" train \
        -- image-list "$OUT" svhn_format_2 "$EXPECTED/svhn_format_2.hdf5" test \
        -- image-list "$OUT" svhn_format_2 "$EXPECTED/svhn_format_2.hdf5" extra
    [ "$status" -eq 0 ]
    [ -f "$OUT/extra/$(sed -n 1p "$OUT/svhn_format_2_extra.txt" | cut -d' ' -f1 | cut -d/ -f2-)" ]
}

@test "image-list: float and binary sources become 0..255 pixels" {
    run fuel export "$EXPECTED/mnist_float32.hdf5" --to image-list -o "$OUT" --split test
    [ "$status" -eq 0 ]
    run $PYTHON "$CHECK" image-list "$OUT" mnist_float32 "$EXPECTED/mnist_float32.hdf5" test
    [ "$status" -eq 0 ]
}

@test "npy: numpy.load(mmap_mode='r') maps arrays equal to the source, dtype and shape kept" {
    run fuel export "$EXPECTED/iris.hdf5" --to npy -o "$OUT"
    [ "$status" -eq 0 ]
    [ "$output" = "$OUT/iris_all_features.npy" ]
    fuel export "$EXPECTED/binarized_mnist.hdf5" --to npy -o "$OUT"
    run $PYTHON "$CHECK" npy "$OUT" iris "$EXPECTED/iris.hdf5" all features stored 1 \
        -- npy "$OUT" iris "$EXPECTED/iris.hdf5" all targets stored 1 \
        -- npy "$OUT" binarized_mnist "$EXPECTED/binarized_mnist.hdf5" valid features stored 1
    [ "$status" -eq 0 ]
}

@test "npy: --dtype and --scale convert the data; the header is numpy's own" {
    fuel export "$EXPECTED/cifar10.hdf5" --to npy -o "$OUT" --dtype float32 --scale 0.1
    run $PYTHON "$CHECK" npy "$OUT" cifar10 "$EXPECTED/cifar10.hdf5" train features float32 0.1
    [ "$status" -eq 0 ]
    run $PYTHON - "$OUT/cifar10_train_features.npy" <<'EOF2'
import io, sys, numpy as np
header = io.BytesIO()
np.lib.format.write_array_header_1_0(header, {"descr": "<f4", "fortran_order": False, "shape": (60, 3, 32, 32)})
print(open(sys.argv[1], "rb").read(len(header.getvalue())) == header.getvalue())
EOF2
    [ "$output" = "True" ]
}

@test "a form that cannot hold the source exits 2 naming it and the forms that can, writing nothing" {
    run fuel export "$EXPECTED/svhn_format_1.hdf5" --to hdf5-layer -o "$OUT"
    [ "$status" -eq 2 ]
    [ "$output" = "fuel-export: source features is variable-length: hdf5-layer cannot hold it; recordio, image-list, webdataset, tfrecord can" ]
    run fuel export "$EXPECTED/svhn_format_1.hdf5" --to npy -o "$OUT"
    [ "$status" -eq 2 ]
    [ "$output" = "fuel-export: source features is variable-length: npy cannot hold it; recordio, image-list, webdataset, tfrecord can" ]
    run fuel export "$EXPECTED/iris.hdf5" --to image-list -o "$OUT"
    [ "$status" -eq 2 ]
    [ "$output" = "fuel-export: source features is not an image (axes feature): hdf5-layer, npy, webdataset, tfrecord can hold it" ]
    run fuel export "$EXPECTED/iris.hdf5" --to recordio -o "$OUT"
    [ "$status" -eq 2 ]
    [ ! -e "$OUT" ]
}

@test "usage errors: missing --to or -o, unknown form, source or split" {
    run fuel export "$EXPECTED/mnist.hdf5" -o "$OUT"
    [ "$status" -eq 2 ]
    run fuel export "$EXPECTED/mnist.hdf5" --to parquet -o "$OUT"
    [ "$status" -eq 2 ]
    run fuel export "$EXPECTED/mnist.hdf5" --to npy
    [ "$status" -eq 2 ]
    run fuel export "$EXPECTED/cifar100.hdf5" --to npy -o "$OUT" --label labels
    [ "$status" -eq 2 ]
    [[ "$output" == *"no source labels"*"coarse_labels, features, fine_labels"* ]]
    run fuel export "$EXPECTED/mnist.hdf5" --to npy -o "$OUT" --split valid
    [ "$status" -eq 2 ]
    run fuel export "$BATS_TEST_TMPDIR/none.hdf5" --to npy -o "$OUT"
    [ "$status" -eq 3 ]
    [ ! -e "$OUT" ]
}

@test "NAME is found through the data path; -h lists the options" {
    mkdir -p "$BATS_TEST_TMPDIR/data"
    cp "$EXPECTED/mnist.hdf5" "$BATS_TEST_TMPDIR/data/"
    FUEL_DATA_PATH="$BATS_TEST_TMPDIR/data" run fuel export mnist --to npy -o "$OUT" --split test
    [ "$status" -eq 0 ]
    [ "$output" = "$OUT/mnist_test_features.npy" ]
    run fuel-export -h
    [ "$status" -eq 0 ]
    [[ "$output" == *"--examples-per-file N"* ]]
}

@test "no progress without a terminal; one live line on a terminal, none with -q" {
    run --separate-stderr fuel export "$EXPECTED/mnist.hdf5" --to npy -o "$OUT"
    [ "$stderr" = "" ]
    command -v script >/dev/null
    script -qec "fuel export '$EXPECTED/mnist.hdf5' --to npy -o '$OUT/tty' --split test" /dev/null > "$BATS_TEST_TMPDIR/tty.txt"
    grep -q "mnist_test: " "$BATS_TEST_TMPDIR/tty.txt"
    script -qec "fuel export '$EXPECTED/mnist.hdf5' --to npy -o '$OUT/quiet' --split test -q" /dev/null > "$BATS_TEST_TMPDIR/quiet.txt"
    [ "$(cat "$BATS_TEST_TMPDIR/quiet.txt")" = "$OUT/quiet/mnist_test_features.npy"$'\r' ]
}

@test "a failed export leaves no partial set and keeps the earlier one" {
    fuel export "$EXPECTED/mnist.hdf5" --to recordio -o "$OUT" --split train
    before=$(sha256sum "$OUT"/mnist_train.* | sha256sum)
    chmod 500 "$OUT"
    run fuel export "$EXPECTED/mnist.hdf5" --to recordio -o "$OUT" --split train --label features
    chmod 700 "$OUT"
    [ "$status" -eq 2 ]
    [ "$(sha256sum "$OUT"/mnist_train.* | sha256sum)" = "$before" ]
    [ -z "$(hidden "$OUT")" ]
}

@test "a new set with fewer or other files than the earlier one leaves none of the earlier set's behind" {
    fuel export "$EXPECTED/mnist.hdf5" --to npy -o "$OUT" --split test
    test_set=$(sha256sum "$OUT"/mnist_test_* | sha256sum)
    fuel export "$EXPECTED/mnist.hdf5" --to hdf5-layer -o "$OUT" --split train --examples-per-file 4
    [ "$(entries "$OUT")" = "mnist_test.provenance.json mnist_test_features.npy mnist_test_targets.npy mnist_train.txt mnist_train_0.h5 mnist_train_1.h5 mnist_train_2.h5 " ]
    fuel export "$EXPECTED/mnist.hdf5" --to hdf5-layer -o "$OUT" --split train --examples-per-file 6
    [ "$(recorded "$OUT" mnist_train)" = "mnist_train.txt mnist_train_0.h5 mnist_train_1.h5 " ]
    [ ! -e "$OUT/mnist_train_2.h5" ]
    [ "$(wc -l < "$OUT/mnist_train.txt")" -eq 2 ]
    fuel export "$EXPECTED/mnist.hdf5" --to image-list -o "$OUT" --split train
    [ "$(recorded "$OUT" mnist_train)" = "mnist_train.provenance.json mnist_train.txt train " ]
    [ ! -e "$OUT/mnist_train_0.h5" ]
    [ ! -e "$OUT/mnist_train_1.h5" ]
    [ -d "$OUT/train" ]
    fuel export "$EXPECTED/mnist.hdf5" --to recordio -o "$OUT" --split train
    [ "$(entries "$OUT")" = "mnist_test.provenance.json mnist_test_features.npy mnist_test_targets.npy mnist_train.idx mnist_train.lst mnist_train.provenance.json mnist_train.rec " ]
    [ "$(recorded "$OUT" mnist_train)" = "mnist_train.idx mnist_train.lst mnist_train.provenance.json mnist_train.rec " ]
    [ "$(sha256sum "$OUT"/mnist_test_* | sha256sum)" = "$test_set" ]
}

@test "no hidden file beside any form's published sets, nor once each set is replaced by another form's" {
    local form again
    for form in hdf5-layer recordio image-list npy webdataset tfrecord; do
        fuel export "$EXPECTED/mnist.hdf5" --to $form -o "$OUT/$form" > /dev/null
        [ -n "$(ls "$OUT/$form")" ]
        [ -z "$(hidden "$OUT/$form")" ]
        case $form in
            hdf5-layer) again="--examples-per-file 4" ;;
            recordio) again="--split train" ;;
            image-list) again="--scale 2" ;;
            npy) again="--dtype float32" ;;
            *) again="--shards 2" ;;
        esac
        fuel export "$EXPECTED/mnist.hdf5" --to $form -o "$OUT/$form" $again > /dev/null
        [ -z "$(hidden "$OUT/$form")" ]
        fuel export "$EXPECTED/mnist.hdf5" --to $form -o "$OUT/all" > /dev/null
        [ -z "$(hidden "$OUT/all")" ]
    done
    # Each form's set replaced the one before of its name, whole: npy's and tfrecord's are left.
    [ "$(entries "$OUT/all")" = "mnist_test.provenance.json mnist_test_features.npy mnist_test_targets.npy mnist_train.provenance.json mnist_train_features.npy mnist_train_targets.npy test-00000-of-00001.tfrecord test.json train-00000-of-00001.tfrecord train.json " ]
}

@test "the next export removes what the earlier set's listing names of that set, and nothing else" {
    fuel export "$EXPECTED/mnist.hdf5" --to npy -o "$OUT" --split train
    : > "$OUT/notes.txt"
    : > "$OUT/mnist_train_extra.bin"
    $PYTHON - "$OUT/mnist_train.provenance.json" <<'EOF2'
import json, sys
document = json.load(open(sys.argv[1]))
document["export"]["files"] += ["notes.txt", "../out", "mnist_train_extra.bin", "."]
json.dump(document, open(sys.argv[1], "w"))
EOF2
    fuel export "$EXPECTED/mnist.hdf5" --to recordio -o "$OUT" --split train
    [ "$(entries "$OUT")" = "mnist_train.idx mnist_train.lst mnist_train.provenance.json mnist_train.rec notes.txt " ]
    # The hidden record earlier versions kept beside a set is read, then removed with the set.
    printf '12 mnist_train_old.bin\n' > "$OUT/.mnist_train.exported"
    : > "$OUT/mnist_train_old.bin"
    fuel export "$EXPECTED/mnist.hdf5" --to npy -o "$OUT" --split train
    [ "$(entries "$OUT")" = "mnist_train.provenance.json mnist_train_features.npy mnist_train_targets.npy notes.txt " ]
}

# make check kills each export at five moments spread over its duration; make check-durability
# (tests/durability/export_kills.bats) at ten random ones.
@test "SIGKILL at any moment, then fuel clean: the set is entirely the earlier one or the new one" {
    cd "$BATS_TEST_TMPDIR"
    mnist_large big.hdf5 20000
    kill_loop big.hdf5 "--to hdf5-layer --scale 2 --examples-per-file 250" \
        "--to hdf5-layer --examples-per-file 500" spread_moments
    mnist_large small.hdf5 4000
    kill_loop small.hdf5 "--to image-list --scale 2" "--to image-list" spread_moments
    kill_loop small.hdf5 "--to npy --dtype float32" "--to recordio" spread_moments
}

# make check kills at the first, the middle and the last rename; make check-durability
# (tests/durability/export_kills.bats) at each.
@test "killed at the renames of publishing: the earlier set whole, or a committed set fuel clean finishes" {
    cd "$BATS_TEST_TMPDIR"
    killed_at_renames 0 3 6
}

@test "the next export of a set finishes the publishing a killed one committed, before its own" {
    cd "$BATS_TEST_TMPDIR"
    mnist_large big.hdf5 2000
    fuel export big.hdf5 --to recordio -o new-set
    fuel export big.hdf5 --to npy --dtype float32 -o set
    run export_killed_at_rename 2 big.hdf5 --to recordio
    [ "$status" -eq 137 ]
    [ "$(stagings set)" = ".fuel-staging-big_train.publishing" ]
    [ -e set/big_train_features.npy ]
    # The next export of the set fails at its own commit, after finishing the earlier publishing.
    run --separate-stderr env LD_PRELOAD="$SHIM" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" FAIL_IO_CALLS=rename FAIL_IO_PATH='*/.fuel-staging-big_train.??????' \
        fuel export big.hdf5 --to recordio -o set
    [ "$status" -eq 7 ]
    [[ "$stderr" == "fuel-export: cannot write: set/.fuel-staging-big_train.publishing: Input/output error" ]]
    [ -z "$(stagings set)" ]
    [ "$(entries set)" = "big_train.idx big_train.lst big_train.provenance.json big_train.rec " ]
    for suffix in idx lst rec; do
        cmp set/big_train.$suffix new-set/big_train.$suffix
    done
}

@test "a rename failing after the commit: exit 7, the set left committed; fuel clean --dry-run tells, fuel clean finishes it" {
    cd "$BATS_TEST_TMPDIR"
    mnist_large big.hdf5 2000
    fuel export big.hdf5 --to hdf5-layer --examples-per-file 1000 -o set
    new=$(set_digest set)
    rm -rf set
    fuel export big.hdf5 --to hdf5-layer --examples-per-file 500 --scale 2 -o set
    run --separate-stderr env LD_PRELOAD="$SHIM" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" FAIL_IO_CALLS=rename FAIL_IO_PATH="$PWD/set/big_train_1.h5" \
        fuel export big.hdf5 --to hdf5-layer --examples-per-file 1000 -o set
    [ "$status" -eq 7 ]
    [ "$stderr" = "fuel-export: cannot publish: set/big_train_1.h5: Input/output error" ]
    [ "$(stagings set)" = ".fuel-staging-big_train.publishing" ]
    before=$(set_digest set)
    run fuel clean -d set --dry-run
    [ "$status" -eq 0 ]
    [ "$output" = "would finish publishing set/.fuel-staging-big_train.publishing" ]
    [ "$(set_digest set)" = "$before" ]
    [ "$(stagings set)" = ".fuel-staging-big_train.publishing" ]
    run fuel clean -d set
    [ "$status" -eq 0 ]
    [ "$output" = "finished publishing set/.fuel-staging-big_train.publishing" ]
    [ "$(entries set)" = "big_train.txt big_train_0.h5 big_train_1.h5 " ]
    [ "$(set_digest set)" = "$new" ]
}

@test "a file converted by fuel convert from the raw fixtures exports like Fuel's own" {
    fuel convert mnist -d "$FUEL_FIXTURES/raw/mnist" -o "$BATS_TEST_TMPDIR" --dtype float32
    run fuel export "$BATS_TEST_TMPDIR/mnist_float32.hdf5" --to hdf5-layer -o "$OUT" --split train
    [ "$status" -eq 0 ]
    fuel convert cifar10 -d "$FUEL_FIXTURES/raw/cifar10" -o "$BATS_TEST_TMPDIR"
    fuel export "$BATS_TEST_TMPDIR/cifar10.hdf5" --to recordio -o "$OUT" --split test
    run $PYTHON "$CHECK" hdf5-layer "$OUT/mnist_float32_train.txt" "$EXPECTED/mnist_float32.hdf5" train 1 float32 0 \
        -- recordio "$OUT/cifar10_test" "$EXPECTED/cifar10.hdf5" test
    [ "$status" -eq 0 ]
    # image-list: the card's class names in NAME_SPLIT.classes.txt, class i on line i + 1.
    fuel export "$BATS_TEST_TMPDIR/cifar10.hdf5" --to image-list -o "$OUT/list" --split test
    [ "$(cat "$OUT/list/cifar10_test.classes.txt")" = "$($PYTHON -c 'import h5py, json, sys; print("\n".join(json.loads(h5py.File(sys.argv[1]).attrs["fuel_card"])["classes"]["targets"]))' "$BATS_TEST_TMPDIR/cifar10.hdf5")" ]
    [ "$(sed -n 4p "$OUT/list/cifar10_test.classes.txt")" = cat ]
    fuel export "$EXPECTED/cifar10.hdf5" --to image-list -o "$OUT/plain" --split test
    [ ! -e "$OUT/plain/cifar10_test.classes.txt" ]
}

@test "an export reads its input once: every set's sha256 from the bytes it exported" {
    cd "$BATS_TEST_TMPDIR"
    $PYTHON -c "import numpy; numpy.save('big.npy', numpy.arange(1 << 19, dtype='<u4').reshape(4096, 128)); numpy.save('labels.npy', (numpy.arange(4096) % 10).astype('u1').reshape(4096, 1))"
    printf 'name: big\nsplits:\n  train: {examples: 3072}\n  test: {examples: 1024}\nsources:\n  features: {from: big.npy}\n  targets: {from: labels.npy}\n' > big.yaml
    fuel pack big.yaml -o . -q
    size=$(stat -c %s big.hdf5)
    for form in npy hdf5-layer webdataset; do
        # One shard: --shard-size's estimate reads sample examples before the shards, by design.
        options=()
        [ "$form" != webdataset ] || options=(--shards 1)
        ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" run --separate-stderr \
            strace -f -qq -y -e trace=read,pread64,copy_file_range -o "trace.$form" \
            fuel export big.hdf5 --to "$form" "${options[@]}" -o "out.$form" -q
        [ "$status" -eq 0 ]
        # Every byte taken from big.hdf5: once its size, with some of HDF5's metadata again.
        taken=$(awk '/big\.hdf5>/ && / = [0-9]+$/ { total += $NF } END { print total + 0 }' "trace.$form")
        echo "$form: $taken of $size bytes taken"
        [ "$taken" -ge "$size" ]
        [ "$taken" -lt $((size + 65536)) ]
    done
    $PYTHON - "$(sha256sum big.hdf5 | cut -d' ' -f1)" "$size" <<'PY'
import json, sys, h5py
expected = [{'name': 'big.hdf5', 'size': int(sys.argv[2]), 'sha256': sys.argv[1]}]
for split in ('train', 'test'):
    with h5py.File('out.hdf5-layer/big_%s.h5' % split, 'r') as layer:
        listings = [json.load(open('out.npy/big_%s.provenance.json' % split)),
                    json.loads(layer.attrs['fuel_provenance']),
                    json.load(open('out.webdataset/%s.json' % split))['provenance']]
    for listing in listings:
        assert listing['inputs'] == expected, listing['inputs']
PY
}
