#!/usr/bin/env bats
# fuel serve: batches over ZeroMQ in Python Fuel's protocol, read by a client that decodes each
# message as Fuel's recv_arrays does (tests/helpers/fuel_client.py), checked against h5py.

bats_require_minimum_version 1.5.0

load ../helpers/processes

PYTHON=/usr/bin/python3

# The served file of most tests, made once for the file (the tests only read it).
setup_file() {
    PYTHONPATH=$BATS_TEST_DIRNAME/../helpers $PYTHON "$BATS_TEST_DIRNAME/../helpers/fuel_client.py" \
        make "$BATS_FILE_TMPDIR/indexed.hdf5" 1000
}

setup() {
    export HOME=$BATS_TEST_TMPDIR/home FUEL_CONFIG="$BATS_TEST_TMPDIR/empty-fuelrc"
    : >"$FUEL_CONFIG"
    mkdir -p "$HOME"
    unset FUEL_DATA_PATH
    export PYTHONPATH=$BATS_TEST_DIRNAME/../helpers
    CLIENT="$PYTHON $BATS_TEST_DIRNAME/../helpers/fuel_client.py"
    INDEXED=$BATS_FILE_TMPDIR/indexed.hdf5
    ENDPOINT=tcp://127.0.0.1:$($CLIENT free-port)
}

teardown() {
    stop_jobs
}

# serve NAME ARGS...: starts `fuel serve ARGS` on $ENDPOINT in the background as server NAME
# ($NAME_PID, stderr in $BATS_TEST_TMPDIR/NAME.err). The clients' receives time out
# (tests/helpers/fuel_client.py) and the server is waited for with wait_bounded: a server that
# fails or hangs fails its test in seconds.
serve() {
    local name=$1
    shift
    fuel serve --bind "$ENDPOINT" "$@" 2>"$BATS_TEST_TMPDIR/$name.err" 3>&- &
    printf -v "${name}_PID" '%s' "$!"
}

# refused ARGS...: fuel serve ARGS in the foreground, where a test expects it to refuse them; one
# that serves instead is stopped after 20 s (exit 124) rather than holding its test for ever.
refused() {
    timeout 20 fuel serve "$@"
}

@test "each epoch sends every example once, in order, with h5py's values; --epochs 2 exits 0" {
    serve server --batch-size 16 --epochs 2 "$FUEL_FIXTURES/expected/cifar10.hdf5"
    $PYTHON - "$ENDPOINT" "$FUEL_FIXTURES/expected/cifar10.hdf5" <<'PY'
import sys, h5py, numpy
from fuel_client import receive_epochs
epochs = receive_epochs(sys.argv[1], 2)
with h5py.File(sys.argv[2], "r") as handle:
    features, targets = handle["features"][0:60], handle["targets"][0:60]
for batches in epochs:
    assert [len(b[0]) for b in batches] == [16, 16, 16, 12], [len(b[0]) for b in batches]
    for sent_features, sent_targets in batches:
        assert sent_features.dtype == numpy.dtype("|u1") and sent_features.shape[1:] == (3, 32, 32)
        assert sent_targets.dtype == numpy.dtype("|u1") and sent_targets.shape[1:] == (1,)
    assert (numpy.concatenate([b[0] for b in batches]) == features).all()
    assert (numpy.concatenate([b[1] for b in batches]) == targets).all()
PY
    wait_bounded "$server_PID"
    [ "$?" -eq 0 ]
    run cat "$BATS_TEST_TMPDIR/server.err"
    [ "${#lines[@]}" -eq 1 ]
    [[ "$output" == *"cifar10.hdf5, split train (features |u1, targets |u1): 60 examples, 4 batches of 16 per epoch, on $ENDPOINT" ]]
}

