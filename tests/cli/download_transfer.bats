#!/usr/bin/env bats
# fuel-download against a real HTTP server on 127.0.0.1: resume, retries, fallbacks, verification;
# hosts that do not resolve (names under .invalid, RFC 6761) fail at once.

bats_require_minimum_version 1.5.0

load ../helpers/download

setup() {
    make_served_files
}

teardown() {
    stop_server
}

@test "downloads every file, verified, with fuel's User-Agent" {
    start_server
    run fetch
    [ "$status" -eq 0 ]
    assert_all_downloaded
    grep -q '"user_agent": "fuel/' "$SERVER_LOG"
    [ "$(wc -l < "$SERVER_LOG")" -eq 4 ]
}

@test "a second run finds the files verified and sends nothing" {
    start_server
    run fetch
    [ "$status" -eq 0 ]
    : > "$SERVER_LOG"
    run fetch
    [ "$status" -eq 0 ]
    [ ! -s "$SERVER_LOG" ]
    [[ "$output" == *"train-images-idx3-ubyte.gz: already present and verified"* ]]
}

@test "a connection dropped mid-file resumes from the offset with If-Range" {
    start_server '{"/train-images-idx3-ubyte.gz": [{"drop_after": 100000}]}'
    run fetch
    [ "$status" -eq 0 ]
    assert_all_downloaded
    mapfile -t lines < <(requests /train-images-idx3-ubyte.gz)
    [ "${#lines[@]}" -eq 2 ]
    read -r status start sent range if_range _ <<< "${lines[0]}"
    [ "$status" = 200 ]
    [ "$sent" = 100000 ]
    read -r status start sent range if_range _ <<< "${lines[1]}"
    [ "$status" = 206 ]
    [ "$start" = 100000 ]
    [ "$sent" = 200000 ]
    [ "$range" = "bytes=100000-" ]
    [ "$if_range" != "-" ]
    [ "$(bytes_sent /train-images-idx3-ubyte.gz)" -eq 300000 ]
}

@test "a .part from an interrupted run resumes only while its validator still matches" {
    start_server '{"/train-images-idx3-ubyte.gz": [{"drop_after": 100000}]}'
    run fetch --retries 0
    [ "$status" -eq 5 ]
    [ "$(stat -c %s "$TARGET/train-images-idx3-ubyte.gz.part")" -eq 100000 ]
    touch -d '2001-01-01' "$SERVED/train-images-idx3-ubyte.gz"
    run fetch
    [ "$status" -eq 0 ]
    assert_all_downloaded
    read -r status start sent _ <<< "$(requests /train-images-idx3-ubyte.gz | tail -n 1)"
    [ "$status" = 200 ] && [ "$start" = 0 ] && [ "$sent" = 300000 ]
}

@test "503 twice then 200 is retried" {
    start_server '{"/t10k-labels-idx1-ubyte.gz": [{"status": 503}, {"status": 503}]}'
    run fetch
    [ "$status" -eq 0 ]
    assert_all_downloaded
    [ "$(requests /t10k-labels-idx1-ubyte.gz | awk '{print $1}' | tr '\n' ' ')" = "503 503 200 " ]
}

@test "429 with Retry-After waits as long as asked" {
    start_server '{"/t10k-labels-idx1-ubyte.gz": [{"status": 429, "retry_after": "1"}]}'
    run fetch
    [ "$status" -eq 0 ]
    assert_all_downloaded
    mapfile -t times < <(requests /t10k-labels-idx1-ubyte.gz | awk '{print $6}')
    [ "${#times[@]}" -eq 2 ]
    awk -v first="${times[0]}" -v second="${times[1]}" 'BEGIN {exit !(second - first >= 1)}'
}

@test "a transfer stalled longer than --timeout is abandoned and resumed" {
    start_server '{"/train-images-idx3-ubyte.gz": [{"stall_after": 50000, "seconds": 4}]}'
    SECONDS=0
    run fetch --timeout 1
    [ "$status" -eq 0 ]
    [ "$SECONDS" -lt 4 ]
    assert_all_downloaded
    read -r status start sent _ <<< "$(requests /train-images-idx3-ubyte.gz | tail -n 1)"
    [ "$status" = 206 ] && [ "$start" = 50000 ] && [ "$sent" = 250000 ]
}

@test "a 404 on the first URL falls back to the next one" {
    start_server
    printf 'mirrors:\n  - %s/nowhere/\n' "$URL" > "$FUEL_CONFIG"
    run fetch
    [ "$status" -eq 0 ]
    assert_all_downloaded
    [ "$(requests /nowhere/train-labels-idx1-ubyte.gz | awk '{print $1}')" = 404 ]
    [ "$(requests /train-labels-idx1-ubyte.gz | awk '{print $1}')" = 200 ]
}

