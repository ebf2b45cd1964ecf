#!/usr/bin/env bash
# fuel duplicates: exact duplicates of a 1 GiB uint8 image file (bench/make_images_hdf5.py, page
# cache warm) against sha256sum FILE, and --near of the 20,000-JPEG ImageNet-like file
# (bench/make_imagenet.py converted by fuel convert ilsvrc2012) against the JPEG decode floor,
# bench/jpeg_floor.c, on the same threads (--threads 1 against the floor's 0, decoding in the
# reading thread, and --threads of the online CPUs against the floor on as many) over a stored zip
# of the same JPEGs; medians of interleaved runs, ratios (the speed-up of --threads too), peak RSS.
# Then --near at ImageNet's scale, once: ILSVRC2012's 1,431,167 images (16 x 16 gray noise,
# bench/make_noise_hdf5.py; NOISE_EXAMPLES=0 skips it), spilled, its peak RSS and its time.
#   RUNS=3 SIZE=20000 bash bench/duplicates.sh
# IMAGES_HDF5 and IMAGENET_HDF5 may name files made earlier.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh
source bench/jpeg.bash
BUILD=${BUILD:-$PWD/build}
FUEL=$BUILD/fuel
RUNS=${RUNS:-3}
SIZE=${SIZE:-20000}
work=$(mktemp -d "${BENCH_DIR:-$PWD}/.bench-duplicates.XXXXXX")
trap 'rm -rf "$work"' EXIT
floor_build

images=${IMAGES_HDF5:-$work/images.hdf5}
[ -f "$images" ] || /usr/bin/python3 bench/make_images_hdf5.py "$images" "${EXAMPLES:-87381}"
imagenet=${IMAGENET_HDF5:-$work/ilsvrc2012.hdf5}
if [ ! -f "$imagenet" ]; then
    valid=$((SIZE / 40 > 0 ? SIZE / 40 : 1))
    mkdir -p "$work/raw"
    /usr/bin/python3 bench/make_imagenet.py "$work/raw" "$SIZE" "$valid" "$valid" > /dev/null
    "$FUEL" convert ilsvrc2012 -d "$work/raw" -o "$work" -q > /dev/null
    rm -rf "$work/raw"
fi
# the same JPEGs, stored (not deflated) in a zip, for the floor; their count
jpegs=$(/usr/bin/python3 - "$imagenet" "$work/images.zip" <<'PYTHON'
import sys, zipfile
import h5py
with h5py.File(sys.argv[1], 'r') as f, zipfile.ZipFile(sys.argv[2], 'w', zipfile.ZIP_STORED) as z:
    for index, data in enumerate(f['encoded_images']):
        z.writestr('%08d.JPEG' % index, data.tobytes())
    print(len(f['encoded_images']))
PYTHON
)

# fuel duplicates exits 1 when it finds some (the ImageNet-like file reuses a pool of pictures)
exact() { "$FUEL" duplicates -q "$images" > /dev/null || [ $? -eq 1 ]; }
digest() { sha256sum "$images" > /dev/null; }
threads=$(nproc)
near() { "$FUEL" duplicates --near -q --threads 1 "$imagenet" > /dev/null || [ $? -eq 1 ]; }
floor() { "$FLOOR" 0 "$work/images.zip" > /dev/null; }
near_threads() {
    "$FUEL" duplicates --near -q --threads "$threads" "$imagenet" > /dev/null || [ $? -eq 1 ]
}
floor_threads() { "$FLOOR" "$threads" "$work/images.zip" > /dev/null; }

cat "$images" "$imagenet" "$work/images.zip" > /dev/null
exact_times=() digest_times=() near_times=() floor_times=() near_threads_times=()
floor_threads_times=()
for run in $(seq "$RUNS"); do
    exact_times+=("$(wall_seconds exact)")
    digest_times+=("$(wall_seconds digest)")
    near_times+=("$(wall_seconds near)")
    floor_times+=("$(wall_seconds floor)")
    near_threads_times+=("$(wall_seconds near_threads)")
    floor_threads_times+=("$(wall_seconds floor_threads)")
done
echo "duplicates: $(du -m "$images" | cut -f1) MB of uint8 images; $(du -m "$imagenet" | cut -f1) MB," \
    "$jpegs JPEGs; $RUNS interleaved runs, $(nproc) processors, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "  fuel duplicates times: ${exact_times[*]}"
echo "  sha256sum times: ${digest_times[*]}"
echo "  fuel duplicates --near --threads 1 times: ${near_times[*]}"
echo "  jpeg_floor 0 times: ${floor_times[*]}"
echo "  fuel duplicates --near --threads $threads times: ${near_threads_times[*]}"
echo "  jpeg_floor $threads times: ${floor_threads_times[*]}"
near_speedup=$(echo "$(median "${near_times[@]}") / $(median "${near_threads_times[@]}")" | bc -l)
floor_speedup=$(echo "$(median "${floor_times[@]}") / $(median "${floor_threads_times[@]}")" | bc -l)
echo "  speed-up of --threads $threads over --threads 1: ${near_speedup:0:5}" \
    "(the floor's own on $threads threads: ${floor_speedup:0:5})"
exact_peak=$(peak_kib bash -c "$(declare -f exact); FUEL=$FUEL images=$images exact")
near_peak=$(peak_kib bash -c "$(declare -f near_threads); FUEL=$FUEL imagenet=$imagenet \
    threads=$threads near_threads")
echo "  peak RSS: exact $exact_peak KiB, near $near_peak KiB"
status=0
check "exact / sha256sum wall time" \
    "$(echo "$(median "${exact_times[@]}") / $(median "${digest_times[@]}")" | bc -l)" "<=" 2 || status=1
check "near / decode floor (1 thread) wall time" \
    "$(echo "$(median "${near_times[@]}") / $(median "${floor_times[@]}")" | bc -l)" "<=" 1.3 || status=1
check "near / decode floor ($threads threads) wall time" \
    "$(echo "$(median "${near_threads_times[@]}") / $(median "${floor_threads_times[@]}")" | bc -l)" \
    "<=" 1.3 || status=1
check "peak RSS, exact (MiB)" "$(echo "$exact_peak / 1024" | bc -l)" "<=" 64 || status=1
check "peak RSS, near (MiB)" "$(echo "$near_peak / 1024" | bc -l)" "<=" 64 || status=1
noise_examples=${NOISE_EXAMPLES:-1431167}
if [ "$noise_examples" -gt 0 ]; then
    /usr/bin/python3 bench/make_noise_hdf5.py "$work/noise.hdf5" "$noise_examples"
    scale=$( { /usr/bin/time -f '%e %M' "$FUEL" duplicates --near -q --threads "$threads" \
        "$work/noise.hdf5" > "$work/noise.txt" || [ $? -eq 1 ]; } 2>&1 | tail -n 1)
    echo "  --near of $noise_examples images at ImageNet's scale: ${scale% *} s, peak RSS" \
        "${scale#* } KiB: $(head -n 1 "$work/noise.txt" | cut -d'(' -f1)"
    check "peak RSS, near at ImageNet's scale (MiB)" "$(echo "${scale#* } / 1024" | bc -l)" \
        "<=" 64 || status=1
fi
exit $status
