#!/usr/bin/env bats
# Dataset cards: written into every converted file as fuel_card, with the converters' class order;
# shown by fuel info (text and --json) and fuel list --json; used by fuel stats; left out of the
# content digest.

bats_require_minimum_version 1.5.0

PYTHON=/usr/bin/python3

setup() {
    export HOME="$BATS_TEST_TMPDIR/home" FUEL_CONFIG="$BATS_TEST_TMPDIR/empty-fuelrc"
    : >"$FUEL_CONFIG"
    mkdir -p "$HOME"
    unset FUEL_DATA_PATH
    OUT="$BATS_TEST_TMPDIR/out"
}

# The card of FILE ($1) as fuel info --json shows it, checked by the Python of stdin as `card`.
card_check() {
    run --separate-stderr fuel info --json "$1"
    [ "$status" -eq 0 ] || { echo "$stderr"; false; }
    printf '%s\n' "$output" > "$BATS_TEST_TMPDIR/info.json"
    $PYTHON -c '
import json, sys
card = json.load(open(sys.argv[1]))["card"]
exec(sys.stdin.read())
' "$BATS_TEST_TMPDIR/info.json"
}

@test "the CIFAR-10 fixture's class 3 is cat, in the card and in fuel stats" {
    fuel fixture cifar10 -o "$OUT" -n 10 > /dev/null
    card_check "$OUT/cifar10.hdf5" <<'PY'
assert card["classes"]["targets"][3] == "cat", card["classes"]
assert len(card["classes"]["targets"]) == 10
assert card["licence"] == "not stated by the publisher" and "kriz" in card["licence_source"]
assert "ciFAIR" in card["known_issues"][0]["issue"] and "10.3390" in card["known_issues"][0]["reference"]
assert card["citation"].startswith("@techreport{krizhevsky2009learning,")
PY
    run fuel stats "$OUT/cifar10.hdf5" --split train --sources targets --json
    $PYTHON -c '
import json, sys, h5py
report = json.loads(sys.argv[1])
targets = h5py.File(sys.argv[2], "r")["targets"][:10, 0]
names = {c["class"]: c["name"] for c in report["splits"][0]["sources"][0]["classes"]}
assert names[3] == "cat" and names[0] == "airplane" and len(names) == 10, names
' "$output" "$OUT/cifar10.hdf5"
}

@test "real Fashion-MNIST: the documented class order (the repository's Labels table), MIT" {
    fuel convert fashion_mnist -d /usr/share/datasets/fashion-mnist -o "$OUT" > /dev/null
    card_check "$OUT/fashion_mnist.hdf5" <<'PY'
assert card["classes"]["targets"] == ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
    "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot"], card["classes"]
assert card["licence"] == "MIT" and "zalandoresearch/fashion-mnist" in card["licence_source"]
assert "issues/44" in card["known_issues"][0]["reference"]
PY
    run fuel stats "$OUT/fashion_mnist.hdf5" --split test --sources targets
    [ "${lines[3]}" = "    class 0 T-shirt/top              1000" ]
    [ "${lines[12]}" = "    class 9 Ankle boot               1000" ]
}

