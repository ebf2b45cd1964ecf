#!/usr/bin/env bash
# fuel stats of a 1 GiB uint8 image file (bench/make_images_hdf5.py; page cache warm) against
# cat FILE > /dev/null and against h5py + numpy computing the same per-channel mean and std
# (bench/stats_numpy.py), medians of interleaved runs; peak RSS of fuel stats.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh
FUEL=${BUILD:-$PWD/build}/fuel
RUNS=${RUNS:-5}
work=$(mktemp -d "${BENCH_DIR:-$PWD}/.bench-stats.XXXXXX")
trap 'rm -rf "$work"' EXIT
input=${IMAGES_HDF5:-$work/images.hdf5}
[ -f "$input" ] || /usr/bin/python3 bench/make_images_hdf5.py "$input" "${EXAMPLES:-87381}"

read_file() { cat "$input" > /dev/null; }
stats() { "$FUEL" stats "$input" --split train --sources features -q; }
numpy_stats() { /usr/bin/python3 bench/stats_numpy.py "$input"; }

read_file
cat_times=() stats_times=() numpy_times=()
for run in $(seq "$RUNS"); do
    cat_times+=("$(wall_seconds read_file)")
    stats_times+=("$(wall_seconds stats)")
    numpy_times+=("$(wall_seconds numpy_stats)")
done
cat_median=$(median "${cat_times[@]}")
stats_median=$(median "${stats_times[@]}")
numpy_median=$(median "${numpy_times[@]}")
echo "stats: $(du -m "$input" | cut -f1) MB of uint8 images, $RUNS interleaved runs, $(nproc) processors, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "  cat times: ${cat_times[*]}"
echo "  fuel stats times: ${stats_times[*]}"
echo "  h5py + numpy times: ${numpy_times[*]}"
echo "  fuel stats peak RSS: $(peak_kib "$FUEL" stats "$input" --split train --sources features -q) KiB"
status=0
check "fuel stats / cat wall time" "$(echo "$stats_median / $cat_median" | bc -l)" "<=" 1.5 || status=1
check "numpy / fuel stats wall time" "$(echo "$numpy_median / $stats_median" | bc -l)" ">=" 4 || status=1
exit $status
