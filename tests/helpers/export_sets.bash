# Export sets for the CLI tests of fuel export (tests/cli/export.bats) and their exhaustive kill
# loops (tests/durability/export_kills.bats): inputs, listings and digests of sets, and the loops that
# kill fuel export while it publishes a set. Expects PYTHON and EXPECTED (tests/data/expected).

# A copy of mnist.hdf5 whose train split holds COUNT examples (the 12 repeated).
mnist_large() {
    $PYTHON - "$EXPECTED/mnist.hdf5" "$1" "$2" <<'EOF2'
import sys, h5py, numpy as np
count = int(sys.argv[3])
with h5py.File(sys.argv[1], "r") as source, h5py.File(sys.argv[2], "w") as f:
    features = np.resize(source["features"][:12], (count, 1, 28, 28))
    targets = np.resize(source["targets"][:12], (count, 1))
    f["features"], f["targets"] = features, targets
    for name, labels in (("features", ("batch", "channel", "height", "width")),
                         ("targets", ("batch", "index"))):
        for axis, label in enumerate(labels):
            f[name].dims[axis].label = label
    split = np.array([(b"train", b"features", 0, count, None, True, b"."),
                      (b"train", b"targets", 0, count, None, True, b".")],
                     dtype=[("split", "S5"), ("source", "S8"), ("start", "<i8"), ("stop", "<i8"),
                            ("indices", h5py.special_dtype(ref=h5py.Reference)),
                            ("available", bool), ("comment", "S1")])
    f.attrs["split"] = split
EOF2
}

# The names of DIR's entries (hidden ones too), one line, in byte order.
entries() {
    (cd "$1" && ls -A | LC_ALL=C sort | tr '\n' ' ')
}

# The entries the listing of the set LABEL in DIR names (export.files of LABEL.provenance.json or
# of LABEL.json's provenance, else an hdf5-layer LABEL.txt and its parts), in byte order.
recorded() {
    $PYTHON - "$1" "$2" <<'EOF2' | LC_ALL=C sort | tr '\n' ' '
import json, os, sys
directory, label = sys.argv[1:]
path = os.path.join(directory, label)
if os.path.exists(path + ".provenance.json"):
    names = json.load(open(path + ".provenance.json"))["export"]["files"]
elif os.path.exists(path + ".json"):
    names = json.load(open(path + ".json"))["provenance"]["export"]["files"]
else:
    names = [label + ".txt"] + [os.path.basename(line) for line in open(path + ".txt").read().split()]
print("\n".join(names))
EOF2
}

# The hidden entries of DIR, one a line: none beside published sets.
hidden() {
    (ls -A "$1" | grep '^\.') || true
}

# The sha256 of every file of the set in DIR (hidden entries excluded), by name.
set_listing() {
    (cd "$1" && find . -path './.*' -prune -o -type f -print | sort | xargs -r sha256sum)
}

set_digest() {
    set_listing "$1" | sha256sum
}

# The hidden work directories of exports in DIR: stagings, and committed sets not yet published.
stagings() {
    (ls -A "$1" | grep -E '^\.fuel-staging-') || true
}

# Whether every file of the set in DIR is whole: byte for byte the file of that name in the
# listing OLD or in the listing NEW (set_listing).
set_files_whole() {
    local strays
    strays=$(set_listing "$1" | grep -vxF -f "$2" | grep -vxF -f "$3") || true
    [ -z "$strays" ] || { echo "not a whole file of either set: $strays"; return 1; }
}

# kill_loop INPUT EARLIER NEW MOMENTS [ARGUMENT]: kills fuel export INPUT NEW... (into ./set, over
# a copy of the earlier set that fuel export INPUT EARLIER wrote) at each moment, in seconds, that
# `MOMENTS ARGUMENT DURATION_MS` prints (DURATION_MS: how long one such export took). Right after
# each kill every file on disk is whole, of the earlier set or the new one; once fuel clean has
# run, the set is entirely the earlier one or entirely the new one, and no staging is left.
kill_loop() {
    local input=$1 earlier=$2 new_arguments=$3 moments=$4 argument=${5:-}
    rm -rf set
    fuel export "$input" -o set $earlier
    local old new kept=0 replaced=0 finished=0 start duration_ms moment pid
    old=$(set_digest set)
    set_listing set > old.listing
    rm -rf old-set
    cp -a set old-set
    rm -rf set
    start=$(date +%s%N)
    fuel export "$input" -o set $new_arguments
    duration_ms=$(( ($(date +%s%N) - start) / 1000000 ))
    new=$(set_digest set)
    set_listing set > new.listing
    [ "$old" != "$new" ]
    for moment in $($moments $argument "$duration_ms"); do
        rm -rf set
        # The earlier set's files, hard-linked: publishing renames over names and never writes
        # into a file of the set (set_files_whole would see one it did).
        cp -al old-set set
        fuel export "$input" -o set $new_arguments 3>&- &
        pid=$!
        sleep "$moment"
        kill -9 $pid 2>/dev/null || true
        wait_bounded $pid || true
        set_files_whole set old.listing new.listing
        run fuel clean -d set
        [ "$status" -eq 0 ]
        [[ "$output" != *"finished publishing"* ]] || finished=$((finished + 1))
        [ -z "$(stagings set)" ]
        state=$(set_digest set)
        if [ "$state" = "$old" ]; then
            kept=$((kept + 1))
        else
            [ "$state" = "$new" ]
            replaced=$((replaced + 1))
        fi
    done
    echo "# $new_arguments ($duration_ms ms): $kept kills kept the earlier set, $replaced came after the new one's commit ($finished finished by fuel clean)" >&3
    fuel export "$input" -o set $new_arguments
    [ "$(set_digest set)" = "$new" ]
    [ -z "$(stagings set)" ]
}