@test "the header frame is Fuel's JSON, byte for byte, and the stop message is one frame" {
    serve server --batch-size 5 --epochs 1 --split test "$FUEL_FIXTURES/expected/mnist.hdf5"
    $PYTHON - "$ENDPOINT" <<'PY'
import sys
from fuel_client import connect, receive_multipart
sock = connect(sys.argv[1], hwm=None)
frames = receive_multipart(sock)
assert frames[0] == (b'[{"shape": [2, 1, 28, 28], "fortran_order": false, "descr": "|u1"}, '
                     b'{"shape": [2, 1], "fortran_order": false, "descr": "|u1"}]'), frames[0]
assert [len(f) for f in frames[1:]] == [2 * 784, 2], [len(f) for f in frames[1:]]
assert receive_multipart(sock) == [b'{"stop": true}']
PY
    wait_bounded "$server_PID"
}

@test "shuffled epochs cover the split once each, differ, and the same seed repeats them" {
    serve first --shuffle --seed 7 --batch-size 100 --epochs 2 "$INDEXED"
    $PYTHON - "$ENDPOINT" "$BATS_TEST_TMPDIR/first.json" <<'PY'
import json, sys
from fuel_client import receive_epochs, example_indices
epochs = receive_epochs(sys.argv[1], 2)
orders = []
for batches in epochs:
    assert [len(b[0]) for b in batches] == [100] * 9 + [90]
    order = example_indices(batches)
    assert sorted(order) == list(range(990))
    assert order != list(range(990))
    orders.append(order)
assert orders[0] != orders[1]
json.dump(orders, open(sys.argv[2], "w"))
PY
    wait_bounded "$first_PID"
    serve again --shuffle --seed 7 --batch-size 100 --epochs 2 "$INDEXED"
    local again=$ENDPOINT
    ENDPOINT=tcp://127.0.0.1:$($CLIENT free-port)
    serve other --shuffle --seed 8 --batch-size 100 --epochs 1 "$INDEXED"
    $PYTHON - "$again" "$ENDPOINT" "$BATS_TEST_TMPDIR/first.json" <<'PY'
import json, sys
from fuel_client import receive_epochs, example_indices
again = [example_indices(batches) for batches in receive_epochs(sys.argv[1], 2)]
other = example_indices(receive_epochs(sys.argv[2], 1)[0])
first = json.load(open(sys.argv[3]))
assert again == first, "the same seed drew other permutations"
assert other != first[0] and sorted(other) == list(range(990))
PY
    wait_bounded "$again_PID"
    wait_bounded "$other_PID"
}

@test "--part 1/3, 2/3, 3/3 serve disjoint shares that cover the split" {
    local endpoints=()
    for share in 1 2 3; do
        ENDPOINT=tcp://127.0.0.1:$($CLIENT free-port)
        endpoints+=("$ENDPOINT")
        serve "part$share" --shuffle --seed 3 --part "$share/3" --batch-size 64 --epochs 1 "$INDEXED"
    done
    $PYTHON - "${endpoints[@]}" <<'PY'
import sys
from fuel_client import receive_epochs, example_indices
shares = [example_indices(receive_epochs(endpoint, 1)[0]) for endpoint in sys.argv[1:]]
assert [len(share) for share in shares] == [330, 330, 330], [len(s) for s in shares]
assert len(set(shares[0]) | set(shares[1]) | set(shares[2])) == 990
assert sorted(shares[0] + shares[1] + shares[2]) == list(range(990))
assert shares[0] != sorted(shares[0])
PY
    wait_bounded "$part1_PID"
    wait_bounded "$part2_PID"
    wait_bounded "$part3_PID"
    grep -q "share 2/3 of 330, 6 batches of 64 per epoch (shuffled)" "$BATS_TEST_TMPDIR/part2.err"
    # Unshuffled, a share is a range of the split, read in order.
    serve range --part 2/3 --batch-size 100 --epochs 1 "$INDEXED"
    $PYTHON - "$ENDPOINT" <<'PY'
import sys
from fuel_client import receive_epochs, example_indices
batches = receive_epochs(sys.argv[1], 1)[0]
assert [len(b[0]) for b in batches] == [100, 100, 100, 30]
assert example_indices(batches) == list(range(330, 660))
PY
    wait_bounded "$range_PID"
}

