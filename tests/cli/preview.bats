#!/usr/bin/env bats
# fuel-preview: tiles compared with the examples pixel by pixel, labels printed in grid order,
# seeded choices, zoom, SVHN format 1's boxes, non-image sources.

bats_require_minimum_version 1.5.0

PYTHON=/usr/bin/python3

setup() {
    EXPECTED="$FUEL_FIXTURES/expected"
    CHECK="$BATS_TEST_DIRNAME/../helpers/export_check.py"
    export HOME="$BATS_TEST_TMPDIR/home" FUEL_CONFIG="$BATS_TEST_TMPDIR/empty-fuelrc"
    : >"$FUEL_CONFIG"
    mkdir -p "$HOME"
    unset FUEL_DATA_PATH
    GRID="$BATS_TEST_TMPDIR/grid.png"
    LABELS="$BATS_TEST_TMPDIR/labels.txt"
}

@test "the first N examples of CIFAR-10 in RGB tiles, labels in grid order, row by row" {
    run --separate-stderr fuel preview "$EXPECTED/cifar10.hdf5" -o "$GRID" -n 10
    [ "$status" -eq 0 ]
    [ "${#lines[@]}" -eq 3 ]
    [ "${lines[0]}" = "$($PYTHON -c 'import h5py,sys; print(" ".join(str(v) for v in h5py.File(sys.argv[1])["targets"][:4,0]))' "$EXPECTED/cifar10.hdf5")" ]
    printf '%s\n' "${lines[@]}" > "$LABELS"
    run $PYTHON "$CHECK" preview "$GRID" "$LABELS" "$EXPECTED/cifar10.hdf5" train 10 1
    [ "$status" -eq 0 ]
    [ "$output" = "0 1 2 3 4 5 6 7 8 9" ]
}

@test "grayscale MNIST zoomed 3x3; float sources scaled to 0..255" {
    fuel preview "$EXPECTED/mnist.hdf5" -o "$GRID" -n 4 --zoom 3 > "$LABELS"
    run $PYTHON "$CHECK" preview "$GRID" "$LABELS" "$EXPECTED/mnist.hdf5" train 4 3
    [ "$status" -eq 0 ]
    run $PYTHON -c 'from PIL import Image; import sys; i = Image.open(sys.argv[1]); print(i.mode, i.size)' "$GRID"
    [ "$output" = "L (174, 174)" ]
    fuel preview "$EXPECTED/mnist_float32.hdf5" -o "$GRID" --split test > "$LABELS"
    run $PYTHON "$CHECK" preview "$GRID" "$LABELS" "$EXPECTED/mnist_float32.hdf5" test 64 1
    [ "$status" -eq 0 ]
}

@test "binary sources are drawn black and white" {
    fuel preview "$EXPECTED/binarized_mnist.hdf5" -o "$GRID" -n 9
    run $PYTHON -c '
import sys, numpy as np, h5py
from PIL import Image
grid = np.asarray(Image.open(sys.argv[1]))
tile = grid[2:30, 2:30]
expected = h5py.File(sys.argv[2])["features"][0, 0].astype(np.uint8) * 255
print(np.array_equal(tile, expected), sorted(set(np.unique(tile))))' "$GRID" "$EXPECTED/binarized_mnist.hdf5"
    [ "$output" = "True [0, 255]" ]
}

@test "--seed draws the same examples every time, others with another seed, labels matching" {
    fuel preview "$EXPECTED/cifar10.hdf5" -o "$GRID" -n 9 --seed 11 > "$LABELS"
    run $PYTHON "$CHECK" preview "$GRID" "$LABELS" "$EXPECTED/cifar10.hdf5" train 9 1
    [ "$status" -eq 0 ]
    first=$output
    [ "$first" != "0 1 2 3 4 5 6 7 8" ]
    fuel preview "$EXPECTED/cifar10.hdf5" -o "$GRID" -n 9 --seed 11 > "$LABELS"
    run $PYTHON "$CHECK" preview "$GRID" "$LABELS" "$EXPECTED/cifar10.hdf5" train 9 1
    [ "$output" = "$first" ]
    fuel preview "$EXPECTED/cifar10.hdf5" -o "$GRID" -n 9 --seed 12 > "$LABELS"
    run $PYTHON "$CHECK" preview "$GRID" "$LABELS" "$EXPECTED/cifar10.hdf5" train 9 1
    [ "$status" -eq 0 ]
    [ "$output" != "$first" ]
}