# random_moments MAX DURATION_MS: ten random moments up to about MAX tenths of a second.
random_moments() {
    local attempt
    for attempt in $(seq 1 10); do
        echo "$(( RANDOM % $1 / 10 )).$(( RANDOM % 10 ))"
    done
}

# spread_moments DURATION_MS: five moments of one export: at once, at a quarter, a half and three
# quarters of its duration, and once it is surely over (twice its duration and half a second).
spread_moments() {
    local quarter
    for quarter in 0 1 2 3; do
        printf '%d.%03d\n' $(( $1 * quarter / 4000 )) $(( $1 * quarter / 4 % 1000 ))
    done
    printf '%d.%03d\n' $(( ($1 * 2 + 500) / 1000 )) $(( ($1 * 2 + 500) % 1000 ))
}

SHIM="${BUILD:-$BATS_TEST_DIRNAME/../../build}/tests/fail_io.so"

# fuel export INPUT ARGUMENTS... -o set, killed (SIGKILL) at its rename number AFTER (from 0) in set.
export_killed_at_rename() {
    local after=$1
    shift
    LD_PRELOAD="$SHIM" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" FAIL_IO_CALLS=rename FAIL_IO_ACTION=kill FAIL_IO_AFTER=$after \
        FAIL_IO_PATH="$PWD/set/*" fuel export "$@" -o set
}

# killed_at_renames AFTER...: an hdf5-layer set of 500-example parts replaced by one of 1000-example
# parts, killed (SIGKILL) at each rename number AFTER of its publishing (7 renames: 0 to 6). Killed
# at the commit (0), the earlier set is whole and fuel clean removes the staging; later, the set is
# committed and fuel clean finishes publishing it.
killed_at_renames() {
    mnist_large big.hdf5 2000
    fuel export big.hdf5 --to hdf5-layer --examples-per-file 500 --scale 2 -o set
    old=$(set_digest set)
    cp -a set old-set
    LD_PRELOAD="$SHIM" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" FAIL_IO_LOG="$PWD/renames" fuel export big.hdf5 --to hdf5-layer --examples-per-file 1000 -o set
    new=$(set_digest set)
    [ "$(recorded set big_train)" = "big_train.txt big_train_0.h5 big_train_1.h5 " ]
    # The commit, the record of the earlier set kept in the staging, 3 moves, 2 removals of the
    # earlier set's extra parts.
    [ "$(grep -c '^rename ' renames)" -eq 7 ]
    for after in "$@"; do
        rm -rf set
        cp -a old-set set
        run export_killed_at_rename $after big.hdf5 --to hdf5-layer --examples-per-file 1000
        [ "$status" -eq 137 ]
        if [ $after -eq 0 ]; then
            [ "$(set_digest set)" = "$old" ]
            [[ "$(stagings set)" == .fuel-staging-big_train.?????? ]]
        else
            [ "$(stagings set)" = ".fuel-staging-big_train.publishing" ]
        fi
        run fuel clean -d set
        [ "$status" -eq 0 ]
        [ -z "$(stagings set)" ]
        if [ $after -eq 0 ]; then
            [[ "$output" == "removed set/.fuel-staging-big_train."?????? ]]
            [ "$(set_digest set)" = "$old" ]
        else
            [ "$output" = "finished publishing set/.fuel-staging-big_train.publishing" ]
            [ "$(set_digest set)" = "$new" ]
            [ "$(entries set)" = "big_train.txt big_train_0.h5 big_train_1.h5 " ]
        fi
    done
}