@test "two clients on one server together receive each batch once" {
    INDEXED=$BATS_TEST_TMPDIR/indexed.hdf5
    $CLIENT make "$INDEXED" 1000 2048
    serve server --batch-size 10 --hwm 1 --epochs 1 "$INDEXED"
    $PYTHON - "$ENDPOINT" <<'PY'
import sys, time, zmq
from fuel_client import RECEIVE_SECONDS, connect, recv_arrays, example_indices
def client():
    return connect(sys.argv[1], hwm=1, receive_buffer=4096)
# The first client takes one batch, then waits for the second to be served before reading on.
clients = [client()]
received = [[recv_arrays(clients[0])], []]
clients.append(client())
received[1].append(recv_arrays(clients[1]))
poller = zmq.Poller()
for sock in clients:
    poller.register(sock, zmq.POLLIN)
stops, quiet_since, heard = 0, None, time.time()
while quiet_since is None or time.time() - quiet_since < 1.0:
    assert time.time() - heard < RECEIVE_SECONDS, "no batch and no stop: did the server fail?"
    ready = dict(poller.poll(200))
    heard = time.time() if ready else heard
    for number, sock in enumerate(clients):
        if sock in ready:
            try:
                received[number].append(recv_arrays(sock))
            except StopIteration:
                stops += 1
                quiet_since = time.time()
assert stops == 1, stops
indices = [example_indices(batches) for batches in received]
assert sorted(indices[0] + indices[1]) == list(range(990))
assert len(set(indices[0]) & set(indices[1])) == 0
PY
    wait_bounded "$server_PID"
}

@test "an index-list split is served in its order over ipc://; --sources picks and orders" {
    local sockets
    sockets=$(mktemp -d /tmp/fuel-serve.XXXXXX)
    ENDPOINT=ipc://$sockets/batches
    serve server --split picked --sources targets,features --batch-size 3 --epochs 1 "$INDEXED"
    $PYTHON - "$ENDPOINT" <<'PY'
import sys
from fuel_client import receive_epochs, example_indices
batches = receive_epochs(sys.argv[1], 1)[0]
assert [len(b[0]) for b in batches] == [3, 3, 1]
assert example_indices([(features, targets) for targets, features in batches]) == [5, 1, 9, 2, 3, 0, 8]
PY
    wait_bounded "$server_PID"
    rm -rf "$sockets"
}

@test "--dtype float32 --scale converts features only, unless --convert names others" {
    serve server --dtype float32 --scale 0.00390625 --batch-size 32 --epochs 1 \
        "$FUEL_FIXTURES/expected/cifar10.hdf5"
    $PYTHON - "$ENDPOINT" "$FUEL_FIXTURES/expected/cifar10.hdf5" <<'PY'
import sys, h5py, numpy
from fuel_client import receive_epochs
batches = receive_epochs(sys.argv[1], 1)[0]
with h5py.File(sys.argv[2], "r") as handle:
    features, targets = handle["features"][0:60], handle["targets"][0:60]
sent = numpy.concatenate([b[0] for b in batches])
assert sent.dtype == numpy.dtype("<f4")
assert (sent == features.astype(numpy.float32) / 256).all()
assert batches[0][1].dtype == numpy.dtype("|u1")
assert (numpy.concatenate([b[1] for b in batches]) == targets).all()
PY
    wait_bounded "$server_PID"
    grep -q "(features <f4, targets |u1)" "$BATS_TEST_TMPDIR/server.err"
    serve converted --dtype float32 --scale 2 --convert targets --epochs 1 "$INDEXED"
    $PYTHON - "$ENDPOINT" <<'PY'
import sys, numpy
from fuel_client import receive_epochs
features, targets = receive_epochs(sys.argv[1], 1)[0][0]
assert features.dtype == numpy.dtype("<u2") and targets.dtype == numpy.dtype("<f4")
assert (targets[:, 0] == -2 * numpy.arange(128)).all()
PY
    wait_bounded "$converted_PID"
}

