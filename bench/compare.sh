#!/usr/bin/env bash
# Every conversion, pack, export and fixture --from benchmark run with the binaries of two
# commits, interleaved: medians of wall time, CPU time (user + system) and peak RSS, their ratios
# (B / A), and a flag on any wall ratio over 1.05 or CPU ratio over 1.10 (exit 1 when one is).
#   bash bench/compare.sh A B                  e.g. bench/compare.sh c34d39b HEAD
#   bash bench/compare.sh HEAD,DIGESTS=off HEAD  what provenance's digests cost (make variables
#                   after a commit, comma-separated, are given to its build)
#   RUNS=N          runs of each binary per case (default 5), A and B alternating, first A, then B
#   CASES="a b"     only these cases (bash bench/compare.sh --list names them)
#   SCALE=small     inputs about a tenth of the real sizes, for a quick look
#   MEASURE=instructions  counts the instructions each run executes (valgrind's callgrind, every
#                   thread) instead of timing it: the same count on a busy machine as on a quiet
#                   one, flagged over 1.05 (use SCALE=small: callgrind runs about 50x slower)
#   COMPARE_DIR     where the builds (one per commit) and the inputs are kept between runs
#                   (default /tmp/fuel-compare); each commit is built from `git archive` of it.
# The inputs are made by B's fuel fixture --raw and the bench/ makers, once per SCALE; a case A's
# binary cannot run (a dataset it does not know) is shown as "n/a".
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh
RUNS=${RUNS:-5}
SCALE=${SCALE:-full}
store=${COMPARE_DIR:-/tmp/fuel-compare}
ALL_CASES="fashion_mnist mnist binarized_mnist cifar10 cifar100 svhn2 svhn1 adult iris silhouettes
celeba_64 celeba_aligned dogs_vs_cats ilsvrc2012 pack_npy pack_images export_hdf5_layer
export_npy export_recordio export_image_list export_webdataset export_tfrecord fixture_from"

# size FULL: FULL, or a tenth of it (at least 10) when SCALE=small.
size() {
    if [ "$SCALE" = small ]; then echo $(($1 / 10 > 10 ? $1 / 10 : 10)); else echo "$1"; fi
}

# build COMMIT[,VARIABLE=VALUE...]: builds COMMIT once under $store, with those make variables
# (HEAD,DIGESTS=off: provenance hashing no input), and prints the path of its fuel.
build() {
    local sha directory variables=()
    sha=$(git rev-parse --verify "${1%%,*}^{commit}")
    [[ "$1" != *,* ]] || IFS=, read -r -a variables <<< "${1#*,}"
    directory=$store/build-$sha${variables[*]:+-$(printf '%s' "${variables[*]}" | tr -c 'A-Za-z0-9' -)}
    if [ ! -x "$directory/build/fuel" ]; then
        rm -rf "$directory" && mkdir -p "$directory"
        git archive "$sha" | tar -x -C "$directory"
        echo "building $1 ($sha) in $directory" >&2
        make -C "$directory" -j"$(nproc)" "${variables[@]}" all > "$directory.log" 2>&1 ||
            { echo "compare.sh: building $1 failed: $directory.log" >&2; exit 1; }
    fi
    echo "$directory/build/fuel"
}

# raw_input NAME FIXTURE-ARGUMENTS...: the raw files B's fuel fixture --raw writes, made once.
raw_input() {
    local directory=$inputs/$1
    shift
    if [ ! -f "$directory/.made" ]; then
        rm -rf "$directory" && mkdir -p "$directory"
        "$B" fixture "$@" --raw -o "$directory" --seed 1 > /dev/null
        touch "$directory/.made"
    fi
    echo "$directory"
}

# made FILE COMMAND...: runs COMMAND (which writes FILE) unless FILE exists; prints FILE.
made() {
    local file=$1
    shift
    [ -e "$file" ] || "$@" > /dev/null
    echo "$file"
}