@test "404 everywhere exits 5 naming the file and each URL's error, leaving nothing" {
    start_server
    printf 'mirrors:\n  - %s/nowhere/\n' "$URL" > "$FUEL_CONFIG"
    rm "$SERVED/t10k-images-idx3-ubyte.gz"
    run fetch
    [ "$status" -eq 5 ]
    [[ "$output" == *"fuel-download: cannot download: t10k-images-idx3-ubyte.gz: $URL/nowhere/t10k-images-idx3-ubyte.gz: HTTP 404; $URL/t10k-images-idx3-ubyte.gz: HTTP 404"* ]]
    [ ! -e "$TARGET/t10k-images-idx3-ubyte.gz" ]
    [ ! -e "$TARGET/t10k-images-idx3-ubyte.gz.part" ]
    cmp "$SERVED/train-images-idx3-ubyte.gz" "$TARGET/train-images-idx3-ubyte.gz"
}

@test "a failed download leaves no empty .part, and no directory it made when nothing is left" {
    # 404, then 500 past the retries, each while another file is stalled before its first byte.
    start_server '{"/t10k-labels-idx1-ubyte.gz": [{"status": 404}, {"status": 500}, {"status": 500}],
                   "/train-images-idx3-ubyte.gz": [{"stall_after": 0, "seconds": 1}, {"stall_after": 0, "seconds": 1}]}'
    for attempt in 404 500; do
        run fetch --retries 1
        [ "$status" -eq 5 ]
        [[ "$output" == *"t10k-labels-idx1-ubyte.gz: $URL/t10k-labels-idx1-ubyte.gz: HTTP $attempt" ]]
        [ -z "$(find "$TARGET" -name '*.part' -size 0)" ]
        rm -rf "$TARGET"
    done
    # A refused connection and a stall past --timeout: nothing received, no directory left.
    run fuel-download mnist -d "$TARGET/sub" --url-prefix http://127.0.0.1:1/ --retries 1 --retry-delay 0.05
    [ "$status" -eq 5 ]
    [ ! -e "$TARGET" ]
    stop_server
    local stall='[{"stall_after": 0, "seconds": 3}]'
    start_server "{\"/train-images-idx3-ubyte.gz\": $stall, \"/train-labels-idx1-ubyte.gz\": $stall,
                   \"/t10k-images-idx3-ubyte.gz\": $stall, \"/t10k-labels-idx1-ubyte.gz\": $stall}"
    run fetch --retries 0 --timeout 1
    [ "$status" -eq 5 ]
    [[ "$output" == *"no data for 1 s" ]]
    [ ! -e "$TARGET" ]
}

@test "wrong bytes exit 6 with both checksums and nothing under the final name" {
    start_server '{"/train-labels-idx1-ubyte.gz": [{"body": "not the labels"}]}'
    expected=$(awk '/train-labels/ {print $1}' "$SUMS")
    actual=$(printf 'not the labels' | md5sum | cut -d' ' -f1)
    run fetch
    [ "$status" -eq 6 ]
    [[ "$output" == *"fuel-download: checksum mismatch: train-labels-idx1-ubyte.gz: expected md5 $expected, got $actual"* ]]
    [ ! -e "$TARGET/train-labels-idx1-ubyte.gz" ]
    [ ! -e "$TARGET/train-labels-idx1-ubyte.gz.part" ]
}

@test "a size that differs from the published one exits 6" {
    start_server
    run fuel-download mnist -d "$TARGET" --url-prefix "$URL" --retry-delay 0.05 -j 1
    [ "$status" -eq 6 ]
    [[ "$output" == *"size mismatch: train-images-idx3-ubyte.gz: expected 9912422 bytes, got 300000"* ]]
    [ ! -e "$TARGET/train-images-idx3-ubyte.gz" ]
    [ ! -e "$TARGET/train-images-idx3-ubyte.gz.part" ]
}

@test "an error body is never saved as data" {
    start_server '{"/train-images-idx3-ubyte.gz": [{"status": 500}, {"status": 500}]}'
    run fetch --retries 1
    [ "$status" -eq 5 ]
    [[ "$output" == *"train-images-idx3-ubyte.gz: $URL/train-images-idx3-ubyte.gz: HTTP 500"* ]]
    [ ! -e "$TARGET/train-images-idx3-ubyte.gz.part" ]
    [ ! -e "$TARGET/train-images-idx3-ubyte.gz" ]
}

