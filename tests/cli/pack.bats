#!/usr/bin/env bats
# fuel pack: Fuel's chapter 4 examples packed and compared with the files the chapter makes by
# hand with h5py (tests/helpers/chapter4.py), each input kind, the provenance, the commands that
# read the packed files, and every refusal.

bats_require_minimum_version 1.5.0

PYTHON=/usr/bin/python3

setup() {
    cd "$BATS_TEST_DIRNAME/../.."
    export HOME="$BATS_TEST_TMPDIR/home" FUEL_CONFIG="$BATS_TEST_TMPDIR/no-fuelrc"
    unset FUEL_EXTRA_DOWNLOADERS FUEL_EXTRA_CONVERTERS FUEL_MIRROR SOURCE_DATE_EPOCH
    HELPERS="$PWD/tests/helpers"
    WORK="$BATS_TEST_TMPDIR/work"
    OUT="$BATS_TEST_TMPDIR/out"
    mkdir -p "$HOME" "$WORK" "$OUT"
}

# The chapter's inputs (seeded) in $WORK.
chapter_inputs() {
    "$PYTHON" "$HELPERS/chapter4.py" inputs "$WORK" 1
}

# The toy spec of chapter 4.3, its splits given by SPLITS (YAML lines).
toy_spec() {
    local name=$1 splits=$2
    cat > "$WORK/$name.yaml" <<EOF
name: $name
splits:
$splits
sources:
  vector_features:
    axes: [batch, feature]
    from: [train_vector_features.npy, test_vector_features.npy]
  image_features:
    axes: [batch, channel, height, width]
    from: [train_image_features.npy, test_image_features.npy]
  targets:
    axes: [batch, index]
    from: [train_targets.npy, test_targets.npy]
EOF
}

@test "chapter 4.3: the toy example is the file the chapter makes with h5py" {
    chapter_inputs
    toy_spec toy $'  train: {examples: 90}\n  test: {examples: 10}'
    run --separate-stderr fuel pack "$WORK/toy.yaml" -o "$OUT"
    [ "$status" -eq 0 ]
    [ "$output" = "$OUT/toy.hdf5" ]
    [ -z "$stderr" ]
    "$PYTHON" "$HELPERS/chapter4.py" toy "$WORK" "$WORK/expected.hdf5"
    run "$PYTHON" "$HELPERS/chapter4.py" compare "$WORK/expected.hdf5" "$OUT/toy.hdf5"
    [ "$status" -eq 0 ]
    [ -z "$output" ]
    run fuel info --check "$OUT/toy.hdf5"
    [ "$status" -eq 0 ]
    [ "$output" = "$OUT/toy.hdf5: ok" ]
}

@test "chapter 4.6: even and odd indices, stored in the file and referenced from the split rows" {
    chapter_inputs
    toy_spec indices $'  train: {indices: train_indices.npy}\n  test: {indices: test_indices.npy}'
    run fuel pack "$WORK/indices.yaml" -o "$OUT"
    [ "$status" -eq 0 ]
    "$PYTHON" "$HELPERS/chapter4.py" indices "$WORK" "$WORK/expected.hdf5"
    run "$PYTHON" "$HELPERS/chapter4.py" compare "$WORK/expected.hdf5" "$OUT/indices.hdf5"
    [ "$status" -eq 0 ]
    [ -z "$output" ]
    run fuel info --check "$OUT/indices.hdf5"
    [ "$status" -eq 0 ]
}

@test "chapter 4.7: ragged images from one .npy per example, with their shapes and shape labels" {
    chapter_inputs
    cat > "$WORK/ragged.yaml" <<'EOF'
splits:
  train: {examples: 90}
  test: {examples: 10}
sources:
  vector_features:
    axes: [batch, feature]
    from: [train_vector_features.npy, test_vector_features.npy]
  image_features:
    axes: [batch, channel, height, width]
    from: [{arrays: train_images}, {arrays: test_images}]
  targets:
    axes: [batch, index]
    from: [train_targets.npy, test_targets.npy]
EOF
    run --separate-stderr fuel pack "$WORK/ragged.yaml" -o "$OUT"
    [ "$status" -eq 0 ]
    [ -z "$stderr" ]
    "$PYTHON" "$HELPERS/chapter4.py" ragged "$WORK" "$WORK/expected.hdf5"
    run "$PYTHON" "$HELPERS/chapter4.py" compare "$WORK/expected.hdf5" "$OUT/ragged.hdf5"
    [ "$status" -eq 0 ]
    [ -z "$output" ]
    run fuel info --check "$OUT/ragged.hdf5"
    [ "$status" -eq 0 ]
}

@test "the comparison fails on files that differ" {
    chapter_inputs
    toy_spec indices $'  train: {indices: train_indices.npy}\n  test: {indices: test_indices.npy}'
    fuel pack "$WORK/indices.yaml" -o "$OUT"
    "$PYTHON" "$HELPERS/chapter4.py" toy "$WORK" "$WORK/expected.hdf5"
    run "$PYTHON" "$HELPERS/chapter4.py" compare "$WORK/expected.hdf5" "$OUT/indices.hdf5"
    [ "$status" -eq 1 ]
    [[ "$output" == *"datasets ['image_features', 'targets', 'test_indices', 'train_indices', 'vector_features'], expected ['image_features', 'targets', 'vector_features']"* ]]
    [[ "$output" == *"split rows"* ]]
}

@test "-h lists the options; the spec is required" {
    run --separate-stderr fuel pack -h
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "usage: fuel-pack [-h] SPEC [-o DIR] [-r NAME] [--threads N] [-q]" ]
    [[ "$output" == *"-o, --output-directory DIR"* ]]
    [[ "$output" == *"--threads N"* ]]
    run --separate-stderr fuel-pack
    [ "$status" -eq 2 ]
    [[ "$stderr" == "fuel-pack: missing SPEC"* ]]
}
