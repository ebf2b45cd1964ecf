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
    boto3 mb fuel conditional -- put fuel data/ "$FUEL_FIXTURES/expected/mnist.hdf5" \
        "$FUEL_FIXTURES/expected/iris.hdf5" -- put fuel data/deeper/ "$FUEL_FIXTURES/expected/cifar10.hdf5"
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
    stop_bounded ${NODES[@]+"${NODES[@]}"}
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
    FUEL_DATA_PATH=s3://nothere/data run --separate-stderr fuel list
    [ "$status" -eq 5 ]
    [ -z "$output" ]
    [ "$stderr" = "fuel-list: cannot list: s3://nothere/: HTTP 404 NoSuchBucket: The specified bucket does not exist." ]
    AWS_SECRET_ACCESS_KEY=wrong-secret run --separate-stderr fuel cache mnist
    [ "$status" -eq 5 ]
    [[ "$stderr" == "fuel-cache: cannot list: s3://fuel/: HTTP 403 SignatureDoesNotMatch: "* ]]
    [[ "$stderr" != *wrong-secret* ]]
    FUEL_DATA_PATH='s3://fuel/../data' run --separate-stderr fuel path mnist
    [ "$status" -eq 4 ]
    [ -z "$(find "$FUEL_LOCAL_DATA_PATH" -type f 2>/dev/null)" ]
}

# start_nodes COUNT PREFIX ARGS...: COUNT fuel fetch mnist into the data path s3://$BUCKET/PREFIX
# (BUCKET default fuel) at once from the test server, rank 0 started last (no ranks with
# RANKS=none); their outputs in $BATS_TEST_TMPDIR/{out,err}.NODE, their process ids in NODES.
start_nodes() {
    local count=$1 prefix=$2 rank
    shift 2
    NODES=()
    for ((rank = count - 1; rank >= 0; rank--)); do
        if [ "${RANKS:-}" != none ]; then export RANK=$rank; fi
        FUEL_DATA_PATH=s3://${BUCKET:-fuel}/$prefix fuel fetch mnist --url-prefix "$URL/" \
            --checksums "$BATS_TEST_TMPDIR/raw.md5" --retries 0 "$@" \
            > "$BATS_TEST_TMPDIR/out.$rank" 2> "$BATS_TEST_TMPDIR/err.$rank" 3>&- &
        NODES[rank]=$!
    done
    unset RANK
}