@test "a redirect is followed" {
    mkdir "$SERVED/elsewhere"
    cp "$SERVED/t10k-labels-idx1-ubyte.gz" "$SERVED/elsewhere/"
    start_server '{"/t10k-labels-idx1-ubyte.gz": [{"redirect": "/elsewhere/t10k-labels-idx1-ubyte.gz"}]}'
    run fetch
    [ "$status" -eq 0 ]
    assert_all_downloaded
    [ "$(requests /elsewhere/t10k-labels-idx1-ubyte.gz | awk '{print $1}')" = 200 ]
}

@test "a file:// mirror works offline" {
    run fuel-download mnist -d "$TARGET" --url-prefix "file://$SERVED" --checksums "$SUMS" -q
    [ "$status" -eq 0 ]
    [ -z "$output" ]
    assert_all_downloaded
}

@test "FUEL_MIRROR replaces the built-in URLs" {
    run env FUEL_MIRROR="file://$SERVED/" fuel-download mnist -d "$TARGET" --checksums "$SUMS" -q
    [ "$status" -eq 0 ]
    assert_all_downloaded
}

@test "-j 1 and the default both fetch everything" {
    start_server
    run fetch -j 1
    [ "$status" -eq 0 ]
    assert_all_downloaded
    [ "$(bytes_sent /train-images-idx3-ubyte.gz)" -eq 300000 ]
}

@test "--force downloads files already present and verified" {
    start_server
    run fetch
    [ "$status" -eq 0 ]
    run fetch --force
    [ "$status" -eq 0 ]
    [ "$(requests /t10k-labels-idx1-ubyte.gz | wc -l)" -eq 2 ]
}

@test "finished files are reported one line each off a terminal; -q prints nothing" {
    start_server
    run fetch
    [ "$status" -eq 0 ]
    [[ "$output" == *"train-images-idx3-ubyte.gz: 293.0 KiB in "*" s ("*"/s)"* ]]
    [ "$(grep -c ' in .* s (' <<< "$output")" -eq 4 ]
    rm -r "$TARGET"
    run fetch -q
    [ "$status" -eq 0 ]
    [ -z "$output" ]
}

@test "a redirect to a file:// URL is refused" {
    start_server "{\"/t10k-labels-idx1-ubyte.gz\": [{\"redirect\": \"file://$SERVED/t10k-labels-idx1-ubyte.gz\"}]}"
    run fetch
    [ "$status" -eq 5 ]
    [[ "$output" == *"cannot download: t10k-labels-idx1-ubyte.gz: $URL/t10k-labels-idx1-ubyte.gz: "* ]]
    [ ! -e "$TARGET/t10k-labels-idx1-ubyte.gz" ]
    [ ! -e "$TARGET/t10k-labels-idx1-ubyte.gz.part" ]
}

@test "a refused connection is retried, then reported with exit 5" {
    port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    run fuel-download iris -d "$TARGET" --url-prefix "http://127.0.0.1:$port" --retries 2 --retry-delay 0.01
    [ "$status" -eq 5 ]
    [ "$(grep -c 'iris.data: http://127.0.0.1:'"$port"'/iris.data: .*; retrying in' <<< "$output")" -eq 2 ]
    [[ "$output" == *"fuel-download: cannot download: iris.data: http://127.0.0.1:$port/iris.data: "* ]]
    [ ! -e "$TARGET/iris.data.part" ]
}

@test "the config's mirror key replaces the built-in URLs" {
    printf 'mirror: file://%s\n' "$SERVED" > "$FUEL_CONFIG"
    run fuel-download mnist -d "$TARGET" --checksums "$SUMS" -q
    [ "$status" -eq 0 ]
    assert_all_downloaded
}

@test "the http_proxy variable is honoured" {
    mkdir "$SERVED/uci"
    printf '5.1,3.5,1.4,0.2,Iris-setosa\n' > "$SERVED/uci/iris.data"
    start_server
    run env http_proxy="$URL" no_proxy= NO_PROXY= \
        fuel-download iris -d "$TARGET" --url-prefix http://datasets.invalid/uci -q
    [ "$status" -eq 0 ]
    cmp "$SERVED/uci/iris.data" "$TARGET/iris.data"
    grep -q '"path": "http://datasets.invalid/uci/iris.data"' "$SERVER_LOG"
}

