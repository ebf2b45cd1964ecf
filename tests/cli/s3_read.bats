#!/usr/bin/env bats
# s3:// data path entries against a real S3 store that checks signatures (Swift with s3api on
# 127.0.0.1): name lookups in order, fuel list, fuel cache NAME, and a cluster's fuel fetch
# sending the origin each file once.

bats_require_minimum_version 1.5.0

load ../helpers/s3
load ../helpers/download
load ../helpers/processes

# The store, with MNIST's and Iris' converted files uploaded by boto3 to s3://fuel/data/.
setup_file() {
    s3_store_start
    boto3 mb fuel
    boto3 put fuel data/ "$FUEL_FIXTURES/expected/mnist.hdf5" "$FUEL_FIXTURES/expected/iris.hdf5"
    boto3 put fuel data/deeper/ "$FUEL_FIXTURES/expected/cifar10.hdf5"
}

teardown_file() {
    s3_store_stop
}

setup() {
    s3_environment
    LOCAL=$BATS_TEST_TMPDIR/local
    mkdir -p "$LOCAL"
    export FUEL_LOCAL_DATA_PATH=$BATS_TEST_TMPDIR/copies
}

teardown() {
    stop_server
}

@test "an s3:// data path entry is searched in its place: path, list, cache NAME, info NAME" {
    cp "$FUEL_FIXTURES/expected/iris.hdf5" "$FUEL_FIXTURES/expected/binarized_mnist.hdf5" "$LOCAL"
    export FUEL_DATA_PATH=s3://fuel/data:$LOCAL
    run --separate-stderr fuel path mnist
    [ "$status" -eq 0 ]
    [ "$output" = s3://fuel/data/mnist.hdf5 ]
    run --separate-stderr fuel path iris
    [ "$output" = s3://fuel/data/iris.hdf5 ]
    run --separate-stderr fuel path binarized_mnist
    [ "$output" = "$LOCAL/binarized_mnist.hdf5" ]
    # Only the objects directly below the entry are its files.
    run --separate-stderr fuel path cifar10
    [ "$status" -eq 3 ]
    [[ "$stderr" == *"searched s3://fuel/data, $LOCAL"* ]]
    FUEL_DATA_PATH=$LOCAL:s3://fuel/data run --separate-stderr fuel path iris
    [ "$output" = "$LOCAL/iris.hdf5" ]
    run --separate-stderr fuel list --json
    [ "$status" -eq 0 ]
    printf '%s' "$output" | /usr/bin/python3 -c '
import json, os, sys
converted = {d["name"]: d["converted"] for d in json.load(sys.stdin) if d["converted"]}
assert converted["mnist"]["path"] == "s3://fuel/data/mnist.hdf5", converted["mnist"]
assert converted["mnist"]["size"] == os.path.getsize(sys.argv[1] + "/mnist.hdf5")
assert converted["mnist"]["created"] is None
assert converted["binarized_mnist"]["path"] == sys.argv[2] + "/binarized_mnist.hdf5"
assert converted["cifar10"]["path"] is None' "$FUEL_FIXTURES/expected" "$LOCAL"
    run --separate-stderr fuel cache mnist
    [ "$status" -eq 0 ]
    [ "$output" = "$FUEL_LOCAL_DATA_PATH/s3/fuel/data/mnist.hdf5" ]
    [ "$stderr" = "fuel-cache: copied s3://fuel/data/mnist.hdf5" ]
    cmp "$FUEL_FIXTURES/expected/mnist.hdf5" "$output"
    run --separate-stderr fuel info mnist
    [ "$status" -eq 0 ]
    [[ "$output" == *"Metadata for mnist.hdf5"* ]]
    run --separate-stderr fuel diff iris "$FUEL_FIXTURES/expected/iris.hdf5"
    [ "$status" -eq 0 ]
    cmp "$FUEL_FIXTURES/expected/iris.hdf5" "$FUEL_LOCAL_DATA_PATH/s3/fuel/data/iris.hdf5"
}

@test "data_path in ~/.fuelrc takes s3:// entries; a failing store is one line and exit 5" {
    printf 'data_path: %s:s3://fuel/data\n' "$LOCAL" > "$FUEL_CONFIG"
    run --separate-stderr fuel path mnist.hdf5
    [ "$status" -eq 0 ]
    [ "$output" = s3://fuel/data/mnist.hdf5 ]
    FUEL_DATA_PATH=s3://nothere/data:$LOCAL run --separate-stderr fuel info mnist
    [ "$status" -eq 5 ]
    [ "$stderr" = "fuel-info: cannot list: s3://nothere/: HTTP 404 NoSuchBucket: The specified bucket does not exist." ]
    AWS_SECRET_ACCESS_KEY=wrong-secret run --separate-stderr fuel cache mnist
    [ "$status" -eq 5 ]
    [[ "$stderr" == "fuel-cache: cannot list: s3://fuel/: HTTP 403 SignatureDoesNotMatch: "* ]]
    [[ "$stderr" != *wrong-secret* ]]
    FUEL_DATA_PATH='s3://fuel/../data' run --separate-stderr fuel path mnist
    [ "$status" -eq 4 ]
    [ -z "$(find "$FUEL_LOCAL_DATA_PATH" -type f 2>/dev/null)" ]
}
