#!/usr/bin/env bash
# fuel-convert celeba 64 and celeba aligned_cropped on SIZE photo-like 178 x 218 JPEG faces
# (default 20000, written by fuel fixture celeba --raw): the default threads against --threads 1
# (target >= 1.8x) and against the decode floor, bench/jpeg_floor.c, on as many threads (target:
# at most 1.3x its time), peak RSS (<= 64 MiB), and real Python Fuel's converter when
# FUEL_PYTHON_PATH names its source trees, as for bench/serve.sh (target >= 4x).
# CELEBA_BENCH_DIR may keep the raw files between runs (remade when SIZE changes).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh
source bench/jpeg.bash
BUILD=${BUILD:-$PWD/build}
FUEL=$BUILD/fuel
RUNS=${RUNS:-3}
SIZE=${SIZE:-20000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
raw=${CELEBA_BENCH_DIR:-$work/raw}
raw_fixture "$raw" celeba 64 -n "$SIZE"
floor_build
load_note
echo "  $SIZE faces, img_align_celeba.zip $(du -m "$raw/img_align_celeba.zip" | cut -f1) MB"
status=0
jpeg_compare "celeba 64" "celeba 64" "celeba 64" "$raw/img_align_celeba.zip" || status=1
jpeg_compare "celeba aligned_cropped" "celeba aligned_cropped" "celeba aligned_cropped" \
    "$raw/img_align_celeba.zip" || status=1
exit $status
