#!/usr/bin/env bash
# fuel stats --decode of ImageNet-size photos (bench/make_imagenet.py: 500 x 375 JPEGs at quality
# 90, converted by fuel convert ilsvrc2012) against, in the same run, PIL + numpy computing the
# same per-channel mean and std (bench/stats_decode_pil.py) and the JPEG decode floor
# (bench/jpeg_floor.c over a stored zip of the same JPEGs), serially and on the online CPUs;
# medians of interleaved runs, images and megapixels a second, ratios, peak RSS.
#   RUNS=3 SIZE=2000 bash bench/stats_decode.sh
# IMAGENET_HDF5 may name a file made earlier.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh
source bench/jpeg.bash
BUILD=${BUILD:-$PWD/build}
FUEL=$BUILD/fuel
RUNS=${RUNS:-3}
SIZE=${SIZE:-2000}
work=$(mktemp -d "${BENCH_DIR:-$PWD}/.bench-stats-decode.XXXXXX")
trap 'rm -rf "$work"' EXIT
floor_build

imagenet=${IMAGENET_HDF5:-$work/ilsvrc2012.hdf5}
if [ ! -f "$imagenet" ]; then
    mkdir -p "$work/raw"
    /usr/bin/python3 bench/make_imagenet.py "$work/raw" "$SIZE" 1 1 > /dev/null
    "$FUEL" convert ilsvrc2012 -d "$work/raw" -o "$work" -q > /dev/null
    rm -rf "$work/raw"
fi
# the train split's JPEGs, stored (not deflated) in a zip, for the floor; their count and pixels
read -r images pixels < <(/usr/bin/python3 - "$imagenet" "$work/images.zip" <<'PYTHON'
import io, sys, zipfile
import h5py
from PIL import Image
with h5py.File(sys.argv[1], 'r') as f, zipfile.ZipFile(sys.argv[2], 'w', zipfile.ZIP_STORED) as z:
    row = [r for r in f.attrs['split'] if r['split'] == b'train' and r['source'] == b'encoded_images'][0]
    pixels = 0
    for index in range(int(row['start']), int(row['stop'])):
        data = f['encoded_images'][index].tobytes()
        z.writestr('%08d.JPEG' % index, data)
        width, height = Image.open(io.BytesIO(data)).size
        pixels += width * height
    print(int(row['stop']) - int(row['start']), pixels)
PYTHON
)

threads=$(nproc)
stats_one() { "$FUEL" stats "$imagenet" --split train --sources encoded_images --decode -q --threads 1; }
stats_all() {
    "$FUEL" stats "$imagenet" --split train --sources encoded_images --decode -q --threads "$threads"
}
pil() { /usr/bin/python3 bench/stats_decode_pil.py "$imagenet"; }
floor_one() { "$FLOOR" 0 "$work/images.zip"; }
floor_all() { "$FLOOR" "$threads" "$work/images.zip"; }

cat "$imagenet" "$work/images.zip" > /dev/null
one_times=() all_times=() pil_times=() floor_one_times=() floor_all_times=()
for run in $(seq "$RUNS"); do
    one_times+=("$(wall_seconds stats_one)")
    all_times+=("$(wall_seconds stats_all)")
    pil_times+=("$(wall_seconds pil)")
    floor_one_times+=("$(wall_seconds floor_one)")
    floor_all_times+=("$(wall_seconds floor_all)")
done
one=$(median "${one_times[@]}") all=$(median "${all_times[@]}") python=$(median "${pil_times[@]}")
floor_one=$(median "${floor_one_times[@]}") floor_all=$(median "${floor_all_times[@]}")
# throughput NAME SECONDS: "NAME S s, I images/s, M Mpixel/s"
throughput() {
    echo "$1 $2 s, $(echo "$images / $2" | bc -l | cut -d. -f1) images/s," \
        "$(echo "$pixels / $2 / 1000000" | bc -l | cut -c1-5) Mpixel/s"
}
echo "stats --decode: $images JPEGs of train ($(echo "$pixels / $images" | bc) pixels each)," \
    "$(du -m "$imagenet" | cut -f1) MB; $RUNS interleaved runs, $threads processors," \
    "load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "  fuel stats --decode --threads 1 times: ${one_times[*]}"
echo "  fuel stats --decode --threads $threads times: ${all_times[*]}"
echo "  PIL + numpy times: ${pil_times[*]}"
echo "  jpeg_floor 0 times: ${floor_one_times[*]}; jpeg_floor $threads times: ${floor_all_times[*]}"
echo "  medians: $(throughput "fuel --threads 1" "$one"); $(throughput "fuel --threads $threads" "$all")"
echo "           $(throughput "PIL + numpy" "$python"); $(throughput "floor serial" "$floor_one");" \
    "$(throughput "floor $threads threads" "$floor_all")"
peak=$(peak_kib bash -c "$(declare -f stats_all); FUEL=$FUEL imagenet=$imagenet threads=$threads stats_all")
echo "  fuel stats --decode --threads $threads peak RSS: $peak KiB"
status=0
check "PIL + numpy / fuel --threads 1 wall time" "$(echo "$python / $one" | bc -l)" ">=" 1 || status=1
check "fuel --threads 1 / decode floor (serial)" "$(echo "$one / $floor_one" | bc -l)" "<=" 1.3 ||
    status=1
check "fuel / decode floor ($threads threads)" "$(echo "$all / $floor_all" | bc -l)" "<=" 1.3 ||
    status=1
check "peak RSS (MiB)" "$(echo "$peak / 1024" | bc -l)" "<=" 64 || status=1
exit $status
