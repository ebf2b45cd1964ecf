#!/usr/bin/env bash
# fuel-convert svhn 1 with the default threads (the online CPUs) against --threads 1, on a
# full-size synthetic train.tar.gz (33,402 PNGs, 1 to 6 boxes per image; test and extra small).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh
FUEL=${BUILD:-$PWD/build}/fuel
RUNS=${RUNS:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# SVHN1_BENCH_DIR may hold archives made earlier by bench/make_svhn1.py (they take minutes).
archives=${SVHN1_BENCH_DIR:-$work/raw}
if [ ! -f "$archives/train.tar.gz" ]; then
    mkdir -p "$archives"
    /usr/bin/python3 bench/make_svhn1.py "$archives" 33402 200 200
fi
mkdir -p "$work/out"

one_thread() { "$FUEL" convert svhn 1 -d "$archives" -o "$work/out" --threads 1 -q; }
default_threads() { "$FUEL" convert svhn 1 -d "$archives" -o "$work/out" -q; }

one_times=() default_times=()
for run in $(seq "$RUNS"); do
    one_times+=("$(wall_seconds one_thread)")
    default_times+=("$(wall_seconds default_threads)")
done
one_median=$(median "${one_times[@]}")
default_median=$(median "${default_times[@]}")
peak=$(peak_kib "$FUEL" convert svhn 1 -d "$archives" -o "$work/out" -q)
# With threads, digitStruct.mat is read in a child process: both count.
tree_peak=$(peak_tree_kib "$FUEL" convert svhn 1 -d "$archives" -o "$work/out" -q)
one_peak=$(peak_kib "$FUEL" convert svhn 1 -d "$archives" -o "$work/out" --threads 1 -q)
echo "svhn1: fuel-convert svhn 1, default threads ($(nproc) online CPUs) vs --threads 1," \
    "$(du -m "$archives/train.tar.gz" | cut -f1) MB train.tar.gz, $RUNS interleaved runs," \
    "load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "  --threads 1 times: ${one_times[*]}"
echo "  default times: ${default_times[*]}"
echo "  --threads 1 median ${one_median}s (peak RSS ${one_peak} KiB), default median" \
    "${default_median}s (peak RSS ${peak} KiB, with its child process ${tree_peak} KiB)"
status=0
check "speed-up (threads 1 / default)" "$(echo "$one_median / $default_median" | bc -l)" ">=" 1.8 ||
    status=1
check "peak RSS with the child (MiB)" "$(echo "$tree_peak / 1024" | bc -l)" "<=" 64 || status=1
exit $status
