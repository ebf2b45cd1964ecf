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

# fetch_nodes COUNT PREFIX ARGS...: COUNT fuel fetch mnist into the data path s3://fuel/PREFIX
# at once from the test server, rank 0 started last; their outputs in $BATS_TEST_TMPDIR/NODE.*,
# their exit codes in $BATS_TEST_TMPDIR/codes (rank order).
fetch_nodes() {
    local count=$1 prefix=$2 rank pids=()
    shift 2
    for ((rank = count - 1; rank >= 0; rank--)); do
        FUEL_DATA_PATH=s3://fuel/$prefix RANK=$rank fuel fetch mnist --url-prefix "$URL/" \
            --checksums "$BATS_TEST_TMPDIR/raw.md5" --retries 0 "$@" \
            > "$BATS_TEST_TMPDIR/out.$rank" 2> "$BATS_TEST_TMPDIR/err.$rank" 3>&- &
        pids[rank]=$!
    done
    : > "$BATS_TEST_TMPDIR/codes"
    for ((rank = 0; rank < count; rank++)); do
        local code=0
        wait_bounded "${pids[rank]}" || code=$?
        echo "$code" >> "$BATS_TEST_TMPDIR/codes"
    done
}

# The origin: the test HTTP server on MNIST's raw fixture files.
start_origin() {
    SERVED=$FUEL_FIXTURES/raw/mnist
    (cd "$SERVED" && md5sum "${MNIST_FILES[@]}") > "$BATS_TEST_TMPDIR/raw.md5"
    start_server "${1:-}"
}

@test "16 nodes fetch mnist into an s3:// data path at once: the origin sends each file once" {
    start_origin
    fetch_nodes 16 cluster -q
    [ "$(sort -u "$BATS_TEST_TMPDIR/codes")" = 0 ]
    local name rank
    for name in "${MNIST_FILES[@]}"; do
        [ "$(requests "/$name" | awk '$1 == 200' | wc -l)" -eq 1 ]
    done
    for ((rank = 0; rank < 16; rank++)); do
        [ "$(cat "$BATS_TEST_TMPDIR/out.$rank")" = s3://fuel/cluster/mnist.hdf5 ]
    done
    boto3 get fuel cluster/mnist.hdf5 "$BATS_TEST_TMPDIR/mnist.hdf5"
    run fuel diff "$BATS_TEST_TMPDIR/mnist.hdf5" "$FUEL_FIXTURES/expected/mnist.hdf5"
    [ "$status" -eq 0 ]
    # --rank and SLURM_PROCID name a waiting node too; the object there, nothing is fetched.
    FUEL_DATA_PATH=s3://fuel/cluster SLURM_PROCID=3 run --separate-stderr fuel fetch mnist --json
    [ "$status" -eq 0 ]
    [ "$stderr" = "fuel-fetch: nothing to do: s3://fuel/cluster/mnist.hdf5 is there, its sha256 recorded" ]
    [ "$(requests /train-images-idx3-ubyte.gz | wc -l)" -eq 1 ]
}

@test "rank 0 failing makes the waiting nodes exit 5 naming its failure; waits are bounded" {
    start_origin '{"/train-labels-idx1-ubyte.gz": [{"status": 404}]}'
    fetch_nodes 3 failing
    [ "$(cat "$BATS_TEST_TMPDIR/codes" | tr '\n' ' ')" = "5 5 5 " ]
    [[ "$(cat "$BATS_TEST_TMPDIR/err.0")" == *"fuel-fetch: cannot download: "*"train-labels-idx1-ubyte.gz"* ]]
    local rank
    for rank in 1 2; do
        [ "$(head -n 1 "$BATS_TEST_TMPDIR/err.$rank")" = "fuel-fetch: rank $rank: waiting for rank 0 to fetch s3://fuel/failing/mnist.hdf5" ]
        [[ "$(tail -n 1 "$BATS_TEST_TMPDIR/err.$rank")" == "fuel-fetch: the fetching node failed: s3://fuel/failing/mnist.hdf5: rank 0 on "*": cannot download: "*"train-labels-idx1-ubyte.gz"* ]]
        [ ! -s "$BATS_TEST_TMPDIR/out.$rank" ]
    done
    [ -z "$(boto3 ls fuel failing/mnist)" ]
    # No rank 0 at all: the wait ends when told.
    FUEL_DATA_PATH=s3://fuel/nobody run --separate-stderr fuel fetch mnist --rank 1 --wait 0.3 -q
    [ "$status" -eq 5 ]
    [ "$stderr" = "fuel-fetch: waited 0.3 s for the node of rank 0: s3://fuel/nobody/mnist.hdf5: not published; is rank 0 running? (--wait)" ]
    RANK=one run --separate-stderr fuel fetch mnist -d s3://fuel/nobody
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-fetch: bad rank: RANK=one: a whole number from 0 expected" ]
}