# The arguments of fuel for CASE, its inputs made first (OUT is the output directory).
arguments() {
    local out=$work/out
    case $1 in
    fashion_mnist) echo convert fashion_mnist -d /usr/share/datasets/fashion-mnist -o "$out" ;;
    mnist) echo convert mnist -o "$out" -d "$(raw_input mnist mnist \
        -n "train=$(size 60000),test=$(size 10000)")" ;;
    binarized_mnist) echo convert binarized_mnist -o "$out" -d "$(raw_input binarized_mnist \
        binarized_mnist -n "train=$(size 50000),valid=$(size 10000),test=$(size 10000)")" ;;
    cifar10 | cifar100) echo convert "$1" -o "$out" -d "$(cifar_input "$1")" ;;
    svhn2) echo convert svhn 2 -o "$out" -d "$(raw_input svhn2 svhn 2 \
        -n "train=$(size 60000),test=$(size 20000),extra=$(size 30000)")" ;;
    svhn1) echo convert svhn 1 -o "$out" -d "$(raw_input svhn1 svhn 1 \
        -n "train=$(size 5000),test=$(size 2000),extra=$(size 2000)")" ;;
    adult) echo convert adult -o "$out" -d "$(raw_input adult adult \
        -n "train=$(size 32561),test=$(size 16281)")" ;;
    iris) echo convert iris -o "$out" -d "$(raw_input iris iris)" ;;
    silhouettes) echo convert caltech101_silhouettes 28 -o "$out" -d "$(raw_input silhouettes \
        caltech101_silhouettes 28 -n "train=$(size 4100),valid=$(size 2264),test=$(size 2307)")" ;;
    celeba_64 | celeba_aligned) celeba_arguments "$1" "$out" ;;
    dogs_vs_cats) echo convert dogs_vs_cats -o "$out" -d "$(raw_input dogs_vs_cats dogs_vs_cats \
        -n "train=$(size 5000),test=$(size 1000)")" ;;
    ilsvrc2012) echo convert ilsvrc2012 -o "$out" -d "$(imagenet_input)" ;;
    pack_npy) echo pack "$(pack_input)/big.yaml" -o "$out" -q ;;
    pack_images) echo pack "$(pack_input)/images.yaml" -o "$out" -q ;;
    export_*) export_arguments "${1#export_}" "$out" ;;
    fixture_from) echo fixture --from "$(cifar10_hdf5)" -n 1000 -o "$out" -r cut ;;
    *) echo "compare.sh: no case $1 (bash bench/compare.sh --list)" >&2; return 1 ;;
    esac
}

celeba_arguments() {
    local raw format=64
    raw=$(raw_input celeba celeba 64 -n "$(size 20000)")
    [ "$1" = celeba_64 ] || format=aligned_cropped
    echo convert celeba "$format" -o "$2" -d "$raw"
}

cifar_input() {
    local directory=$inputs/$1 archive=cifar-10-python.tar.gz
    [ "$1" = cifar10 ] || archive=cifar-100-python.tar.gz
    mkdir -p "$directory"
    made "$directory/$archive" /usr/bin/python3 bench/make_cifar.py "$1" "$directory" > /dev/null
    echo "$directory"
}

imagenet_input() {
    local directory=$inputs/ilsvrc2012 count
    count=$(size 12000)
    if [ ! -f "$directory/.made" ]; then
        rm -rf "$directory" && mkdir -p "$directory"
        /usr/bin/python3 bench/make_imagenet.py "$directory" "$count" "$((count / 40))" \
            "$((count / 40))" > /dev/null
        touch "$directory/.made"
    fi
    echo "$directory"
}

# The pack inputs: a float32 .npy of 256 MiB (a tenth with SCALE=small) and a folder of 20,000
# JPEGs (2,000) in 10 classes, as bench/pack.sh makes them.
pack_input() {
    local directory=$inputs/pack
    if [ ! -f "$directory/.made" ]; then
        rm -rf "$directory" && mkdir -p "$directory"
        /usr/bin/python3 bench/make_pack.py "$directory" "$(size 268435456)" "$(size 20000)" 256
        touch "$directory/.made"
    fi
    echo "$directory"
}

# A CIFAR-10 file as fuel convert writes it, 184 MB.
cifar10_hdf5() {
    made "$inputs/cifar10.hdf5" /usr/bin/python3 bench/make_cifar10_hdf5.py "$inputs/cifar10.hdf5"
}

# The file of 20,000 stored 375 x 500 JPEGs (2,000 with SCALE=small), 1.3 GB.
jpeg_input() {
    made "$inputs/jpegs.hdf5" /usr/bin/python3 tests/helpers/jpeg_hdf5.py "$inputs/jpegs.hdf5" \
        "$(size 20000)" 0 0 --size 375x500 --distinct 200
}

# export_arguments FORM OUT: the CIFAR-10 file for the classic forms, the JPEG file for
# webdataset and tfrecord.
export_arguments() {
    local input
    case $1 in
    webdataset | tfrecord) input=$(jpeg_input) ;;
    *) input=$(cifar10_hdf5) ;;
    esac
    echo export "$input" --to "${1//_/-}" -o "$2/export" -q
}

# timed SIDE FUEL ARGUMENTS...: one run into a fresh output directory; appends to SIDE's lists.
timed() {
    local side=$1 fuel=$2 seconds user system kib
    shift 2
    # The last run's output is deleted just before the run, so that the pages the run writes into
    # are the ones just freed: this machine hands pages free for 2 s back to its host, and a write
    # into such a page costs a fault in the host (184 MB: 0.06 s into pages just freed, 0.5 s into
    # pages freed 3 s before), so outputs kept until the case ends made every write-heavy case
    # swing by up to 2x. An output of over 1,000 files is moved aside and deleted once the case is
    # done instead: deleted just before a run, the 60,000 image-list files made ext4 look for free
    # inodes among those it had just freed (3 s to 46 s of system time for one binary).
    if [ -e "$work/out" ] && [ "$(find "$work/out" | head -n 1002 | wc -l)" -le 1001 ]; then
        rm -rf "$work/out"
    elif [ -e "$work/out" ]; then
        mkdir -p "$work/old" && mv "$work/out" "$(mktemp -d "$work/old/XXXXXX")/"
    fi
    mkdir -p "$work/out"
    if [ "${MEASURE:-time}" = instructions ]; then
        counted "$side" "$fuel" "$@"
        return
    fi
    /usr/bin/time -f '%e %U %S %M' -o "$work/time" "$fuel" "$@" > /dev/null 2> "$work/stderr" ||
        return 1
    read -r seconds user system kib < "$work/time"
    eval "${side}_wall+=($seconds) ${side}_kib+=($kib)"
    eval "${side}_cpu+=($(echo "$user + $system" | bc -l))"
}

