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

baseline() { zcat "$DATA"/*.gz > /dev/null; }
convert() { "$FUEL" convert fashion_mnist -d "$DATA" -o "$work"; }

fuel_times=() zcat_times=()
for run in $(seq "$RUNS"); do
    zcat_times+=("$(wall_seconds baseline)")
    fuel_times+=("$(wall_seconds convert)")
done
zcat_median=$(median "${zcat_times[@]}")
fuel_median=$(median "${fuel_times[@]}")
peak=$(peak_kib "$FUEL" convert fashion_mnist -d "$DATA" -o "$work")
echo "mnist: fuel-convert fashion_mnist vs zcat, $RUNS interleaved runs"
echo "  zcat median ${zcat_median}s, fuel-convert median ${fuel_median}s, peak RSS ${peak} KiB"
status=0
check "wall time ratio (fuel / zcat)" "$(echo "$fuel_median / $zcat_median" | bc -l)" "<=" 0.55 || status=1
check "peak RSS (MiB)" "$(echo "$peak / 1024" | bc -l)" "<=" 32 || status=1
exit $status
