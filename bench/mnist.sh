#!/usr/bin/env bash
# fuel-convert on the real Fashion-MNIST files against zcat of the same files: wall time and peak RSS.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh
FUEL=${BUILD:-$PWD/build}/fuel
DATA=/usr/share/datasets/fashion-mnist
RUNS=${RUNS:-7}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

load=$(load_note)
fuel_times=() fuel_cpu=() fuel_peaks=() zcat_times=() zcat_cpu=() zcat_peaks=()
for run in $(seq "$RUNS"); do
    measure zcat zcat "$DATA"/*.gz
    measure fuel "$FUEL" convert fashion_mnist -d "$DATA" -o "$work"
done
zcat_median=$(median "${zcat_times[@]}")
fuel_median=$(median "${fuel_times[@]}")
peak=$(largest "${fuel_peaks[@]}")
echo "mnist: fuel-convert fashion_mnist vs zcat, $RUNS interleaved runs"
echo "$load"
echo "  wall: zcat median ${zcat_median}s, fuel-convert median ${fuel_median}s"
echo "  CPU: zcat median $(median "${zcat_cpu[@]}")s, fuel-convert median $(median "${fuel_cpu[@]}")s"
echo "  fuel-convert peak RSS ${peak} KiB (largest of the runs)"
status=0
check "wall time ratio (fuel / zcat)" "$(echo "$fuel_median / $zcat_median" | bc -l)" "<=" 0.5 || status=1
check "peak RSS (MiB)" "$(echo "$peak / 1024" | bc -l)" "<=" 32 || status=1
exit $status
