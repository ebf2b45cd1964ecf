#!/usr/bin/env bats
# The exhaustive kill loops of fuel export, run by make check-durability (make check runs a sample
# of their kill points: tests/cli/export.bats): SIGKILL at ten random moments of each export, and at
# each rename of a publishing.

bats_require_minimum_version 1.5.0

load ../helpers/processes
load ../helpers/export_sets

PYTHON=/usr/bin/python3

setup() {
    EXPECTED="$FUEL_FIXTURES/expected"
    export HOME="$BATS_TEST_TMPDIR/home" FUEL_CONFIG="$BATS_TEST_TMPDIR/empty-fuelrc"
    : >"$FUEL_CONFIG"
    export SOURCE_DATE_EPOCH=1700000000
    mkdir -p "$HOME"
    unset FUEL_DATA_PATH
    cd "$BATS_TEST_TMPDIR"
}

teardown() {
    stop_jobs
}

@test "SIGKILL at ten random moments of each export, then fuel clean: the earlier set or the new one" {
    mnist_large big.hdf5 20000
    kill_loop big.hdf5 "--to hdf5-layer --scale 2 --examples-per-file 250" \
        "--to hdf5-layer --examples-per-file 500" random_moments 5
    mnist_large small.hdf5 4000
    kill_loop small.hdf5 "--to image-list --scale 2" "--to image-list" random_moments 25
    kill_loop big.hdf5 "--to npy --dtype float32" "--to recordio" random_moments 10
}

@test "SIGKILL at ten random moments of each shard export, then fuel clean: the earlier shards or the new ones" {
    mnist_large big.hdf5 20000
    kill_loop big.hdf5 "--to webdataset --shards 4" "--to webdataset --shards 3 --shuffle" \
        random_moments 15
    kill_loop big.hdf5 "--to webdataset --shard-examples 5000" "--to tfrecord --ranks 3" \
        random_moments 25
}

@test "killed at each of the 7 renames of publishing: the earlier set whole, or a committed set fuel clean finishes" {
    killed_at_renames 0 1 2 3 4 5 6
}