@test "a NAME is found in the data path; -v prints a line per message, -q nothing" {
    mkdir -p "$BATS_TEST_TMPDIR/data"
    cp "$FUEL_FIXTURES/expected/mnist.hdf5" "$BATS_TEST_TMPDIR/data/"
    export FUEL_DATA_PATH=$BATS_TEST_TMPDIR/data
    serve verbose -v --batch-size 5 --epochs 1 mnist.hdf5
    $PYTHON -c 'import sys; from fuel_client import receive_epochs; receive_epochs(sys.argv[1], 1)' "$ENDPOINT"
    wait_bounded "$verbose_PID"
    run cat "$BATS_TEST_TMPDIR/verbose.err"
    [ "${lines[0]}" = "fuel-serve: serving $BATS_TEST_TMPDIR/data/mnist.hdf5, split train (features |u1, targets |u1): 12 examples, 3 batches of 5 per epoch, on $ENDPOINT" ]
    [ "${lines[1]}" = "fuel-serve: epoch 1: batch 1/3, 5 examples" ]
    [ "${lines[3]}" = "fuel-serve: epoch 1: batch 3/3, 2 examples" ]
    [ "${lines[4]}" = "fuel-serve: epoch 1: stop" ]
    [ "${#lines[@]}" -eq 5 ]
    serve quiet -q --epochs 1 mnist.hdf5
    $PYTHON -c 'import sys; from fuel_client import receive_epochs; receive_epochs(sys.argv[1], 1)' "$ENDPOINT"
    wait_bounded "$quiet_PID"
    [ ! -s "$BATS_TEST_TMPDIR/quiet.err" ]
}

@test "a missing file exits 3, a damaged one 4, before binding" {
    run --separate-stderr refused --bind "$ENDPOINT" "$BATS_TEST_TMPDIR/nothing.hdf5"
    [ "$status" -eq 3 ]
    [[ "$stderr" == "fuel-serve: no such file: $BATS_TEST_TMPDIR/nothing.hdf5"* ]]
    echo "not hdf5" > "$BATS_TEST_TMPDIR/text.hdf5"
    run --separate-stderr refused --bind "$ENDPOINT" "$BATS_TEST_TMPDIR/text.hdf5"
    [ "$status" -eq 4 ]
    [ "$stderr" = "fuel-serve: not an HDF5 file: $BATS_TEST_TMPDIR/text.hdf5: it does not start with the HDF5 signature" ]
    head -c 3000 "$FUEL_FIXTURES/expected/cifar10.hdf5" > "$BATS_TEST_TMPDIR/truncated.hdf5"
    run --separate-stderr refused --bind "$ENDPOINT" "$BATS_TEST_TMPDIR/truncated.hdf5"
    [ "$status" -eq 4 ]
    [[ "$stderr" == "fuel-serve: "*"$BATS_TEST_TMPDIR/truncated.hdf5"* ]]
    [ -z "$output" ]
}

@test "a bad --part, split, source or option is a usage error (exit 2)" {
    for share in 0/3 4/3 1/0 3 x/2 -1/2 1/3x; do
        run --separate-stderr refused --part "$share" "$INDEXED"
        [ "$status" -eq 2 ]
        [ "$stderr" = "fuel-serve: bad --part: $share: expected K/N with 1 <= K <= N; see 'fuel-serve -h'" ]
    done
    run --separate-stderr refused --part 1001/1001 --split test "$INDEXED"
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-serve: share 1001/1001 of 10 examples holds none" ]
    run --separate-stderr refused --split valid "$INDEXED"
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-serve: no split valid: $INDEXED; its splits: train, test, picked" ]
    run --separate-stderr refused --sources features,labels "$INDEXED"
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-serve: no source labels: $INDEXED; its sources: features, targets" ]
    run --separate-stderr refused --scale 2 "$INDEXED"
    [ "$status" -eq 2 ]
    run --separate-stderr refused --dtype float64 "$INDEXED"
    [ "$status" -eq 2 ]
    run --separate-stderr refused --batch-size 0 "$INDEXED"
    [ "$status" -eq 2 ]
    run --separate-stderr refused
    [ "$status" -eq 2 ]
}