# wait_nodes: their exit codes in $BATS_TEST_TMPDIR/codes (node order), each wait bounded.
wait_nodes() {
    local node
    : > "$BATS_TEST_TMPDIR/codes"
    for ((node = 0; node < ${#NODES[@]}; node++)); do
        local code=0
        wait_bounded "${NODES[node]}" || code=$?
        echo "$code" >> "$BATS_TEST_TMPDIR/codes"
    done
}

fetch_nodes() {
    start_nodes "$@"
    wait_nodes
}

# nodes_fetched_once N URL: every node exited 0 printing URL, and the origin answered each raw
# file once.
nodes_fetched_once() {
    [ "$(sort -u "$BATS_TEST_TMPDIR/codes")" = 0 ]
    local name node
    for name in "${MNIST_FILES[@]}"; do
        [ "$(requests "/$name" | awk '$1 == 200' | wc -l)" -eq 1 ]
    done
    for ((node = 0; node < $1; node++)); do
        [ "$(cat "$BATS_TEST_TMPDIR/out.$node")" = "$2" ]
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
    nodes_fetched_once 16 s3://fuel/cluster/mnist.hdf5
    boto3 get fuel cluster/mnist.hdf5 "$BATS_TEST_TMPDIR/mnist.hdf5"
    run fuel diff "$BATS_TEST_TMPDIR/mnist.hdf5" "$FUEL_FIXTURES/expected/mnist.hdf5"
    [ "$status" -eq 0 ]
    # --rank and SLURM_PROCID name a waiting node too; the object there, nothing is fetched.
    FUEL_DATA_PATH=s3://fuel/cluster SLURM_PROCID=3 run --separate-stderr fuel fetch mnist --json
    [ "$status" -eq 0 ]
    [ "$stderr" = "fuel-fetch: nothing to do: s3://fuel/cluster/mnist.hdf5 is there, its sha256 recorded" ]
    [ "$(requests /train-images-idx3-ubyte.gz | wc -l)" -eq 1 ]
}

@test "16 nodes without ranks, the store honouring If-None-Match: *: the lease's node fetches once" {
    start_origin
    BUCKET=conditional RANKS=none fetch_nodes 16 leased -q
    nodes_fetched_once 16 s3://conditional/leased/mnist.hdf5
    local node
    for ((node = 0; node < 16; node++)); do
        [ ! -s "$BATS_TEST_TMPDIR/err.$node" ]
    done
    [ "$(boto3 ls conditional leased/)" = leased/mnist.hdf5 ]
    # Swift's s3api answers the conditional PUT 501: without ranks every node is rank 0.
    RANKS=none fetch_nodes 2 unranked
    [ "$(cat "$BATS_TEST_TMPDIR/codes" | tr '\n' ' ')" = "0 0 " ]
    for node in 0 1; do
        [ "$(head -n 1 "$BATS_TEST_TMPDIR/err.$node")" = "fuel-fetch: s3://fuel/unranked/mnist.hdf5: the store refuses conditional PUTs and no rank is given (--rank, RANK, SLURM_PROCID, OMPI_COMM_WORLD_RANK): fetching as rank 0" ]
        [ "$(cat "$BATS_TEST_TMPDIR/out.$node")" = s3://fuel/unranked/mnist.hdf5 ]
    done
    [ "$(requests /train-labels-idx1-ubyte.gz | wc -l)" -eq 3 ]
}

# wait_requests PATH COUNT: until the origin has answered COUNT requests for PATH, at most 20 s
# (a request is logged once answered).
wait_requests() {
    local tick
    for ((tick = 0; tick < 200; tick++)); do
        [ "$(requests "$1" | wc -l)" -ge "$2" ] && return 0
        sleep 0.1
    done
    echo "the origin had no request $2 for $1 in 20 s" >&2
    return 1
}

@test "a SIGKILLed fetcher: by lease a waiting node takes over, by rank the others stop" {
    local stall='{"stall_after": 1000, "seconds": 60}' node holder started=$SECONDS
    start_origin "{\"/train-images-idx3-ubyte.gz\": [$stall, {\"serve\": true}, $stall]}"
    # The killed nodes' staging stays in a TMPDIR of this test's, not the suite's.
    export FUEL_S3_LEASE_SECONDS=2 TMPDIR=$BATS_TEST_TMPDIR/tmp
    mkdir "$TMPDIR"
    BUCKET=conditional RANKS=none start_nodes 3 killed --wait 60
    wait_requests /train-labels-idx1-ubyte.gz 1
    boto3 get conditional killed/.fuel-lease-mnist.hdf5 "$BATS_TEST_TMPDIR/lease"
    holder=$(awk '{print $4}' "$BATS_TEST_TMPDIR/lease")
    [[ "$(cat "$BATS_TEST_TMPDIR/lease")" =~ ^host\ .+\ pid\ $holder\ started\ 20[0-9-]+T[0-9:]+Z\ expires\ 20[0-9-]+T[0-9:]+Z$ ]]
    kill -9 "$holder"
    wait_nodes
    [ "$(sort "$BATS_TEST_TMPDIR/codes" | tr '\n' ' ')" = "0 0 137 " ]
    for ((node = 0; node < 3; node++)); do
        [ "${NODES[node]}" = "$holder" ] && continue
        [ "$(cat "$BATS_TEST_TMPDIR/out.$node")" = s3://conditional/killed/mnist.hdf5 ]
    done
    [ "$(cat "$BATS_TEST_TMPDIR"/err.* | grep -c ": the lease's node stopped (host .* pid $holder .*; not renewed for [0-9]* s): this node takes over$")" -eq 1 ]
    [ "$(boto3 ls conditional killed/)" = killed/mnist.hdf5 ]
    # By rank, a rank 0 that stopped renewing its lease: the others exit 5 naming it.
    start_nodes 3 stopped --wait 60
    wait_requests /train-labels-idx1-ubyte.gz 3
    kill -9 "${NODES[0]}"
    wait_nodes
    [ "$(cat "$BATS_TEST_TMPDIR/codes" | tr '\n' ' ')" = "137 5 5 " ]
    for node in 1 2; do
        [[ "$(tail -n 1 "$BATS_TEST_TMPDIR/err.$node")" == "fuel-fetch: the fetching node stopped: s3://fuel/stopped/mnist.hdf5: its lease (host "*" pid ${NODES[0]} started "*") not renewed for "*" s" ]]
    done
    [ $((SECONDS - started)) -lt 40 ]
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

@test "fuel reproduce finds the inputs in buckets: -d s3://, the data path, renamed objects" {
    local raw=$FUEL_FIXTURES/raw/mnist moved=$BATS_TEST_TMPDIR/moved
    mkdir -p "$moved"
    cp "$raw"/*-ubyte.gz "$moved"
    mv "$moved/t10k-labels-idx1-ubyte.gz" "$moved/renamed.gz"
    boto3 put fuel moved/ "$moved"/*
    fuel convert mnist -d "$raw" -o "$BATS_TEST_TMPDIR" -q
    run --separate-stderr fuel reproduce "$BATS_TEST_TMPDIR/mnist.hdf5" -d s3://fuel/moved -q
    [ "$status" -eq 0 ]
    [ "$output" = "reproduced byte for byte: $BATS_TEST_TMPDIR/mnist.hdf5" ]
    cmp "$raw/t10k-labels-idx1-ubyte.gz" "$FUEL_LOCAL_DATA_PATH/s3/fuel/moved/renamed.gz"
    rm -r "$FUEL_LOCAL_DATA_PATH"
    FUEL_DATA_PATH=$LOCAL:s3://fuel/moved/ run --separate-stderr fuel reproduce \
        "$BATS_TEST_TMPDIR/mnist.hdf5" -q
    [ "$status" -eq 0 ]
    [ "$output" = "reproduced byte for byte: $BATS_TEST_TMPDIR/mnist.hdf5" ]
    # Not in the bucket: the same summary as for directories.
    run --separate-stderr fuel reproduce "$BATS_TEST_TMPDIR/mnist.hdf5" -d s3://fuel/data -q
    [ "$status" -eq 3 ]
    [[ "$stderr" == *": 4 inputs not found: "* ]]
}

@test "provenance records the s3:// names as given, never a key, a signature or a token" {
    boto3 put fuel raw/ "$FUEL_FIXTURES/raw/mnist"/*-ubyte.gz
    (cd "$FUEL_FIXTURES/raw/mnist" && md5sum "${MNIST_FILES[@]}") > "$BATS_TEST_TMPDIR/raw.md5"
    # Swift's s3api ignores a session token it did not issue: the token is sent, and kept out.
    AWS_SESSION_TOKEN=session-token-value run --separate-stderr fuel fetch mnist \
        -d s3://fuel/recorded --url-prefix s3://fuel/raw/ --checksums "$BATS_TEST_TMPDIR/raw.md5"
    [ "$status" -eq 0 ]
    [[ "$stderr" != *session-token-value* ]]
    [[ "$stderr" != *testing* ]]
    boto3 get fuel recorded/mnist.hdf5 "$BATS_TEST_TMPDIR/mnist.hdf5"
    /usr/bin/python3 -c '
import h5py, json, sys
text = h5py.File(sys.argv[1], "r").attrs["fuel_provenance"]
text = text.decode() if isinstance(text, bytes) else text
provenance = json.loads(text)
assert "s3://fuel/recorded" in provenance["argv"] and "s3://fuel/raw/" in provenance["argv"], provenance["argv"]
for secret in ("testing", "test:tester", "Signature", "X-Amz", "session-token-value", "127.0.0.1"):
    assert secret not in text, secret' "$BATS_TEST_TMPDIR/mnist.hdf5"
}

@test "completion offers the names an s3:// data path entry holds, copying nothing" {
    export FUEL_DATA_PATH=s3://fuel/data
    cd "$BATS_TEST_TMPDIR"
    run bash -c 'source <(fuel completion bash) || exit 9
        COMP_WORDS=(fuel info mn); COMP_CWORD=2; COMP_LINE="fuel info mn"; COMP_POINT=${#COMP_LINE}
        _fuel; printf "%s\n" "${COMPREPLY[@]}" | sort'
    [ "$status" -eq 0 ]
    [ "$output" = mnist ]
    [ ! -e "$FUEL_LOCAL_DATA_PATH" ]
    [ ! -e "$HOME/.cache/fuel" ]
}

# counting_endpoint: tests/helpers/counting_proxy.py in front of the store; its URL into COUNTED,
# its count file (bytes from the store, connections) COUNTS.
counting_endpoint() {
    COUNTS=$BATS_TEST_TMPDIR/counts
    /usr/bin/python3 "$HELPERS/counting_proxy.py" "$BATS_TEST_TMPDIR/proxy.port" "$COUNTS" \
        "${S3_ENDPOINT##*:}" 3>&- &
    NODES=($!)
    local tick
    for ((tick = 0; tick < 200; tick++)); do
        [ -f "$BATS_TEST_TMPDIR/proxy.port" ] && break
        sleep 0.05
    done
    COUNTED=http://127.0.0.1:$(cat "$BATS_TEST_TMPDIR/proxy.port")
}

# moved_since BEFORE: the bytes the store sent through the proxy since it had sent BEFORE.
moved_since() {
    local bytes connections
    read -r bytes connections < "$COUNTS"
    echo $((bytes - $1))
}

@test "fixture --from and preview read an s3:// HDF5 object in place, else its verified copy" {
    export SOURCE_DATE_EPOCH=1700000000 FUEL_DATA_PATH=$LOCAL
    local object=s3://fuel/big/mnist.hdf5 size cut=$BATS_TEST_TMPDIR/cut
    fuel fixture mnist -n 2000 -o s3://fuel/big/ > /dev/null
    size=$(boto3 head fuel big/mnist.hdf5 | head -n 1)
    counting_endpoint
    export AWS_ENDPOINT_URL=$COUNTED
    run --separate-stderr fuel fixture --from "$object" -n 5 -o "$cut"
    [ "$status" -eq 0 ]
    [ -z "$stderr" ]
    [ "$output" = "$cut/mnist.hdf5" ]
    # A few of its blocks by ranged GETs: under a twentieth of the object, and no copy made.
    [ "$(moved_since 0)" -lt $((size / 20)) ]
    [ ! -e "$FUEL_LOCAL_DATA_PATH" ]
    mv "$cut/mnist.hdf5" "$BATS_TEST_TMPDIR/in-place.hdf5"
    local before
    before=$(moved_since 0)
    run --separate-stderr fuel preview "$object" -n 4 -o "$BATS_TEST_TMPDIR/in-place.png"
    [ "$status" -eq 0 ]
    [ -z "$stderr" ]
    [ "$(moved_since "$before")" -lt $((size / 20)) ]
    [ ! -e "$FUEL_LOCAL_DATA_PATH" ]
    # A custom CA bundle, a session token: the driver can use neither, so the verified copy,
    # whole, said in one line; the very same fixture and PNG.
    before=$(moved_since 0)
    AWS_CA_BUNDLE=/dev/null run --separate-stderr fuel fixture --from "$object" -n 5 -o "$cut"
    [ "$status" -eq 0 ]
    [ "$stderr" = "fuel-fixture: reading the local copy of $object: HDF5's S3 driver cannot use AWS_CA_BUNDLE" ]
    [ "$(moved_since "$before")" -ge "$size" ]
    cmp "$BATS_TEST_TMPDIR/in-place.hdf5" "$cut/mnist.hdf5"
    cmp "$FUEL_LOCAL_DATA_PATH/s3/fuel/big/mnist.hdf5" <(boto3 get fuel big/mnist.hdf5 /dev/stdout)
    AWS_SESSION_TOKEN=session-token-value run --separate-stderr fuel preview "$object" -n 4 \
        -o "$BATS_TEST_TMPDIR/copied.png"
    [ "$status" -eq 0 ]
    [ "${stderr_lines[0]}" = "fuel-preview: reading the local copy of $object: HDF5's S3 driver cannot use a session token" ]
    cmp "$BATS_TEST_TMPDIR/in-place.png" "$BATS_TEST_TMPDIR/copied.png"
}

@test "a NAME found in an s3:// data path entry is read in place by fixture --from and preview" {
    export SOURCE_DATE_EPOCH=1700000000
    local size before object=s3://fuel/named/mnist.hdf5 cut=$BATS_TEST_TMPDIR/cut
    fuel fixture mnist -n 10000 -o s3://fuel/named/ > /dev/null
    size=$(boto3 head fuel named/mnist.hdf5 | head -n 1)
    counting_endpoint
    export AWS_ENDPOINT_URL=$COUNTED FUEL_DATA_PATH=$LOCAL:s3://fuel/named
    run --separate-stderr fuel fixture --from mnist -n 5 -o "$cut"
    [ "$status" -eq 0 ]
    [ -z "$stderr" ]
    [ "$output" = "$cut/mnist.hdf5" ]
    [ "$(moved_since 0)" -lt $((size / 20)) ]
    [ ! -e "$FUEL_LOCAL_DATA_PATH" ]
    mv "$cut/mnist.hdf5" "$BATS_TEST_TMPDIR/in-place.hdf5"
    before=$(moved_since 0)
    run --separate-stderr fuel preview mnist -n 4 -o "$BATS_TEST_TMPDIR/in-place.png"
    [ "$status" -eq 0 ]
    [ -z "$stderr" ]
    [ "$(moved_since "$before")" -lt $((size / 20)) ]
    [ ! -e "$FUEL_LOCAL_DATA_PATH" ]
    # Where the driver cannot read it, the verified copy, said naming the object: the same bytes.
    AWS_CA_BUNDLE=/dev/null run --separate-stderr fuel fixture --from mnist -n 5 -o "$cut"
    [ "$status" -eq 0 ]
    [ "$stderr" = "fuel-fixture: reading the local copy of $object: HDF5's S3 driver cannot use AWS_CA_BUNDLE" ]
    cmp "$BATS_TEST_TMPDIR/in-place.hdf5" "$cut/mnist.hdf5"
    AWS_SESSION_TOKEN=session-token-value run --separate-stderr fuel preview mnist -n 4 \
        -o "$BATS_TEST_TMPDIR/copied.png"
    [ "$status" -eq 0 ]
    [ "$stderr" = "fuel-preview: reading the local copy of $object: HDF5's S3 driver cannot use a session token" ]
    cmp "$BATS_TEST_TMPDIR/in-place.png" "$BATS_TEST_TMPDIR/copied.png"
    cmp "$FUEL_LOCAL_DATA_PATH/s3/fuel/named/mnist.hdf5" <(boto3 get fuel named/mnist.hdf5 /dev/stdout)
}