@test "every built-in dataset's fixture carries its card; class names only of sources it holds" {
    local dataset checks=() number=0
    for dataset in mnist fashion_mnist binarized_mnist cifar10 cifar100 "svhn 1" "svhn 2" iris \
        adult "caltech101_silhouettes 16" "celeba 64" dogs_vs_cats ilsvrc2012 ilsvrc2010; do
        number=$((number + 1))
        fuel fixture $dataset -o "$OUT/$number" > /dev/null
        local made=("$OUT/$number"/*.hdf5)
        checks+=("${made[0]}" "${dataset% *}")
    done
    # Every fixture's card in one start: FILE DATASET pairs.
    $PYTHON - "${checks[@]}" <<'PY'
import json, sys, h5py
for path, dataset in zip(sys.argv[1::2], sys.argv[2::2]):
    try:
        f = h5py.File(path, "r")
        card = json.loads(f.attrs["fuel_card"])
        assert card["dataset"] == dataset, card["dataset"]
        for key in "homepage", "licence", "licence_source", "citation":
            assert isinstance(card[key], str) and card[key], key
        assert card["citation"].startswith("@") and card["citation"].rstrip().endswith("}")
        for source, names in card["classes"].items():
            assert source in f and len(names) > 0, source
            if f[source].dtype.kind in "biuf" and f[source].shape[1:] == (1,):
                assert f[source][()].max() < len(names), (source, f[source][()].max(), len(names))
        for issue in card["known_issues"]:
            assert issue["issue"] and issue["reference"], issue
        # a class each fixture names as its dataset does (the silhouettes' from the raw file's classnames)
        named = {"mnist": ("targets", 7, "7"), "fashion_mnist": ("targets", 9, "Ankle boot"),
                 "cifar10": ("targets", 3, "cat"), "cifar100": ("fine_labels", 99, "worm"),
                 "caltech101_silhouettes": ("targets", 42, "class_042"), "dogs_vs_cats": ("targets", 1, "dog")}
        if dataset in named:
            source, label, name = named[dataset]
            assert card["classes"][source][label] == name, (source, card["classes"].get(source))
    except AssertionError as error:
        sys.exit("%s: %r" % (dataset, error))
PY
}

@test "SVHN: format 1 names bbox_labels, format 2 targets, digit 0 as class 0" {
    fuel fixture svhn 2 -o "$OUT" -n 3 > /dev/null
    card_check "$OUT/svhn_format_2.hdf5" <<'PY'
assert list(card["classes"]) == ["targets"] and card["classes"]["targets"][0] == "0", card["classes"]
assert card["licence"] == "for non-commercial use only"
PY
    fuel fixture svhn 1 -o "$OUT" -n 3 > /dev/null
    card_check "$OUT/svhn_format_1.hdf5" <<'PY'
assert list(card["classes"]) == ["bbox_labels"], card["classes"]
PY
}

@test "ImageNet's class names are the devkit's synsets, in the targets' numbering" {
    fuel fixture ilsvrc2012 -o "$OUT" -n 3 > /dev/null
    fuel fixture ilsvrc2012 --raw -o "$BATS_TEST_TMPDIR/raw" > /dev/null
    card_check "$OUT/ilsvrc2012.hdf5" <<'PY'
names = card["classes"]["targets"]
assert len(names) >= 2 and all(name.startswith("n") and len(name) == 9 for name in names), names
PY
    $PYTHON - "$OUT/ilsvrc2012.hdf5" <<'PY'
import json, sys, h5py
f = h5py.File(sys.argv[1], "r")
names = json.loads(f.attrs["fuel_card"])["classes"]["targets"]
rows = [r for r in f.attrs["split"] if r["split"] == b"train" and r["source"] == b"filenames"][0]
for filename, target in zip(f["filenames"][rows["start"]:rows["stop"], 0], f["targets"][rows["start"]:rows["stop"], 0]):
    assert filename.decode().startswith(names[target]), (filename, target, names[target])
PY
}

@test "CalTech 101 Silhouettes: the 101 class names read from the file's classnames, from label 1" {
    local raw="$FUEL_FIXTURES/raw/caltech101_silhouettes28"
    fuel convert caltech101_silhouettes 28 -d "$raw" -o "$OUT" > /dev/null
    card_check "$OUT/caltech101_silhouettes28.hdf5" <<'PY'
assert card["classes"]["targets"] == [None] + ["class_%03d" % n for n in range(1, 102)], card["classes"]
PY
    run fuel info "$OUT/caltech101_silhouettes28.hdf5"
    [[ "$output" == *"    classes of targets: 1 class_001, 2 class_002, "*", ... and 91 more"* ]]
    # other names in the file, and a label named by its own string (label 42 by the 42nd)
    mkdir "$BATS_TEST_TMPDIR/renamed"
    $PYTHON - "$raw/caltech101_silhouettes_28_split1.mat" "$BATS_TEST_TMPDIR/renamed/caltech101_silhouettes_28_split1.mat" <<'PY'
import sys, numpy, scipy.io
mat = {k: v for k, v in scipy.io.loadmat(sys.argv[1]).items() if not k.startswith("__")}
names = numpy.empty((1, 101), dtype=object)
for index in range(101):
    names[0, index] = "shape %d" % (index + 1)
mat["classnames"] = names
scipy.io.savemat(sys.argv[2], mat, do_compression=True)
PY
    fuel convert caltech101_silhouettes 28 -d "$BATS_TEST_TMPDIR/renamed" -o "$OUT" > /dev/null
    run --separate-stderr fuel stats "$OUT/caltech101_silhouettes28.hdf5" --split train --sources targets --json
    $PYTHON -c '
import json, sys, h5py
f = h5py.File(sys.argv[2], "r")
classes = {c["class"]: c for c in json.loads(sys.argv[1])["splits"][0]["sources"][0]["classes"]}
for label in f["targets"][:10, 0]:
    assert classes[label]["name"] == "shape %d" % label and classes[label]["examples"] > 0, label
assert 0 not in classes and sorted(classes) == list(range(1, 102)), sorted(classes)
' "$output" "$OUT/caltech101_silhouettes28.hdf5"
    # classnames not a cell of strings: refused, nothing written
    $PYTHON - "$raw/caltech101_silhouettes_28_split1.mat" "$BATS_TEST_TMPDIR/renamed/caltech101_silhouettes_28_split1.mat" <<'PY'
import sys, numpy, scipy.io
mat = {k: v for k, v in scipy.io.loadmat(sys.argv[1]).items() if not k.startswith("__")}
mat["classnames"] = numpy.arange(101.0).reshape(1, 101)
scipy.io.savemat(sys.argv[2], mat, do_compression=True)
PY
    rm -rf "$OUT"
    run --separate-stderr fuel convert caltech101_silhouettes 28 -d "$BATS_TEST_TMPDIR/renamed" -o "$OUT"
    [ "$status" -eq 4 ]
    [ "$stderr" = "fuel-convert: cannot convert CalTech 101 Silhouettes: $BATS_TEST_TMPDIR/renamed/caltech101_silhouettes_28_split1.mat: not a cell array of at most 65535 strings: classnames" ]
    [ -z "$(ls -A "$OUT" 2>/dev/null)" ]
}

@test "CelebA: the 40 attributes counted in fuel stats, each with its name" {
    fuel fixture celeba 64 -o "$OUT" > /dev/null
    run --separate-stderr fuel stats "$OUT/celeba_64.hdf5" --split train --sources targets --json
    [ "$status" -eq 0 ]
    $PYTHON -c '
import json, sys, h5py
f = h5py.File(sys.argv[2], "r")
entry = json.loads(sys.argv[1])["splits"][0]["sources"][0]
names = json.loads(f.attrs["fuel_card"])["classes"]["targets"]
row = [r for r in f.attrs["split"] if r["split"] == b"train" and r["source"] == b"targets"][0]
counts = (f["targets"][row["start"]:row["stop"]] != 0).sum(axis=0)
assert [(a["attribute"], a["name"], a["examples"]) for a in entry["attributes"]] == \
    [(i, names[i], int(counts[i])) for i in range(40)], entry["attributes"]
assert names[0] == "5_o_Clock_Shadow" and names[39] == "Young" and "classes" not in entry
' "$output" "$OUT/celeba_64.hdf5"
    run fuel stats "$OUT/celeba_64.hdf5" --split train --sources targets
    [[ "${lines[3]}" =~ ^"    attribute 0 5_o_Clock_Shadow     "[0-9]+$ ]]
    [[ "${lines[42]}" =~ ^"    attribute 39 Young               "[0-9]+$ ]]
}

@test "Adult: the features' column names, each categorical block one-hot, the income bands" {
    fuel fixture adult -o "$OUT" > /dev/null
    $PYTHON - "$OUT/adult.hdf5" <<'PY'
import json, sys, h5py, numpy
f = h5py.File(sys.argv[1], "r")
card = json.loads(f.attrs["fuel_card"])
names = card["feature_names"]["features"]
features = f["features"][()]
assert len(names) == features.shape[1] and names[0] == "age" and names[1].startswith("workclass="), names[:3]
for prefix in sorted({name.split("=")[0] for name in names if "=" in name}):
    columns = [index for index, name in enumerate(names) if name.startswith(prefix + "=")]
    assert (features[:, columns].sum(axis=1) == 1).all(), prefix
assert card["classes"]["targets"] == ["<=50K", ">50K"]
PY
    run fuel info "$OUT/adult.hdf5"
    [[ "$output" == *"    feature names of features: 0 age, 1 workclass="* ]]
}

@test "fuel info shows a short card section; --json and fuel list --json the whole card" {
    fuel fixture mnist -o "$OUT" -n 3 > /dev/null
    run fuel info "$OUT/mnist.hdf5"
    [ "$status" -eq 0 ]
    local card
    card=$(sed -n '/^Card$/,/^Provenance$/p' <<< "$output")
    [[ "$card" == *"    homepage: http://yann.lecun.com/exdb/mnist/"* ]]
    [[ "$card" == *"    licence: CC-BY-SA-3.0 (source: disputed: "* ]]
    [[ "$card" == *"    citation: @article{lecun1998gradient, ... (fuel info --json has it whole)"* ]]
    [[ "$card" == *"    classes of targets: 0 0, 1 1, 2 2, 3 3, 4 4, 5 5, 6 6, 7 7, 8 8, 9 9"* ]]
    [[ "$output" != *"fuel_card:"* ]]
    run fuel list --json
    [ "$status" -eq 0 ]
    $PYTHON -c '
import json, sys
datasets = json.loads(sys.argv[1])
assert all(d["card"] is not None for d in datasets), [d["name"] for d in datasets if d["card"] is None]
cifar = [d for d in datasets if d["name"] == "cifar100"][0]["card"]
assert len(cifar["classes"]["fine_labels"]) == 100 and len(cifar["classes"]["coarse_labels"]) == 20
assert cifar["classes"]["coarse_labels"][14] == "people"
' "$output"
}

@test "the card is not content: the digest without it is the same, fuel diff finds no difference" {
    fuel fixture iris -o "$OUT" > /dev/null
    cp "$OUT/iris.hdf5" "$BATS_TEST_TMPDIR/bare.hdf5"
    $PYTHON -c 'import h5py, sys; f = h5py.File(sys.argv[1], "r+"); del f.attrs["fuel_card"]' "$BATS_TEST_TMPDIR/bare.hdf5"
    digest() { fuel info --json "$1" | $PYTHON -c 'import json, sys; print(json.load(sys.stdin)["content_digest"])'; }
    [ "$(digest "$OUT/iris.hdf5")" = "$(digest "$BATS_TEST_TMPDIR/bare.hdf5")" ]
    run fuel diff "$OUT/iris.hdf5" "$BATS_TEST_TMPDIR/bare.hdf5"
    [ "$status" -eq 0 ]
}
