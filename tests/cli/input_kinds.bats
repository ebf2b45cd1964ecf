#!/usr/bin/env bats
# Inputs that are not there or are not regular files: every command says which (a missing -d
# directory; "not a regular file: PATH: exists but is a FIFO" with exit 4 everywhere, a download's
# final name or .part too), a FIFO never blocks an open (each run bounded by timeout), and HDF5's
# failures in fuel's words.

bats_require_minimum_version 1.5.0

setup() {
    export HOME="$BATS_TEST_TMPDIR/home" FUEL_CONFIG=/dev/null
    unset FUEL_DATA_PATH
    mkdir -p "$HOME" "$BATS_TEST_TMPDIR/work"
    cd "$BATS_TEST_TMPDIR/work"
}

# refused STATUS MESSAGE COMMAND...: COMMAND ends within 20 s with STATUS and the one line MESSAGE.
refused() {
    local expected=$1 message=$2
    shift 2
    run --separate-stderr timeout 20 "$@"
    [ "$status" -eq "$expected" ] || { echo "$* -> $status: $stderr"; false; }
    [ "$stderr" = "$message" ] || { echo "$* -> $stderr"; false; }
}

@test "convert -d naming no directory says so before Fuel's hint" {
    refused 3 "fuel-convert: the input directory does not exist: nonexist: 4 required files not found: nonexist/train-images-idx3-ubyte.gz and 3 more (-v lists them); Did you forget to run fuel-download?" \
        fuel convert mnist -d nonexist -o .
    mkdir raw
    refused 3 "fuel-convert: 4 required files not found: raw/train-images-idx3-ubyte.gz and 3 more (-v lists them); Did you forget to run fuel-download?" \
        fuel convert mnist -d raw -o .
}

@test "convert: a FIFO or a directory where an input belongs is not a missing file" {
    mkdir raw
    fuel fixture adult --raw -o raw >/dev/null
    rm raw/adult.data
    mkfifo raw/adult.data
    refused 4 "fuel-convert: not a regular file: raw/adult.data: exists but is a FIFO" \
        fuel convert adult -d raw -o .
    rm raw/adult.data
    mkdir raw/adult.data
    refused 4 "fuel-convert: not a regular file: raw/adult.data: exists but is a directory" \
        fuel convert adult -d raw -o .
    [ "$(ls -A .)" = raw ]
}