# send_buffer ARGS...: serves $INDEXED with ARGS to a client that reads one batch and prints the
# kernel send buffer (ss's skmem tb) of the server's side of its connection.
send_buffer() {
    serve buffered --batch-size 100 --hwm 1 "$@" "$INDEXED"
    $PYTHON - "$ENDPOINT" <<'PY'
import re, subprocess, sys
from fuel_client import connect, recv_arrays
sock = connect(sys.argv[1], hwm=1)
recv_arrays(sock)
port = sys.argv[1].rsplit(":", 1)[1]
shown = subprocess.run(["ss", "-tmnH", "state", "established", "( sport = :%s )" % port],
                       capture_output=True, text=True, check=True).stdout
print(" ".join(re.findall(r"\btb(\d+)", shown)))
sock.close(linger=0)
PY
    kill "$buffered_PID"
    wait_bounded "$buffered_PID" || true
}

@test "--send-buffer sets each connection's kernel send buffer, 0 leaves it to the kernel" {
    limit=$(cat /proc/sys/net/core/wmem_max)
    default=$((2 * (limit < 262144 ? limit : 262144)))
    run send_buffer --send-buffer 65536
    [ "$status" -eq 0 ]
    [ "$output" = 131072 ]
    run send_buffer
    [ "$status" -eq 0 ]
    [ "$output" = "$default" ]
    run send_buffer --send-buffer 0
    [ "$status" -eq 0 ]
    [[ "$output" =~ ^[0-9]+$ ]]
    [ "$output" != 131072 ]
    [ "$output" != "$default" ]
    for bad in -1 x 1073741825; do
        run --separate-stderr refused --send-buffer "$bad" "$INDEXED"
        [ "$status" -eq 2 ]
        [[ "$stderr" == "fuel-serve: "*"--send-buffer"* ]]
    done
}

@test "a variable-length source (SVHN format 1) exits 2 naming it, before binding" {
    $PYTHON -c 'import sys, zmq; s = zmq.Context().socket(zmq.PULL); s.bind(sys.argv[1])' "$ENDPOINT"
    run --separate-stderr refused --bind "$ENDPOINT" "$FUEL_FIXTURES/expected/svhn_format_1.hdf5"
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-serve: source bbox_heights is variable-length: its examples have no common shape" ]
    run --separate-stderr refused --bind "$ENDPOINT" --sources features "$FUEL_FIXTURES/expected/svhn_format_1.hdf5"
    [ "$status" -eq 2 ]
    [ "$stderr" = "fuel-serve: source features is variable-length: its examples have no common shape" ]
}

@test "an endpoint in use exits 1 naming it, and nothing is served" {
    serve first --epochs 1 "$INDEXED"
    sleep 0.3
    run --separate-stderr refused --bind "$ENDPOINT" "$INDEXED"
    [ "$status" -eq 1 ]
    [ "$stderr" = "fuel-serve: cannot bind: $ENDPOINT: Address already in use" ]
    run --separate-stderr refused --bind "not-an-endpoint" "$INDEXED"
    [ "$status" -eq 1 ]
    [[ "$stderr" == "fuel-serve: cannot bind: not-an-endpoint: "* ]]
}

@test "SIGINT exits 130 and SIGTERM 143, while sending and while delivering the last epoch" {
    serve interrupted "$INDEXED"
    sleep 0.5
    kill -INT "$interrupted_PID"
    status=0
    wait_bounded "$interrupted_PID" || status=$?
    [ "$status" -eq 130 ]
    serve terminated --epochs 1 "$INDEXED"
    sleep 0.5
    kill -TERM "$terminated_PID"
    status=0
    wait_bounded "$terminated_PID" || status=$?
    [ "$status" -eq 143 ]
    serve lingering --epochs 1 --batch-size 1000 --hwm 5 "$INDEXED"
    sleep 0.5
    kill -TERM "$lingering_PID"
    status=0
    wait_bounded "$lingering_PID" || status=$?
    [ "$status" -eq 143 ]
}

@test "fuel serve -h lists every option; fuel -h lists serve" {
    run fuel serve -h
    [ "$status" -eq 0 ]
    for option in --split --sources --batch-size --shuffle --seed --epochs --part --bind --hwm \
        --send-buffer --dtype --scale --convert --quiet --verbose; do
        [[ "$output" == *"$option"* ]]
    done
    run fuel -h
    [[ "$output" == *"serve "*"ZeroMQ"* ]]
}