# counted SIDE FUEL ARGUMENTS...: one run under callgrind; appends its instructions to SIDE_wall.
counted() {
    local side=$1 fuel=$2 count
    shift 2
    valgrind --tool=callgrind --callgrind-out-file=/dev/null --log-file="$work/callgrind" \
        "$fuel" "$@" > /dev/null 2> "$work/stderr" || return 1
    count=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$work/callgrind")
    eval "${side}_wall+=($count) ${side}_cpu+=($count) ${side}_kib+=(0)"
}

# ratio X Y: Y / X with two decimals, or n/a.
ratio() {
    awk -v x="$1" -v y="$2" 'BEGIN { if (x > 0) printf "%.2f", y / x; else printf "n/a" }'
}

# compare_case CASE: RUNS runs of each binary, alternating, then the case's row of the table.
compare_case() {
    local case=$1 words a_ok=1 run
    words=$(arguments "$case") || return 1
    a_wall=() a_cpu=() a_kib=() b_wall=() b_cpu=() b_kib=()
    for run in $(seq "$RUNS"); do
        if [ "$a_ok" = 1 ]; then timed a "$A" $words || a_ok=0; fi
        timed b "$B" $words ||
            { echo "compare.sh: $case failed with B: $(head -c 300 "$work/stderr")" >&2; return 1; }
    done
    rm -rf "$work/old"
    row "$case" "$a_ok"
}

# row CASE A_OK: prints the medians and ratios; remembers a flagged ratio.
row() {
    local wall_b cpu_b kib_b wall_a=- cpu_a=- kib_a=- wall_ratio=n/a cpu_ratio=n/a
    local kib_ratio=n/a flag=""
    wall_b=$(median "${b_wall[@]}") cpu_b=$(median "${b_cpu[@]}") kib_b=$(largest "${b_kib[@]}")
    if [ "$2" = 1 ]; then
        wall_a=$(median "${a_wall[@]}") cpu_a=$(median "${a_cpu[@]}") kib_a=$(largest "${a_kib[@]}")
        wall_ratio=$(ratio "$wall_a" "$wall_b") cpu_ratio=$(ratio "$cpu_a" "$cpu_b")
        kib_ratio=$(ratio "$kib_a" "$kib_b")
        awk -v r="$wall_ratio" 'BEGIN { exit !(r > 1.05) }' && flag+=" WALL"
        awk -v r="$cpu_ratio" 'BEGIN { exit !(r > 1.10) }' && flag+=" CPU"
        [ -z "$flag" ] || flagged=1
    fi
    printf '%-18s %8s %8s %6s %8s %8s %6s %8s %8s %6s%s\n' "$1" "$wall_a" "$wall_b" \
        "$wall_ratio" "$cpu_a" "$cpu_b" "$cpu_ratio" "$(mib "$kib_a")" "$(mib "$kib_b")" \
        "$kib_ratio" "$flag"
}

mib() {
    if [ "$1" = - ]; then echo -; else awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; fi
}

if [ "${1:-}" = --list ]; then echo $ALL_CASES; exit 0; fi
[ $# -eq 2 ] || { sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0" >&2; exit 2; }
mkdir -p "$store"
inputs=$store/inputs-$SCALE
mkdir -p "$inputs"
A=$(build "$1")
B=$(build "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flagged=0
echo "compare: A = $1 (${A#$store/build-}), B = $2 (${B#$store/build-}), $RUNS" \
    "interleaved runs each, SCALE=$SCALE; medians (peak RSS: largest), ratios B / A" |
    sed 's|/build/fuel||g'
load_note
[ "${MEASURE:-time}" != instructions ] ||
    echo "  MEASURE=instructions: the wall and cpu columns count instructions (callgrind)"
printf '%-18s %8s %8s %6s %8s %8s %6s %8s %8s %6s\n' case "wall A" "wall B" ratio "cpu A" \
    "cpu B" ratio "MiB A" "MiB B" ratio
status=0
for case in ${CASES:-$ALL_CASES}; do
    compare_case "$case" || status=1
done
[ "$flagged" = 0 ] || { echo "flagged: a wall ratio over 1.05 or a CPU ratio over 1.10"; status=1; }
exit $status
