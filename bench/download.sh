#!/usr/bin/env bash
# fuel-download against curl and against itself, from nginx on 127.0.0.1 (a private instance):
# one 256 MiB file, fuel's throughput vs `curl -o`; four rate-limited files, -j 4 vs -j 1.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh
FUEL=${BUILD:-$PWD/build}/fuel
RUNS=${RUNS:-5}
RATE_RUNS=${RATE_RUNS:-3}
BIG_MIB=${BIG_MIB:-256}
RATE_MIB=${RATE_MIB:-4}        # nginx limit_rate per connection, MiB/s
SMALL_MIB=${SMALL_MIB:-16}      # each of the four rate-limited files
work=$(mktemp -d)
nginx_pid=""
cleanup() {
    [ -n "$nginx_pid" ] && kill "$nginx_pid" 2>/dev/null && wait "$nginx_pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
chmod 755 "$work"
mkdir -p "$work/www/big" "$work/www/slow" "$work/temp"

head -c "${BIG_MIB}M" /dev/urandom > "$work/www/big/iris.data"
(cd "$work/www/big" && sha256sum iris.data) > "$work/big.sha256"
(cd "$work/www/big" && md5sum iris.data) > "$work/big.md5"
for name in train-images-idx3-ubyte.gz train-labels-idx1-ubyte.gz t10k-images-idx3-ubyte.gz \
            t10k-labels-idx1-ubyte.gz; do
    head -c "${SMALL_MIB}M" /dev/urandom > "$work/www/slow/$name"
done
(cd "$work/www/slow" && md5sum ./*.gz) > "$work/slow.md5"
chmod -R a+rX "$work/www"

port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat > "$work/nginx.conf" <<CONF
daemon off;
worker_processes 1;
pid $work/nginx.pid;
error_log $work/error.log;
events { worker_connections 64; }
http {
    access_log off;
    sendfile on;
    client_body_temp_path $work/temp;
    proxy_temp_path $work/temp;
    fastcgi_temp_path $work/temp;
    uwsgi_temp_path $work/temp;
    scgi_temp_path $work/temp;
    server {
        listen 127.0.0.1:$port;
        root $work/www;
        location /slow/ { limit_rate ${RATE_MIB}m; }
    }
}
CONF
/usr/sbin/nginx -p "$work" -c "$work/nginx.conf" &
nginx_pid=$!
for _ in $(seq 50); do
    curl -fso /dev/null "http://127.0.0.1:$port/slow/t10k-labels-idx1-ubyte.gz" --max-time 1 -r 0-0 && break
    sleep 0.1
done

# Untimed before each timed run: the previous run's output is removed and every dirty page
# flushed, so a command is not charged for the write-back of the file the one before it left.
settle() {
    rm -rf "$work/out"
    sync
    sleep 0.5
}
timed() {
    settle
    wall_seconds "$@"
}
curl_big() {
    mkdir "$work/out"
    curl -fsS -o "$work/out/iris.data" "http://127.0.0.1:$port/big/iris.data"
}
hash_alone() { openssl dgst -sha256 "$work/www/big/iris.data"; }
curl_big_checked() { curl_big && (cd "$work/out" && sha256sum --quiet -c "$work/big.sha256"); }
curl_big_openssl() { curl_big && openssl dgst -sha256 "$work/out/iris.data"; }
fuel_big() {
    "$FUEL" download iris -q -d "$work/out" --url-prefix "http://127.0.0.1:$port/big" \
        --checksums "$work/big.$1"
}
fuel_big_sha256() { fuel_big sha256; }
fuel_big_md5() { fuel_big md5; }
fuel_slow() {
    "$FUEL" download mnist -q -j "$1" -d "$work/out" --url-prefix "http://127.0.0.1:$port/slow" \
        --checksums "$work/slow.md5"
}
fuel_slow_1() { fuel_slow 1; }
fuel_slow_4() { fuel_slow 4; }

curl_times=() checked_times=() openssl_times=() fuel_times=() md5_times=() hash_times=()
for run in $(seq "$RUNS"); do
    curl_times+=("$(timed curl_big)")
    checked_times+=("$(timed curl_big_checked)")
    openssl_times+=("$(timed curl_big_openssl)")
    fuel_times+=("$(timed fuel_big_sha256)")
    md5_times+=("$(timed fuel_big_md5)")
    hash_times+=("$(timed hash_alone)")
done
one_times=() four_times=()
for run in $(seq "$RATE_RUNS"); do
    one_times+=("$(timed fuel_slow_1)")
    four_times+=("$(timed fuel_slow_4)")
done
curl_median=$(median "${curl_times[@]}")
fuel_median=$(median "${fuel_times[@]}")
md5_median=$(median "${md5_times[@]}")
checked_median=$(median "${checked_times[@]}")
openssl_median=$(median "${openssl_times[@]}")
hash_median=$(median "${hash_times[@]}")
one_median=$(median "${one_times[@]}")
four_median=$(median "${four_times[@]}")
echo "download: nginx on 127.0.0.1; ${BIG_MIB} MiB file, $RUNS interleaved runs; 4 x ${SMALL_MIB} MiB at ${RATE_MIB} MiB/s per connection, $RATE_RUNS runs"
rate() { echo "$BIG_MIB / $1" | bc -l | xargs printf '%.0f MiB/s'; }
echo "  curl -o median ${curl_median}s ($(rate "$curl_median")); curl -o then sha256sum -c median ${checked_median}s"
echo "  curl -o then openssl dgst -sha256 (the same digest code as fuel's) median ${openssl_median}s"
echo "  sha256 of the file alone, from the page cache (openssl dgst): median ${hash_median}s"
echo "  a verifying download ends after its last byte is hashed: fuel-download's whole run takes" \
     "$(echo "$fuel_median / $hash_median" | bc -l | xargs printf '%.3f')x the time of hashing the file alone"
echo "  fuel-download, sha256 verified: median ${fuel_median}s ($(rate "$fuel_median"))"
echo "  fuel-download, md5 verified: median ${md5_median}s ($(rate "$md5_median")); ratio to curl" \
     "$(echo "$curl_median / $md5_median" | bc -l | xargs printf '%.3f') (bound by MD5, slower than SHA-256 on CPUs with SHA extensions)"
echo "  fuel-download -j 1 median ${one_median}s, -j 4 median ${four_median}s"
status=0
check "throughput ratio (fuel / curl)" "$(echo "$curl_median / $fuel_median" | bc -l)" ">=" 0.95 || status=1
check "speed-up of -j 4 over -j 1" "$(echo "$one_median / $four_median" | bc -l)" ">=" 3.5 || status=1
exit $status
