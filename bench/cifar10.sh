#!/usr/bin/env bash
# fuel-convert cifar10 on a full-size archive (50,000 + 10,000 images) against tar -xzOf of it.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh
FUEL=${BUILD:-$PWD/build}/fuel
RUNS=${RUNS:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# CIFAR10_BENCH_DIR may hold an archive made earlier by bench/make_cifar10.py (it takes a minute).
archive_directory=${CIFAR10_BENCH_DIR:-$work/raw}
archive=$archive_directory/cifar-10-python.tar.gz
if [ ! -f "$archive" ]; then
    mkdir -p "$archive_directory"
    /usr/bin/python3 bench/make_cifar10.py "$archive_directory" > /dev/null
fi
mkdir -p "$work/out"

baseline() { tar -xzOf "$archive" > /dev/null; }
convert() { "$FUEL" convert cifar10 -d "$archive_directory" -o "$work/out"; }

fuel_times=() tar_times=()
for run in $(seq "$RUNS"); do
    tar_times+=("$(wall_seconds baseline)")
    fuel_times+=("$(wall_seconds convert)")
done
tar_median=$(median "${tar_times[@]}")
fuel_median=$(median "${fuel_times[@]}")
tar_peak=$(peak_kib tar -xzOf "$archive")
peak=$(peak_kib "$FUEL" convert cifar10 -d "$archive_directory" -o "$work/out")
echo "cifar10: fuel-convert cifar10 vs tar -xzOf, $(du -m "$archive" | cut -f1) MB archive, $RUNS interleaved runs"
echo "  tar times: ${tar_times[*]}"
echo "  fuel times: ${fuel_times[*]}"
echo "  tar median ${tar_median}s (peak RSS ${tar_peak} KiB), fuel-convert median ${fuel_median}s, peak RSS ${peak} KiB"
status=0
check "wall time ratio (fuel / tar)" "$(echo "$fuel_median / $tar_median" | bc -l)" "<=" 1.3 || status=1
check "peak RSS (MiB)" "$(echo "$peak / 1024" | bc -l)" "<=" 64 || status=1
exit $status
