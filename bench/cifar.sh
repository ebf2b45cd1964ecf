#!/usr/bin/env bash
# fuel-convert cifar10 and cifar100 on full-size synthetic archives (50,000 + 10,000 images each,
# compressing as the real ones) against tar -xzOf of the same archive: wall time and peak RSS.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh
FUEL=${BUILD:-$PWD/build}/fuel
RUNS=${RUNS:-5}
# The archives are made once by bench/make_cifar.py (a minute each) and reused by later runs.
DATA=${CIFAR_BENCH_DATA:-/tmp/fuel-bench-cifar}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

status=0
for dataset in cifar10 cifar100; do
    mkdir -p "$DATA/$dataset"
    archive=$DATA/$dataset/$([ "$dataset" = cifar10 ] && echo cifar-10-python.tar.gz ||
                                                         echo cifar-100-python.tar.gz)
    if [ ! -f "$archive" ]; then
        echo "making $archive"
        /usr/bin/python3 bench/make_cifar.py "$dataset" "$work" > /dev/null
        mv "$work/${archive##*/}" "$archive"
    fi
    load=$(load_note)
    fuel_times=() fuel_cpu=() fuel_peaks=() tar_times=() tar_cpu=() tar_peaks=()
    for run in $(seq "$RUNS"); do
        measure tar tar -xzOf "$archive"
        measure fuel "$FUEL" convert "$dataset" -d "$DATA/$dataset" -o "$work"
        rm -f "$work/$dataset.hdf5"
    done
    tar_median=$(median "${tar_times[@]}")
    fuel_median=$(median "${fuel_times[@]}")
    peak=$(largest "${fuel_peaks[@]}")
    echo "$dataset: fuel-convert $dataset vs tar -xzOf, $(du -m "$archive" | cut -f1) MB archive," \
         "$RUNS interleaved runs"
    echo "$load"
    echo "  wall: tar median ${tar_median}s, fuel-convert median ${fuel_median}s"
    echo "  CPU: tar median $(median "${tar_cpu[@]}")s, fuel-convert median" \
         "$(median "${fuel_cpu[@]}")s"
    echo "  fuel-convert peak RSS ${peak} KiB (largest of the runs)"
    check "$dataset wall time ratio (fuel / tar)" "$(echo "$fuel_median / $tar_median" | bc -l)" \
        "<=" 0.6 || status=1
    check "$dataset peak RSS (MiB)" "$(echo "$peak / 1024" | bc -l)" "<=" 64 || status=1
done
exit $status