@test "a transfer cut on one mirror resumes from the next one serving the same bytes" {
    mkdir "$SERVED/a" "$SERVED/b"
    cp -p "$SERVED"/*.gz "$SERVED/a/"
    cp -p "$SERVED"/*.gz "$SERVED/b/"
    start_server '{"/a/train-images-idx3-ubyte.gz": [{"drop_after": 120000}]}'
    printf 'mirrors:\n  - %s/a/\n' "$URL" > "$FUEL_CONFIG"
    run fuel-download mnist -d "$TARGET" --url-prefix "$URL/b" --checksums "$SUMS" --retries 0
    [ "$status" -eq 0 ]
    assert_all_downloaded
    read -r status start sent range _ <<< "$(requests /b/train-images-idx3-ubyte.gz)"
    [ "$status" = 206 ] && [ "$start" = 120000 ] && [ "$sent" = 180000 ]
}

@test "a complete .part of unknown size answered with 416 is verified and published" {
    start_server
    run fetch
    [ "$status" -eq 0 ]
    mv "$TARGET/t10k-labels-idx1-ubyte.gz" "$TARGET/t10k-labels-idx1-ubyte.gz.part"
    run fetch --retries 0
    [ "$status" -eq 0 ]
    [[ "$output" == *"t10k-labels-idx1-ubyte.gz: completed from its verified .part"* ]]
    assert_all_downloaded
    [ ! -e "$TARGET/t10k-labels-idx1-ubyte.gz.part" ]
    [ "$(requests /t10k-labels-idx1-ubyte.gz | awk '{print $1}' | tr '\n' ' ')" = "200 416 " ]
}

@test "a .part of the full size with wrong bytes is fetched again even with --retries 0" {
    start_server
    run fetch
    [ "$status" -eq 0 ]
    part=$TARGET/t10k-labels-idx1-ubyte.gz.part
    mv "$TARGET/t10k-labels-idx1-ubyte.gz" "$part"
    printf 'XXXX' | dd of="$part" bs=1 seek=100 conv=notrunc status=none
    run fetch --retries 0
    [ "$status" -eq 0 ]
    assert_all_downloaded
    [ ! -e "$part" ]
    [ "$(requests /t10k-labels-idx1-ubyte.gz | awk '{print $1}' | tr '\n' ' ')" = "200 416 200 " ]
}

@test "a host that does not resolve fails at once, in one line naming it, without retries" {
    printf 'mirrors:\n  - http://first.invalid/\n' > "$FUEL_CONFIG"
    SECONDS=0
    run --separate-stderr timeout 20 fuel-download mnist -d "$TARGET" -j 1 \
        --url-prefix http://nohost.invalid/ --retries 5 --retry-delay 10
    [ "$status" -eq 5 ]
    [ "$SECONDS" -lt 5 ]
    [ -z "$output" ]
    [ "$stderr" = "fuel-download: cannot download: train-images-idx3-ubyte.gz: cannot resolve hosts first.invalid, nohost.invalid; no network? for files on disk give --url-prefix file://DIR/" ]
    [ -z "$(ls -A "$TARGET" | grep -v '^\.fuel-download\.lock$')" ]
}

@test "a proxy that does not resolve fails at once too, named as the proxy" {
    run --separate-stderr env http_proxy=http://proxy.invalid:3128 no_proxy= NO_PROXY= \
        timeout 20 fuel-download iris -d "$TARGET" --url-prefix http://datasets.example/uci
    [ "$status" -eq 5 ]
    [ "$stderr" = "fuel-download: cannot download: iris.data: cannot resolve proxy proxy.invalid; no network? for files on disk give --url-prefix file://DIR/" ]
}

@test "a prefix that is neither a URL nor a directory is a host name: one line suggesting file://" {
    cd "$BATS_TEST_TMPDIR"
    SECONDS=0
    run --separate-stderr timeout 20 fuel-download iris -d "$TARGET" --url-prefix fixture/
    [ "$status" -eq 5 ]
    [ "$SECONDS" -lt 5 ]
    [ "$stderr" = "fuel-download: cannot download: iris.data: cannot resolve host fixture; no network? for files on disk give --url-prefix file://DIR/" ]
}

@test "5xx answers are retried --retries times, one line each, then one error line" {
    start_server '{"/t10k-labels-idx1-ubyte.gz": [{"status": 503}, {"status": 503}, {"status": 503}, {"status": 503}]}'
    run --separate-stderr fetch --retries 3
    [ "$status" -eq 5 ]
    [ "$(grep -c 'retrying' <<< "$stderr")" -eq 3 ]
    [ "$(grep -c "^t10k-labels-idx1-ubyte.gz: $URL/t10k-labels-idx1-ubyte.gz: HTTP 503; retrying in [0-9.]* s$" <<< "$stderr")" -eq 3 ]
    [ "${stderr_lines[-1]}" = "fuel-download: cannot download: t10k-labels-idx1-ubyte.gz: $URL/t10k-labels-idx1-ubyte.gz: HTTP 503" ]
    [ "${#stderr_lines[@]}" -eq 7 ]
    [ "$(requests /t10k-labels-idx1-ubyte.gz | awk '{print $1}' | tr '\n' ' ')" = "503 503 503 503 " ]
    [ ! -e "$TARGET/t10k-labels-idx1-ubyte.gz" ]
}
