# What bench/celeba.sh and bench/dogs_vs_cats.sh share (sourced after bench/common.sh; not a
# benchmark of its own): the decode floor, a conversion timed against it, --threads 1 and real
# Python Fuel, and the ratios checked.

# floor_build: $FLOOR, bench/jpeg_floor.c compiled when missing or older.
floor_build() {
    FLOOR=$BUILD/bench/jpeg_floor
    mkdir -p "$BUILD/bench"
    [ "$FLOOR" -nt bench/jpeg_floor.c ] ||
        cc -O2 -Wall -Wextra -Werror -pthread bench/jpeg_floor.c -o "$FLOOR" -larchive -ljpeg
}

# jpeg_compare LABEL "FUEL WORDS" "FUEL PYTHON WORDS" ZIP...: RUNS interleaved runs of fuel-convert
# WORDS with the default threads and with --threads 1 and of the decode floor on the ZIPs with as
# many threads (the online CPUs) and serially in one thread (how far that work scales here), then
# real Fuel once when FUEL_PYTHON_PATH is set; prints the medians and checks the targets. Needs
# $work, $raw, $FUEL, $FLOOR, $RUNS; returns 1 when a target is missed.
jpeg_compare() {
    local label=$1 words=$2 fuel_words=$3
    shift 3
    local threads out=$work/out
    threads=$(nproc)
    mkdir -p "$out"
    default_times=() default_peaks=() default_cpu=() one_times=() one_peaks=() one_cpu=()
    floor_times=() floor_peaks=() floor_cpu=() floor_one_times=() floor_one_peaks=()
    floor_one_cpu=() python_times=() python_peaks=() python_cpu=()
    for run in $(seq "$RUNS"); do
        # shellcheck disable=SC2086
        measure default "$FUEL" convert $words -d "$raw" -o "$out" -q
        # shellcheck disable=SC2086
        measure one "$FUEL" convert $words -d "$raw" -o "$out" -q --threads 1
        measure floor "$FLOOR" "$threads" "$@"
        measure floor_one "$FLOOR" 0 "$@"
        rm -f "$out"/*.hdf5
    done
    if [ -n "${FUEL_PYTHON_PATH:-}" ]; then
        # Fuel closes its file without syncing it; fuel-convert syncs before it publishes. Both
        # times end with the data on the disk: Fuel's run is followed by sync of its file.
        # shellcheck disable=SC2086
        measure python bash -c '/usr/bin/python3 bench/convert_fuel.py "$@" && sync "$0"/*.hdf5' \
            "$out" $fuel_words "$raw" "$out"
        rm -f "$out"/*.hdf5
    fi
    local default one floor
    default=$(median "${default_times[@]}")
    one=$(median "${one_times[@]}")
    floor=$(median "${floor_times[@]}")
    echo "$label: fuel-convert $words, default threads ($threads online CPUs) vs --threads 1," \
        "vs the decode floor on $threads threads; $RUNS interleaved runs"
    echo "  default times: ${default_times[*]} (CPU ${default_cpu[*]})"
    echo "  --threads 1 times: ${one_times[*]}"
    echo "  floor times: ${floor_times[*]}; serial, in one thread: ${floor_one_times[*]}"
    # How far the same reading and decoding scale on this machine: --threads 1 is serial too.
    echo "  the floor's own speed-up on $threads threads (serial / $threads threads):" \
        "$(echo "$(median "${floor_one_times[@]}") / $floor" | bc -l | cut -c1-5)"
    echo "  medians: default ${default}s, --threads 1 ${one}s, floor ${floor}s;" \
        "peak RSS default $(largest "${default_peaks[@]}") KiB, --threads 1" \
        "$(largest "${one_peaks[@]}") KiB"
    # On a loaded machine the wall times hardly show the threads; the CPU time shows the work.
    echo "  CPU seconds (median): default $(median "${default_cpu[@]}"), --threads 1" \
        "$(median "${one_cpu[@]}"), floor $(median "${floor_cpu[@]}"); CPU ratio default / floor" \
        "$(echo "$(median "${default_cpu[@]}") / $(median "${floor_cpu[@]}")" | bc -l | cut -c1-5)"
    local status=0
    check "speed-up (threads 1 / default)" "$(echo "$one / $default" | bc -l)" ">=" 1.8 || status=1
    check "to the decode floor (default / floor)" "$(echo "$default / $floor" | bc -l)" "<=" 1.3 ||
        status=1
    check "peak RSS (MiB)" "$(echo "$(largest "${default_peaks[@]}" "${one_peaks[@]}") / 1024" | bc -l)" \
        "<=" 64 || status=1
    if [ -n "${FUEL_PYTHON_PATH:-}" ]; then
        echo "  Python Fuel: ${python_times[0]}s (CPU ${python_cpu[0]}s), peak RSS" \
            "${python_peaks[0]} KiB; CPU ratio Python Fuel / default" \
            "$(echo "${python_cpu[0]} / $(median "${default_cpu[@]}")" | bc -l | cut -c1-5)"
        check "speed-up over Python Fuel" "$(echo "${python_times[0]} / $default" | bc -l)" ">=" 4 ||
            status=1
    else
        echo "  (FUEL_PYTHON_PATH unset: Python Fuel's converter not run)"
    fi
    return $status
}

# raw_fixture DIRECTORY FIXTURE-ARGUMENTS...: the raw files `fuel fixture FIXTURE-ARGUMENTS --raw`
# writes (seed 1) in DIRECTORY, made again only when SIZE differs from the SIZE they were made at.
raw_fixture() {
    local directory=$1
    shift
    if [ "$(cat "$directory/SIZE" 2> /dev/null)" != "$SIZE" ]; then
        mkdir -p "$directory"
        "$FUEL" fixture "$@" --raw -o "$directory" --seed 1 > /dev/null
        echo "$SIZE" > "$directory/SIZE"
    fi
}
