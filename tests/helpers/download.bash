# Shared by fuel-download's CLI tests: small files named as MNIST's, their md5sums, the test HTTP
# server (tests/helpers/http_server.py) and queries of its request log.
HELPERS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$HELPERS/processes.bash"
MNIST_FILES=(train-images-idx3-ubyte.gz train-labels-idx1-ubyte.gz t10k-images-idx3-ubyte.gz
             t10k-labels-idx1-ubyte.gz)
MNIST_SIZES=(300000 20000 120000 3000)

# Random files in $SERVED and their md5sum lines in $SUMS; downloads go to $TARGET.
make_served_files() {
    SERVED=$BATS_TEST_TMPDIR/served
    SUMS=$BATS_TEST_TMPDIR/md5sums
    TARGET=$BATS_TEST_TMPDIR/target
    mkdir -p "$SERVED"
    for index in 0 1 2 3; do
        head -c "${MNIST_SIZES[$index]}" /dev/urandom > "$SERVED/${MNIST_FILES[$index]}"
    done
    (cd "$SERVED" && md5sum "${MNIST_FILES[@]}") > "$SUMS"
    export FUEL_CONFIG="$BATS_TEST_TMPDIR/empty-fuelrc"
    : >"$FUEL_CONFIG"
    unset FUEL_MIRROR
}

# Starts the server on $SERVED with the faults JSON given (default none); sets $URL and $SERVER_LOG.
start_server() {
    local faults=$BATS_TEST_TMPDIR/faults.json port_file=$BATS_TEST_TMPDIR/port none='{}'
    printf '%s' "${1:-$none}" > "$faults"
    SERVER_LOG=$BATS_TEST_TMPDIR/server.log
    : > "$SERVER_LOG"
    rm -f "$port_file"
    /usr/bin/python3 "$HELPERS/http_server.py" "$SERVED" "$port_file" "$SERVER_LOG" "$faults" 3>&- &
    SERVER_PID=$!
    for _ in $(seq 100); do
        [ -s "$port_file" ] && break
        sleep 0.05
    done
    [ -s "$port_file" ] || { echo "the test HTTP server did not start in 5 s"; false; }
    URL=http://127.0.0.1:$(cat "$port_file")
}

stop_server() {
    if [ -n "${SERVER_PID:-}" ]; then
        stop_bounded "$SERVER_PID"
    fi
}

# fuel-download mnist from the test server with the test checksums, fast retries, short timeouts.
fetch() {
    fuel-download mnist -d "$TARGET" --url-prefix "$URL" --checksums "$SUMS" --retry-delay 0.05 \
        --timeout 2 "$@"
}

# One line per request for PATH: "STATUS START SENT RANGE IF_RANGE TIME".
requests() {
    /usr/bin/python3 - "$SERVER_LOG" "$1" <<'PYTHON'
import json, sys
for line in open(sys.argv[1]):
    entry = json.loads(line)
    if entry["path"] == sys.argv[2]:
        print(entry["status"], entry["start"], entry["sent"], entry["range"] or "-",
              entry["if_range"] or "-", "%.3f" % entry["time"])
PYTHON
}

# Total body bytes the server sent for PATH.
bytes_sent() {
    requests "$1" | awk '{total += $3} END {print total + 0}'
}

# Asserts every served file arrived byte for byte and no .part is left.
assert_all_downloaded() {
    for name in "${MNIST_FILES[@]}"; do
        cmp "$SERVED/$name" "$TARGET/$name"
        [ ! -e "$TARGET/$name.part" ]
    done
}
