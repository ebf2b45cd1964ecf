#!/usr/bin/env bash
# fuel pack: a SIZE-byte .npy (1 GiB by default) against `cat INPUT > copy && sync copy`, and a
# folder of IMAGES JPEGs (20,000 by default, in 10 class folders) on --threads THREADS against
# --threads 1; the peak RSS of both. Targets: npy <= 1.5x the copy, images >= 1.7x faster on
# THREADS workers (default: the processors), peak RSS <= 64 MiB whatever SIZE and IMAGES.
# SIZE=268435456 IMAGES=2000 bash bench/pack.sh runs it smaller.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh
FUEL=${BUILD:-$PWD/build}/fuel
RUNS=${RUNS:-3}
SIZE=${SIZE:-1073741824}
IMAGES=${IMAGES:-20000}
SIDE=${SIDE:-256}
THREADS=${THREADS:-$(nproc)}
work=$(mktemp -d "${BENCH_DIR:-$PWD}/.bench-pack.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The inputs: a float32 .npy and a folder of photo-like JPEGs in 10 classes, with their specs.
/usr/bin/python3 bench/make_pack.py "$work" "$SIZE" "$IMAGES" "$SIDE"

copy() { cat "$work/big.npy" > "$work/copy" && sync "$work/copy"; rm -f "$work/copy"; }
pack_npy() { "$FUEL" pack "$work/big.yaml" -o "$work/out" -q; rm -rf "$work/out"; }

load_note
# With autogroup scheduling each terminal session gets an equal share of the processors, so on a
# machine busy with other sessions more threads cannot buy more processor time.
echo "  scheduler autogroup: $(cat /proc/sys/kernel/sched_autogroup_enabled 2>/dev/null || echo unknown), cpu pressure: $(head -1 /proc/pressure/cpu 2>/dev/null || echo unknown)"
copy_times=() npy_times=() one_times=() many_times=() one_cpu=() many_cpu=()
cat "$work/big.npy" > /dev/null
for run in $(seq "$RUNS"); do
    copy_times+=("$(wall_seconds copy)")
    npy_times+=("$(wall_seconds pack_npy)")
    measure one "$FUEL" pack "$work/images.yaml" -o "$work/out" -q --threads 1
    rm -rf "$work/out"
    measure many "$FUEL" pack "$work/images.yaml" -o "$work/out" -q --threads "$THREADS"
    rm -rf "$work/out"
done
echo "pack: a $((SIZE >> 20)) MiB .npy and $IMAGES ${SIDE}x$SIDE JPEGs, $RUNS interleaved runs, $THREADS threads"
echo "  cat + sync times: ${copy_times[*]}"
echo "  pack .npy times: ${npy_times[*]}"
echo "  pack images --threads 1 times: ${one_times[*]} (processor seconds: ${one_cpu[*]})"
echo "  pack images --threads $THREADS times: ${many_times[*]} (processor seconds: ${many_cpu[*]})"
status=0
check "pack .npy / cat + sync" \
    "$(echo "$(median "${npy_times[@]}") / $(median "${copy_times[@]}")" | bc -l)" "<=" 1.5 || status=1
check "images --threads 1 / --threads $THREADS" \
    "$(echo "$(median "${one_times[@]}") / $(median "${many_times[@]}")" | bc -l)" ">=" 1.7 || status=1
peak=$(peak_kib "$FUEL" pack "$work/big.yaml" -o "$work/out" -q)
rm -rf "$work/out"
check ".npy peak RSS (MiB)" "$(echo "$peak / 1024" | bc -l)" "<=" 64 || status=1
peak=$(peak_kib "$FUEL" pack "$work/images.yaml" -o "$work/out" -q --threads "$THREADS")
rm -rf "$work/out"
check "images peak RSS (MiB)" "$(echo "$peak / 1024" | bc -l)" "<=" 64 || status=1
exit $status
