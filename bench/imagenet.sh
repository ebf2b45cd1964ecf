#!/usr/bin/env bash
# fuel-convert ilsvrc2012 on a synthetic ILSVRC2012 of SIZE photo-like 500x375 JPEGs (about 100 KB
# each; default 20,000 training images in per-class tars of 1,300, and SIZE/40 validation and test
# images), at the default threads, against copying the same archives (`cp` then `sync`, in the
# same run; both read the archives from the disk, their cached pages dropped first) and, when
# FUEL_PYTHON_PATH names its source trees (Fuel's and picklable-itertools',
# colon-separated), Python Fuel's own converter. Prints the projected time for the real
# 1,331,167 images, the peak memory against 64 MiB plus the images in flight, what the shuffled
# placement costs the writes (bench/imagenet_places.c) and how jpeg_check compares with a
# full decode (bench/jpeg_check.c).
#   SIZE=2000 RUNS=1 bash bench/imagenet.sh     a reduced run
# IMAGENET_BENCH_DIR may hold archives made earlier by bench/make_imagenet.py.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh
BUILD=${BUILD:-$PWD/build}
FUEL=$BUILD/fuel
RUNS=${RUNS:-3}
SIZE=${SIZE:-20000}
REAL_IMAGES=1331167
work=$(mktemp -d "${TMPDIR:-/tmp}/fuel-imagenet-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

mkdir -p "$BUILD/bench"
libraries="hdf5 libjpeg libpng zlib libarchive jansson libcrypto yaml-0.1 libcurl libzmq"
! pkg-config --exists libisal || libraries="$libraries libisal"
for program in jpeg_check imagenet_places; do
    [ "$BUILD/bench/$program" -nt "bench/$program.c" ] && [ "$BUILD/bench/$program" -nt "$BUILD/libfuel.a" ] ||
        cc -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -I. $(pkg-config --cflags hdf5) \
            "bench/$program.c" "$BUILD/libfuel.a" -o "$BUILD/bench/$program" \
            $(pkg-config --libs $libraries) -lhdf5_hl -lpthread -lm
done

valid=$((SIZE / 40 > 0 ? SIZE / 40 : 1))
raw=${IMAGENET_BENCH_DIR:-$work/raw}
if [ ! -f "$raw/ILSVRC2012_img_train.tar" ]; then
    mkdir -p "$raw"
    /usr/bin/python3 bench/make_imagenet.py "$raw" "$SIZE" "$valid" "$valid" > "$work/made"
fi
images=$((SIZE + 2 * valid))
archives=("$raw"/ILSVRC2012_devkit_t12.tar.gz "$raw"/ILSVRC2012_img_{train,val,test}.tar)
bytes=$(du -cb "${archives[@]}" | tail -n 1 | cut -f1)
mkdir -p "$work/out" "$work/copy"

# Before every run the archives' pages are dropped from the page cache (POSIX_FADV_DONTNEED on
# these files alone), so that the copy and the conversion both read them from the disk.
evict() {
    /usr/bin/python3 -c 'import os, sys
for path in sys.argv[1:]:
    descriptor = os.open(path, os.O_RDONLY)
    os.posix_fadvise(descriptor, 0, 0, os.POSIX_FADV_DONTNEED)
    os.close(descriptor)' "${archives[@]}"
}
copy=(bash -c 'cp "$@" "$0/" && sync' "$work/copy" "${archives[@]}")
convert=("$FUEL" convert ilsvrc2012 -d "$raw" -o "$work/out" -q)

copy_times=() copy_cpu=() copy_peaks=() fuel_times=() fuel_cpu=() fuel_peaks=()
for run in $(seq "$RUNS"); do
    evict
    measure copy "${copy[@]}"
    rm -f "$work/copy"/*
    evict
    measure fuel "${convert[@]}"
done
copy_median=$(median "${copy_times[@]}")
fuel_median=$(median "${fuel_times[@]}")
fuel_cpu_median=$(median "${fuel_cpu[@]}")
fuel_peak=$(largest "${fuel_peaks[@]}")
"$FUEL" info --check "$work/out/ilsvrc2012.hdf5" > /dev/null

# The images in flight: 4 a thread on the workers, and a batch of at most 16 MiB being written.
threads=$(nproc)
largest_image=$(tar -tvf "$raw/ILSVRC2012_img_val.tar" | awk '{ if ($3 > m) m = $3 } END { print m }')
allowance_mib=$(echo "64 + 16 + 4 * $threads * $largest_image / 1048576" | bc -l)

echo "imagenet: fuel-convert ilsvrc2012, $images images ($SIZE train), $((bytes / 1000000)) MB of" \
    "archives, default threads ($threads online CPUs), $RUNS interleaved runs"
load_note
echo "  cp + sync times: ${copy_times[*]} (CPU ${copy_cpu[*]})"
echo "  fuel times: ${fuel_times[*]} (CPU ${fuel_cpu[*]}), peak RSS $fuel_peak KiB"
per_image=$(echo "$fuel_median * 1000 / $images" | bc -l)
printf '  fuel: %.2f ms an image (%.2f ms CPU); cp + sync: %.2f ms an image\n' "$per_image" \
    "$(echo "$fuel_cpu_median * 1000 / $images" | bc -l)" "$(echo "$copy_median * 1000 / $images" | bc -l)"
projected=$(echo "$fuel_median * $REAL_IMAGES / $images" | bc -l)
printf '  projected for the real %d images: %.0f s (%.2f h); cp + sync %.0f s\n' "$REAL_IMAGES" \
    "$projected" "$(echo "$projected / 3600" | bc -l)" \
    "$(echo "$copy_median * $REAL_IMAGES / $images" | bc -l)"

mkdir -p "$work/jpegs"
tar -xf "$raw/ILSVRC2012_img_val.tar" -C "$work/jpegs"
read -r _ full _ checked _ speedup _ verdicts _ differ < <("$BUILD/bench/jpeg_check" 3 "$work/jpegs"/*.JPEG)
echo "  JPEG check: ${checked} ms an image, full decode ${full} ms (${speedup}x);" \
    "$differ of $verdicts verdicts on damaged copies differ"
places=$((SIZE < 20000 ? SIZE : 20000))
read -r _ in_order _ permuted < <("$BUILD/bench/imagenet_places" "$work" "$places" 100000)
echo "  writes of $places examples of 100 KB, fsync'd: in order ${in_order}s, at the permutation ${permuted}s"

status=0
check "time ratio (fuel / cp + sync)" "$(echo "$fuel_median / $copy_median" | bc -l)" "<=" 1.5 || status=1
check "peak RSS (MiB) vs 64 + in flight" "$(echo "$fuel_peak / 1024" | bc -l)" "<=" "$allowance_mib" ||
    status=1
check "write ratio (permuted / in order)" "$(echo "$permuted / $in_order" | bc -l)" "<=" 1.2 ||
    status=1
if [ -n "${FUEL_PYTHON_PATH:-}" ]; then
    mkdir -p "$work/fuel_out"
    python_times=() python_cpu=() python_peaks=()
    evict
    measure python /usr/bin/python3 bench/imagenet_fuel.py "$raw" "$work/fuel_out"
    python_seconds=${python_times[0]}
    # On a shared machine the CPU seconds (every process and thread) compare the work done.
    printf '  Python Fuel: %.1f s (CPU %.1f s), %.2f ms an image; CPU ratio %.1f\n' \
        "$python_seconds" "${python_cpu[0]}" "$(echo "$python_seconds * 1000 / $images" | bc -l)" \
        "$(echo "${python_cpu[0]} / $fuel_cpu_median" | bc -l)"
    check "speed-up (Python Fuel / fuel)" "$(echo "$python_seconds / $fuel_median" | bc -l)" ">=" 6 ||
        status=1
fi
exit $status
