#!/usr/bin/env bash
# fuel-convert svhn 2 on a full-size synthetic extra_32x32.mat against a C program that only inflates it
# (target <= 0.6x), and, when FUEL_PYTHON_PATH names Python Fuel's source trees (as for
# bench/celeba.sh), on fuel fixture's 60,000 + 20,000 + 30,000 natural images against Python Fuel's
# converter of the same files (target >= 4x).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh
BUILD=${BUILD:-$PWD/build}
FUEL=$BUILD/fuel
DATA=${SVHN2_BENCH_DATA:-/tmp/fuel-bench-svhn2}
RUNS=${RUNS:-5}
IMAGES=531131

# The synthetic inputs are made once (about 1.45 GB, a few minutes) and reused by later runs.
mkdir -p "$DATA"
if [ ! -f "$DATA/extra_32x32.mat" ]; then
    echo "making $DATA/extra_32x32.mat ($IMAGES images, zlib-compressed)"
    /usr/bin/python3 tests/helpers/mat_v5.py synthetic "$DATA/extra_32x32.mat.part" "$IMAGES"
    mv "$DATA/extra_32x32.mat.part" "$DATA/extra_32x32.mat"
fi
for split in train test; do
    [ -f "$DATA/${split}_32x32.mat" ] ||
        cp "${FUEL_FIXTURES:-$PWD/tests/data}/raw/svhn2/${split}_32x32.mat" "$DATA/"
done
BASELINE=$BUILD/bench/inflate_elements
mkdir -p "$BUILD/bench"
[ "$BASELINE" -nt bench/inflate_elements.c ] ||
    cc -O2 -Wall -Wextra -Werror bench/inflate_elements.c -o "$BASELINE" -lz

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

load=$(load_note)
baseline_times=() baseline_peaks=() baseline_cpu=() fuel_times=() fuel_peaks=() fuel_cpu=()
for run in $(seq "$RUNS"); do
    measure baseline "$BASELINE" "$DATA/extra_32x32.mat"
    measure fuel "$FUEL" convert svhn 2 -d "$DATA" -o "$work"
    rm -f "$work/svhn_format_2.hdf5"
done
baseline_median=$(median "${baseline_times[@]}")
fuel_median=$(median "${fuel_times[@]}")
peak=$(largest "${fuel_peaks[@]}")
echo "svhn2: fuel-convert svhn 2 ($IMAGES extra images) vs inflating extra_32x32.mat, $RUNS interleaved runs"
echo "$load"
echo "  wall: baseline median ${baseline_median}s, fuel-convert median ${fuel_median}s"
echo "  CPU: baseline median $(median "${baseline_cpu[@]}")s, fuel-convert median" \
     "$(median "${fuel_cpu[@]}")s (including the provenance thread hashing the inputs)"
echo "  fuel-convert peak RSS ${peak} KiB (largest of the runs)"
status=0
check "wall time ratio (fuel / inflate)" "$(echo "$fuel_median / $baseline_median" | bc -l)" "<=" 0.6 ||
    status=1
check "peak RSS (MiB)" "$(echo "$peak / 1024" | bc -l)" "<=" 64 || status=1
[ -n "${FUEL_PYTHON_PATH:-}" ] || exit $status

# Against Python Fuel, which loads each file whole with scipy: inputs of the issue's sizes.
natural=$DATA/natural
if [ ! -f "$natural/.made" ]; then
    rm -rf "$natural" && mkdir -p "$natural"
    "$FUEL" fixture svhn 2 -n train=60000,test=20000,extra=30000 --raw -o "$natural" --seed 1 \
        > /dev/null
    touch "$natural/.made"
fi
python_times=() python_peaks=() python_cpu=() fuel_times=() fuel_peaks=() fuel_cpu=()
for run in $(seq "$RUNS"); do
    mkdir -p "$work/python"
    measure python /usr/bin/python3 bench/convert_fuel.py svhn2 "$natural" "$work/python"
    rm -rf "$work/python"
    measure fuel "$FUEL" convert svhn 2 -d "$natural" -o "$work"
    rm -f "$work/svhn_format_2.hdf5"
done
python_median=$(median "${python_times[@]}")
fuel_median=$(median "${fuel_times[@]}")
echo "svhn2: fuel-convert svhn 2 (60,000 + 20,000 + 30,000 natural images) vs Python Fuel," \
    "$RUNS interleaved runs"
echo "  wall: Python Fuel median ${python_median}s, fuel-convert median ${fuel_median}s"
echo "  CPU: Python Fuel median $(median "${python_cpu[@]}")s, fuel-convert median" \
    "$(median "${fuel_cpu[@]}")s; fuel-convert peak RSS $(largest "${fuel_peaks[@]}") KiB"
check "speedup (Python Fuel / fuel)" "$(echo "$python_median / $fuel_median" | bc -l)" ">=" 4 ||
    status=1
exit $status
