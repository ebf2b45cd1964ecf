#!/usr/bin/env bats
# Mistakes answered from the runner: an unknown dataset, option or command ends its one error line
# with the closest names (case and -/_ aside), a choice, split or source with the valid values.

bats_require_minimum_version 1.5.0

PYTHON=/usr/bin/python3

setup() {
    export HOME="$BATS_TEST_TMPDIR/home" FUEL_CONFIG="$BATS_TEST_TMPDIR/empty-fuelrc"
    : >"$FUEL_CONFIG"
    unset FUEL_MIRROR FUEL_DATA_PATH FUEL_EXTRA_CONVERTERS FUEL_EXTRA_DOWNLOADERS
    mkdir -p "$HOME"
    EXPECTED="$FUEL_FIXTURES/expected"
    OUT="$BATS_TEST_TMPDIR/out"
}

# expect_refusal STATUS LINE COMMAND...: COMMAND exits STATUS, prints nothing on stdout and the
# one line LINE on stderr.
expect_refusal() {
    local expected_status=$1 line=$2
    shift 2
    run --separate-stderr "$@"
    [ "$status" -eq "$expected_status" ] || { echo "$*: exit $status: $stderr"; false; }
    [ -z "$output" ]
    [ "$stderr" = "$line" ] || { echo "$*: $stderr"; false; }
}

@test "an unknown dataset: the closest names, whatever the case and - or _" {
    expect_refusal 2 'fuel-convert: unknown dataset: mnsit; did you mean `mnist`?' fuel convert mnsit
    expect_refusal 2 'fuel-convert: unknown dataset: fashion-mnist; did you mean `fashion_mnist`?' \
        fuel convert fashion-mnist
    expect_refusal 2 'fuel-fetch: unknown dataset: FashionMNIST; did you mean `fashion_mnist`?' \
        fuel fetch FashionMNIST
    expect_refusal 2 'fuel-download: unknown dataset: cifar-10; did you mean `cifar10`?' \
        fuel download cifar-10
    expect_refusal 2 'fuel-fixture: unknown dataset: cifar; did you mean `cifar10` or `cifar100`?' \
        fuel fixture cifar
    # Before -h too, and with nothing close, the datasets.
    expect_refusal 2 'fuel-convert: unknown dataset: Mnist; did you mean `mnist`?' fuel convert Mnist -h
    expect_refusal 2 "fuel-convert: unknown dataset: zebra; datasets: adult, binarized_mnist, caltech101_silhouettes, celeba, cifar10, cifar100, dogs_vs_cats, fashion_mnist, ilsvrc2010, ilsvrc2012, iris, mnist, svhn" \
        fuel convert zebra
}

@test "an unknown option: the closest of the command's and the dataset's options" {
    expect_refusal 2 'fuel-convert: unknown option: --dtyp; did you mean `--dtype`?' \
        fuel convert mnist --dtyp float32
    expect_refusal 2 'fuel-info: unknown option: --jsno; did you mean `--json`?' fuel info --jsno x.hdf5
    expect_refusal 2 'fuel-serve: unknown option: --batchsize; did you mean `--batch-size`?' \
        fuel serve --batchsize 10 x.hdf5
    expect_refusal 2 'fuel-convert: unknown option: --outptu-directory; did you mean `--output-directory`?' \
        fuel convert mnist --outptu-directory "$OUT"
    expect_refusal 2 'fuel-fixture: unknown option: --Seed; did you mean `--seed`?' \
        fuel fixture iris --Seed 3
    expect_refusal 2 "fuel-list: unknown option: --bogus; see 'fuel-list -h'" fuel list --bogus
}

@test "a value outside an option's choices: the valid values" {
    expect_refusal 2 "fuel-convert: invalid --dtype: float; expected one of uint8, float32, float64, bool" \
        fuel convert mnist --dtype float
    expect_refusal 2 "fuel-fetch: invalid --dtype: float; expected one of uint8, float32, float64, bool" \
        fuel fetch mnist --dtype=float
    expect_refusal 2 "fuel-export: invalid --to: mxnet; expected one of hdf5-layer, recordio, image-list, npy, webdataset, tfrecord" \
        fuel export "$EXPECTED/mnist.hdf5" --to mxnet -o "$OUT"
    expect_refusal 2 "fuel-export: missing --to FORM; expected one of hdf5-layer, recordio, image-list, npy, webdataset, tfrecord" \
        fuel export "$EXPECTED/mnist.hdf5" -o "$OUT"
    expect_refusal 2 "fuel-serve: invalid --dtype: float64; expected one of float32" \
        fuel serve --dtype float64 "$EXPECTED/mnist.hdf5"
    [ ! -e "$OUT" ]
}

@test "an unknown command: the closest commands" {
    expect_refusal 2 'fuel: '\''exprot'\'' is not a fuel command; did you mean `export`?' fuel exprot
    expect_refusal 2 'fuel: '\''Preview'\'' is not a fuel command; did you mean `preview`?' fuel Preview
}

@test "a split or source the file lacks: the splits or sources there are" {
    expect_refusal 2 "fuel-serve: no split train: $EXPECTED/iris.hdf5; its splits: all" \
        timeout 60 fuel serve "$EXPECTED/iris.hdf5"
    expect_refusal 2 "fuel-serve: no source label: $EXPECTED/mnist.hdf5; its sources: features, targets" \
        timeout 60 fuel serve --sources features,label "$EXPECTED/mnist.hdf5"
    expect_refusal 2 "fuel-export: no split valid: $EXPECTED/mnist.hdf5; its splits: test, train" \
        fuel export "$EXPECTED/mnist.hdf5" --to npy -o "$OUT" --split valid
    expect_refusal 2 "fuel-export: no source label: $EXPECTED/mnist.hdf5; its sources: features, targets" \
        fuel export "$EXPECTED/mnist.hdf5" --to npy -o "$OUT" --label label
    expect_refusal 2 "fuel-preview: no source image: $EXPECTED/cifar10.hdf5; its sources: features, targets" \
        fuel preview "$EXPECTED/cifar10.hdf5" -o "$OUT.png" --source image
    expect_refusal 2 "fuel-fixture: no split valid: $EXPECTED/iris.hdf5; its splits: all" \
        fuel fixture --from "$EXPECTED/iris.hdf5" -n valid=2 -o "$BATS_TEST_TMPDIR"
    [ ! -e "$OUT" ]
    [ ! -e "$OUT.png" ]
}

@test "an extra converter's name is suggested too" {
    mkdir "$BATS_TEST_TMPDIR/converters"
    printf '#!/bin/sh\n' > "$BATS_TEST_TMPDIR/converters/fuel-convert-semeion"
    chmod +x "$BATS_TEST_TMPDIR/converters/fuel-convert-semeion"
    export FUEL_EXTRA_CONVERTERS="$BATS_TEST_TMPDIR/converters"
    expect_refusal 2 'fuel-convert: unknown dataset: semion; did you mean `semeion`?' \
        fuel convert semion
}