@test "SVHN format 1: variable-size images at their tiles' top left, boxes outlined in red" {
    run fuel preview "$EXPECTED/svhn_format_1.hdf5" -o "$GRID" -n 4 --split test
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "$($PYTHON -c 'import h5py,sys; f=h5py.File(sys.argv[1]); print(" ".join(",".join(str(v) for v in f["bbox_labels"][n]) for n in (12, 13)))' "$EXPECTED/svhn_format_1.hdf5")" ]
    run $PYTHON - "$GRID" "$EXPECTED/svhn_format_1.hdf5" <<'EOF2'
import sys, numpy as np, h5py
from PIL import Image
grid = np.asarray(Image.open(sys.argv[1]))
f = h5py.File(sys.argv[2], "r")
shapes = [f["features_shapes"][n] for n in range(12, 16)]
tile_h, tile_w = max(s[1] for s in shapes), max(s[2] for s in shapes)
problems = 0
for index, n in enumerate(range(12, 16)):
    image = f["features"][n].reshape(shapes[index]).transpose(1, 2, 0).copy()
    boxed = np.zeros(image.shape[:2], bool)
    for left, top, width, height in zip(f["bbox_lefts"][n], f["bbox_tops"][n],
                                        f["bbox_widths"][n], f["bbox_heights"][n]):
        right, bottom = left + max(width, 1) - 1, top + max(height, 1) - 1
        for y in range(top, min(bottom, image.shape[0] - 1) + 1):
            for x in (left, right):
                if x < image.shape[1]:
                    boxed[y, x] = True
        for x in range(left, min(right, image.shape[1] - 1) + 1):
            for y in (top, bottom):
                if y < image.shape[0]:
                    boxed[y, x] = True
    image[boxed] = (255, 0, 0)
    row, column = divmod(index, 2)
    top, left = 2 + row * (tile_h + 2), 2 + column * (tile_w + 2)
    tile = grid[top:top + tile_h, left:left + tile_w]
    problems += not np.array_equal(tile[:image.shape[0], :image.shape[1]], image)
    problems += int(tile[image.shape[0]:, :].any() or tile[:, image.shape[1]:].any())
print(problems, grid.shape)
EOF2
    [ "${output%% *}" = "0" ]
}

@test "non-image sources and missing inputs: exit 2 or 3 with a clear message, no file" {
    run fuel preview "$EXPECTED/iris.hdf5" -o "$GRID"
    [ "$status" -eq 2 ]
    [ "$output" = "fuel-preview: source features is not an image (axes feature): images have (channel,) height and width axes" ]
    run fuel preview "$EXPECTED/cifar100.hdf5" -o "$GRID" --source fine_labels
    [ "$status" -eq 2 ]
    [ ! -e "$GRID" ]
    run fuel preview "$BATS_TEST_TMPDIR/absent.hdf5" -o "$GRID"
    [ "$status" -eq 3 ]
    run fuel preview "$EXPECTED/mnist.hdf5"
    [ "$status" -eq 2 ]
    run fuel preview "$EXPECTED/mnist.hdf5" -o "$GRID" -n 5000
    [ "$status" -eq 2 ]
    run fuel-preview -h
    [ "$status" -eq 0 ]
    [[ "$output" == *"--zoom K"* ]]
}

@test "-o - writes the PNG to standard output and the labels to standard error; no file named -" {
    cd "$BATS_TEST_TMPDIR"
    fuel preview "$EXPECTED/cifar10.hdf5" -o "$GRID" -n 10 > "$LABELS"
    fuel preview "$EXPECTED/cifar10.hdf5" -o - -n 10 > piped.png 2> piped.labels
    cmp "$GRID" piped.png
    cmp "$LABELS" piped.labels
    [ ! -e ./- ]
    run --separate-stderr fuel preview "$EXPECTED/iris.hdf5" -o -
    [ "$status" -eq 2 ]
    [ -z "$output" ]
    [[ "$stderr" == "fuel-preview: source features is not an image"* ]]
}

@test "class names beside the labels where the file's card names them (Fashion-MNIST's garments)" {
    fuel fixture fashion_mnist -o "$BATS_TEST_TMPDIR" -n 13
    fuel preview "$BATS_TEST_TMPDIR/fashion_mnist.hdf5" -o "$GRID" -n 13 > "$LABELS"
    run $PYTHON "$CHECK" preview "$GRID" "$LABELS" "$BATS_TEST_TMPDIR/fashion_mnist.hdf5" train 13 1
    [ "$status" -eq 0 ]
    [[ "$(cat "$LABELS")" == *"9:Ankle_boot"* ]]
}
