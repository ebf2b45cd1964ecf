#!/usr/bin/env bash
# fuel serve: one shuffled epoch of full-size CIFAR-10 train (50,000 x 3x32x32 uint8) in batches of
# 128 over tcp://127.0.0.1, pulled by a C client, against a C sender pushing the same messages from
# memory with the same socket options (ZeroMQ's floor) and a Python server doing Fuel's work (h5py,
# sorted indices, pyzmq). fuel serve and the floor also run with the kernel's own send buffer
# sizing (`--send-buffer 0`), to show what fuel serve's smaller default buys.
# The Python server is real Fuel (bench/serve_fuel.py) when FUEL_PYTHON_PATH names its source
# trees (Fuel's and picklable-itertools', colon-separated: Debian does not package Fuel);
# bench/serve_python.py, a leaner loop of the same h5py reads and messages, runs either way.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh
BUILD=${BUILD:-$PWD/build}
FUEL=$BUILD/fuel
RUNS=${RUNS:-5}
BATCH=128
work=$(mktemp -d)
servers=()
trap 'for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$work"' EXIT

mkdir -p "$BUILD/bench"
for program in serve_client serve_baseline; do
    [ "$BUILD/bench/$program" -nt "bench/$program.c" ] ||
        cc -O2 -Wall -Wextra -Werror "bench/$program.c" -o "$BUILD/bench/$program" -lzmq
done
# CIFAR10_BENCH_DIR may hold an archive made earlier by bench/make_cifar.py (it takes a minute).
archive_directory=${CIFAR10_BENCH_DIR:-$work/raw}
if [ ! -f "$archive_directory/cifar-10-python.tar.gz" ]; then
    mkdir -p "$archive_directory"
    /usr/bin/python3 bench/make_cifar.py cifar10 "$archive_directory" > /dev/null
fi
"$FUEL" convert cifar10 -d "$archive_directory" -o "$work" > /dev/null 2>&1
input=$work/cifar10.hdf5

free_endpoint() {
    echo "tcp://127.0.0.1:$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
}

# run_server NAME COMMAND...: starts the server (peak RSS in KiB and CPU seconds into
# $work/NAME.usage), waits until it
# says it is ready on stderr, pulls one epoch with the C client and prints the client's line:
# seconds batches examples bytes batches/s MB/s.
run_server() {
    local name=$1 endpoint
    shift
    endpoint=$(free_endpoint)
    # Each server starts with the file in the page cache (other jobs on the machine drop it).
    cat "$input" > /dev/null
    /usr/bin/time -f '%M %U %S' -o "$work/$name.usage" "$@" "$endpoint" 2> "$work/$name.err" &
    servers=("$!")
    for _ in $(seq 200); do
        grep -qE 'ready|serving' "$work/$name.err" 2> /dev/null && break
        sleep 0.05
    done
    "$BUILD/bench/serve_client" "$endpoint"
    wait "${servers[0]}"
    servers=()
}

# The servers' commands, the endpoint to be appended.
send_buffer=$("$FUEL" serve -h | sed -n 's/.*send buffer (default \([0-9]*\).*/\1/p')
[ -n "$send_buffer" ] || { echo "cannot find fuel serve's default --send-buffer" >&2; exit 1; }
fuel_server=("$FUEL" serve --shuffle --batch-size "$BATCH" --epochs 1 "$input" --bind)
fuel_kernel_server=("$FUEL" serve --send-buffer 0 --shuffle --batch-size "$BATCH" --epochs 1 "$input" --bind)
baseline_server=("$BUILD/bench/serve_baseline" 50000 "$BATCH" "$send_buffer")
baseline_kernel_server=("$BUILD/bench/serve_baseline" 50000 "$BATCH" 0)
stand_in_server=(/usr/bin/python3 bench/serve_python.py "$input" "$BATCH")
real_fuel_server=(/usr/bin/python3 bench/serve_fuel.py "$input" "$BATCH")
names=(baseline fuel baseline_kernel fuel_kernel stand_in)
[ -z "${FUEL_PYTHON_PATH:-}" ] || names+=(real_fuel)

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
declare -A rates megabytes peaks processor
for run in $(seq "$RUNS"); do
    for name in "${names[@]}"; do
        declare -n server="${name}_server"
        run_server "$name" "${server[@]}" > "$work/$name.line"
        read -r seconds batches examples bytes rate speed < "$work/$name.line"
        [ "$examples" -eq 50000 ] || { echo "$name served $examples examples" >&2; exit 1; }
        [ "$batches" -eq 391 ] || { echo "$name served $batches batches" >&2; exit 1; }
        read -r peak user system < "$work/$name.usage"
        rates[$name]+="$rate " megabytes[$name]+="$speed " peaks[$name]+="$peak "
        processor[$name]+="$(echo "$user + $system" | bc -l) "
    done
done
echo "serve: one shuffled epoch of CIFAR-10 train, batches of $BATCH over tcp://127.0.0.1, $RUNS interleaved runs"
echo "  load average before: $load_before, after: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores, shared)"
for name in "${names[@]}"; do
    # shellcheck disable=SC2086
    printf '  %-15s batches/s: %s(median %s), MB/s median %s, peak RSS median %s KiB, server CPU median %ss\n' \
        "$name" "${rates[$name]}" "$(median ${rates[$name]})" "$(median ${megabytes[$name]})" \
        "$(median ${peaks[$name]})" "$(median ${processor[$name]})"
done
# shellcheck disable=SC2086
fuel_rate=$(median ${rates[fuel]}) baseline_rate=$(median ${rates[baseline]}) stand_in_rate=$(median ${rates[stand_in]})
# shellcheck disable=SC2086
fuel_kernel_rate=$(median ${rates[fuel_kernel]}) baseline_kernel_rate=$(median ${rates[baseline_kernel]})
# shellcheck disable=SC2086
fuel_peak=$(median ${peaks[fuel]})
status=0
check "throughput ratio (fuel / C from memory)" "$(echo "$fuel_rate / $baseline_rate" | bc -l)" ">=" 0.5 || status=1
printf '  %-40s %10.3f (--send-buffer %s against 0: fuel %.3f, C from memory %.3f)\n' \
    "throughput ratio (fuel / C), both at 0" "$(echo "$fuel_kernel_rate / $baseline_kernel_rate" | bc -l)" \
    "$send_buffer" "$(echo "$fuel_rate / $fuel_kernel_rate" | bc -l)" \
    "$(echo "$baseline_rate / $baseline_kernel_rate" | bc -l)"
if [ -n "${FUEL_PYTHON_PATH:-}" ]; then
    # shellcheck disable=SC2086
    real_fuel_rate=$(median ${rates[real_fuel]})
    check "throughput ratio (fuel / Python Fuel)" "$(echo "$fuel_rate / $real_fuel_rate" | bc -l)" ">=" 10 || status=1
    printf '  %-40s %10.3f (Fuel / serve_python.py: %.3f)\n' "throughput ratio (fuel / serve_python.py)" \
        "$(echo "$fuel_rate / $stand_in_rate" | bc -l)" "$(echo "$real_fuel_rate / $stand_in_rate" | bc -l)"
else
    echo "  (FUEL_PYTHON_PATH unset: real Fuel not run; the ratio is against bench/serve_python.py)"
    check "throughput ratio (fuel / serve_python.py)" "$(echo "$fuel_rate / $stand_in_rate" | bc -l)" ">=" 10 || status=1
fi
check "peak RSS (MiB)" "$(echo "$fuel_peak / 1024" | bc -l)" "<=" 64 || status=1
exit $status
