#!/usr/bin/env bash
# fuel-convert dogs_vs_cats on SIZE photo-like JPEGs of the real sizes (most 500 on their long
# side; default 20000: two thirds in dogs_vs_cats.train.zip, a third in dogs_vs_cats.test1.zip,
# written by fuel fixture dogs_vs_cats --raw): the default threads against --threads 1 (target
# >= 1.8x) and against the decode floor, bench/jpeg_floor.c, on as many threads (target: at most
# 1.3x its time), peak RSS (<= 64 MiB), and real Python Fuel's converter when FUEL_PYTHON_PATH
# names its source trees, as for bench/serve.sh (target >= 4x).
# DOGS_VS_CATS_BENCH_DIR may keep the raw files between runs (remade when SIZE changes).
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
raw=${DOGS_VS_CATS_BENCH_DIR:-$work/raw}
train=$((SIZE * 2 / 3))
raw_fixture "$raw" dogs_vs_cats -n "train=$train,test=$((SIZE - train))"
floor_build
load_note
echo "  $SIZE images, $(du -cm "$raw"/*.zip | tail -n 1 | cut -f1) MB of zips"
jpeg_compare "dogs_vs_cats" "dogs_vs_cats" "dogs_vs_cats" "$raw/dogs_vs_cats.train.zip" \
    "$raw/dogs_vs_cats.test1.zip"