@test "ILSVRC's tars and SVHN's files as a directory or a FIFO: convert, download, fetch say so, exit 4" {
    for row in "ilsvrc2012 ILSVRC2012_img_train.tar" "ilsvrc2012 ILSVRC2012_devkit_t12.tar.gz" \
        "ilsvrc2010 ILSVRC2010_images_train.tar" "svhn 1 train.tar.gz" "svhn 2 train_32x32.mat"; do
        dataset=${row% *} file=${row##* }
        rm -rf served raw
        fuel fixture $dataset --raw -n 2 -o served >/dev/null
        mkdir -p raw/$file
        transfer=(-d raw --url-prefix "file://$PWD/served/" --checksums served/MD5SUMS -q)
        refused 4 "fuel-download: not a regular file: raw/$file: exists but is a directory" \
            fuel download $dataset "${transfer[@]}"
        refused 4 "fuel-fetch: not a regular file: raw/$file.part: exists but is a directory" \
            bash -c 'rmdir "$1" && mkdir "$1.part" && shift && exec fuel fetch "$@"' _ raw/$file \
            $dataset "${transfer[@]}"
        [ "$(ls -A raw)" = "$file.part" ]
        rmdir raw/$file.part
        cp served/* raw/
        rm raw/$file
        mkdir raw/$file
        refused 4 "fuel-convert: not a regular file: raw/$file: exists but is a directory" \
            fuel convert $dataset -d raw -o out
        rmdir raw/$file
        mkfifo raw/$file
        refused 4 "fuel-convert: not a regular file: raw/$file: exists but is a FIFO" \
            fuel convert $dataset -d raw -o out
        refused 4 "fuel-download: not a regular file: raw/$file: exists but is a FIFO" \
            fuel download $dataset "${transfer[@]}"
        [ ! -e out ]
    done
}

@test "a directory given as a file: exit 4 and one message in every command" {
    mkdir given.hdf5 spec.yaml sums config arrays.h5
    expected="not a regular file: given.hdf5: exists but is a directory"
    refused 4 "fuel-pack: not a regular file: spec.yaml: exists but is a directory" fuel pack spec.yaml -o out
    refused 4 "fuel-download: not a regular file: sums: exists but is a directory" \
        fuel download mnist --checksums sums -d raw
    for command in info "info --verify-inputs" "info --check" stats duplicates reproduce \
        "diff $FUEL_FIXTURES/expected/mnist.hdf5" "export --to npy -o out" \
        "preview -o out/grid.png" "fixture -n 2 -o out --from" "serve --bind tcp://127.0.0.1:1"; do
        refused 4 "fuel-${command%% *}: $expected" fuel $command given.hdf5
    done
    # A pack spec's HDF5 input, and a config file named by FUEL_CONFIG.
    printf 'splits:\n  train: {examples: 2}\nsources:\n  features: {from: ["arrays.h5:x"]}\n' > pack.yaml
    refused 4 "fuel-pack: not a regular file: ./arrays.h5: exists but is a directory" fuel pack pack.yaml -o out
    FUEL_CONFIG=config refused 4 "fuel-list: not a regular file: config: exists but is a directory" fuel list
    [ ! -e out ] && [ ! -e raw ]
}

@test "a directory at NAME.part beside a sound NAME: download refuses it and list says so, in the same words" {
    fuel fixture iris --raw -o served >/dev/null
    transfer=(-d raw --url-prefix "file://$PWD/served/" --checksums served/MD5SUMS -q)
    fuel download iris "${transfer[@]}"
    mkdir raw/iris.data.part
    refused 4 "fuel-download: not a regular file: raw/iris.data.part: exists but is a directory" \
        fuel download iris "${transfer[@]}"
    run --separate-stderr fuel list -d raw
    [ "$status" -eq 0 ]
    [[ "$output" == *"    iris.data                        not a regular file  raw/iris.data.part  exists but is a directory"* ]]
    fuel list -d raw --json | python3 -c '
import json, sys
files = {f["name"]: f for d in json.load(sys.stdin) if d["name"] == "iris" for f in d["files"]}
f = files["iris.data"]
assert (f["state"], f["path"], f["kind"]) == ("not a regular file", "raw/iris.data.part", "a directory"), f
'
    cmp served/iris.data raw/iris.data
}

@test "a FIFO as a file never blocks: info, export, download --checksums" {
    mkfifo given.hdf5 sums
    refused 4 "fuel-info: not a regular file: given.hdf5: exists but is a FIFO" fuel info given.hdf5
    refused 4 "fuel-export: not a regular file: given.hdf5: exists but is a FIFO" \
        fuel export given.hdf5 --to npy -o out
    refused 4 "fuel-download: not a regular file: sums: exists but is a FIFO" \
        fuel download mnist --checksums sums -d raw
}

@test "pack: a FIFO as the spec, an image, an array of a folder or a from: input never blocks" {
    mkfifo spec.yaml
    refused 4 "fuel-pack: not a regular file: spec.yaml: exists but is a FIFO" fuel pack spec.yaml -o out
    mkfifo lone.npy
    mkdir -p arrays images/cat
    mkfifo arrays/0.npy images/cat/0.png
    printf 'splits:\n  train: {examples: 1}\nsources:\n  x: {from: lone.npy}\n' >from.yaml
    refused 4 "fuel-pack: not a regular file: ./lone.npy: exists but is a FIFO" fuel pack from.yaml -o out
    printf 'splits:\n  train: {examples: 1}\nsources:\n  x: {from: {arrays: arrays}}\n' >arrays.yaml
    refused 4 "fuel-pack: not a regular file: ./arrays/0.npy: exists but is a FIFO" fuel pack arrays.yaml -o out
    printf 'splits:\n  train: {examples: 1}\nsources:\n  x: {from: {images: images}}\n' >images.yaml
    refused 4 "fuel-pack: not a regular file: ./images/cat/0.png: exists but is a FIFO" fuel pack images.yaml -o out
    printf 'splits:\n  train: {examples: 1}\nsources:\n  x: {from: "lone.h5:/x"}\n' >hdf5.yaml
    mkfifo lone.h5
    refused 4 "fuel-pack: not a regular file: ./lone.h5: exists but is a FIFO" fuel pack hdf5.yaml -o out
    [ ! -e out ]
}

@test "HDF5 failures in fuel's words: empty, not HDF5, truncated (exit 4)" {
    : >empty.hdf5
    refused 4 "fuel-info: not an HDF5 file: empty.hdf5: it is empty" fuel info empty.hdf5
    echo hello >text.hdf5
    refused 4 "fuel-info: not an HDF5 file: text.hdf5: it does not start with the HDF5 signature" fuel info text.hdf5
    whole=$(stat -c %s "$FUEL_FIXTURES/expected/mnist.hdf5")
    head -c 10000 "$FUEL_FIXTURES/expected/mnist.hdf5" >cut.hdf5
    refused 4 "fuel-info: damaged HDF5 file: cut.hdf5: truncated: 10000 of $whole bytes" fuel info cut.hdf5
}
