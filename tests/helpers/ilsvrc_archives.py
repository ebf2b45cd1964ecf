#!/usr/bin/python3
"""Builds small ILSVRC raw files with the real tools, and checks a converted file against them.

usage: ilsvrc_archives.py make DIRECTORY [--year 2012|2010] [--train N] [--valid N] [--test N]
                          [--seed S]
       ilsvrc_archives.py expect DIRECTORY FILE [--year 2012|2010] [--shuffle-seed S]

`make` writes the devkit (scipy.io.savemat of a struct array of synsets: 5 leaf classes, 2 parents,
num_children and the other counts as integers so that Fuel's read_metadata_mat_file runs on a
current numpy), a training tar of per-class tars (tarfile; per-class tars and their members in
an unsorted order), validation and test tars (unsorted), PIL's JPEGs of RGB, grayscale and CMYK
pictures, one PNG named .JPEG; for 2010 also a test ground truth, patch_images.tar (one patch per
split) and gzip-wrapped JPEGs in the training tars.
`expect` derives from those files, by Fuel's rules (sorted names, numpy's permutation of the
training set, ids mapped to positions, patches replacing images, gzip members inflated), what
FILE must hold, and compares it value for value; it prints each difference and exits 1 on any.
"""
import argparse
import gzip
import io
import os
import sys
import tarfile

import numpy
import scipy.io
from PIL import Image

import photos

WNIDS = ["n01440764", "n01443537", "n01484850", "n01491361", "n01494475", "n01439121",
         "n00001740"]
LEAVES = 5


def layout(year):
    devkit = "ILSVRC2012_devkit_t12" if year == 2012 else "devkit-1.0"
    return {
        "devkit": "ILSVRC2012_devkit_t12.tar.gz" if year == 2012 else "ILSVRC2010_devkit-1.0.tar.gz",
        "meta": f"{devkit}/data/meta.mat",
        "truth": f"{devkit}/data/ILSVRC{year}_validation_ground_truth.txt",
        "train": f"ILSVRC{year}_img_train.tar" if year == 2012 else "ILSVRC2010_images_train.tar",
        "valid": f"ILSVRC{year}_img_val.tar" if year == 2012 else "ILSVRC2010_images_val.tar",
        "test": f"ILSVRC{year}_img_test.tar" if year == 2012 else "ILSVRC2010_images_test.tar",
        "id": f"ILSVRC{year}_ID",
        "prefix": f"ILSVRC{year}_",
    }


def encode(rng, kind, index):
    picture = photos.picture(rng, 24 + int(rng.integers(40)), 24 + int(rng.integers(40)))
    image = Image.fromarray(picture)
    if kind == "L":
        image = image.convert("L")
    elif kind == "CMYK":
        image = image.convert("CMYK")
    out = io.BytesIO()
    image.save(out, format="PNG" if kind == "PNG" else "JPEG", quality=85 + index % 10)
    return out.getvalue()


def add(tar, name, data):
    info = tarfile.TarInfo(name)
    info.size = len(data)
    tar.addfile(info, io.BytesIO(data))


def unsorted(names):
    return names[1::2][::-1] + names[0::2]


def write_meta(path, year, counts):
    fields = [(layout(year)["id"], "O"), ("WNID", "O"), ("words", "O"), ("gloss", "O"),
              ("num_children", "O"), ("children", "O"), ("wordnet_height", "O"),
              ("num_train_images", "O")]
    rows = []
    for index, wnid in enumerate(WNIDS):
        leaf = index < LEAVES
        children = (numpy.zeros((0, 0)) if leaf else
                    numpy.arange(1, LEAVES + 1, dtype=numpy.uint16) if index == LEAVES else
                    numpy.array([LEAVES + 1], dtype=numpy.uint16))
        rows.append((numpy.uint16(index + 1), wnid, f"words of {wnid}", f"gloss of {wnid}",
                     numpy.uint8(0 if leaf else len(numpy.atleast_1d(children))), children,
                     numpy.uint8(0 if leaf else index - LEAVES + 1),
                     numpy.uint16(counts[index] if leaf else 0)))
    synsets = numpy.array(rows, dtype=fields).reshape(-1, 1)
    variables = {"synsets": synsets}
    if year == 2010:
        variables["cost_matrix"] = numpy.ones((LEAVES, LEAVES), dtype=numpy.uint8)
    scipy.io.savemat(path, variables, do_compression=True)


def make(arguments):
    year, directory = arguments.year, arguments.directory
    names = layout(year)
    rng = numpy.random.default_rng(arguments.seed)
    os.makedirs(directory, exist_ok=True)
    counts = [arguments.train // LEAVES + (c < arguments.train % LEAVES) for c in range(LEAVES)]
    meta = os.path.join(directory, "meta.mat.tmp")
    write_meta(meta, year, counts)
    truth = "".join(f"{int(rng.integers(1, LEAVES + 1))}\n" for _ in range(arguments.valid))
    with tarfile.open(os.path.join(directory, names["devkit"]), "w:gz") as tar:
        tar.add(meta, arcname=names["meta"])
        add(tar, names["truth"], truth.encode())
    os.remove(meta)
    kinds = ["RGB", "L", "CMYK", "RGB", "PNG", "RGB", "RGB"]
    image = 0
    with tarfile.open(os.path.join(directory, names["train"]), "w") as outer:
        for leaf in [3, 0, 4, 2, 1]:
            inner_bytes = io.BytesIO()
            with tarfile.open(fileobj=inner_bytes, mode="w") as inner:
                members = sorted(f"{WNIDS[leaf]}_{100 + 7 * k}.JPEG" for k in range(counts[leaf]))
                for member in unsorted(members):
                    data = encode(rng, kinds[image % len(kinds)] if image != 4 else "PNG", image)
                    if year == 2010 and image % 3 == 1:
                        data = gzip.compress(data)
                    add(inner, member, data)
                    image += 1
            add(outer, f"{WNIDS[leaf]}.tar", inner_bytes.getvalue())
    for split, count in (("valid", arguments.valid), ("test", arguments.test)):
        tag = "val" if split == "valid" else "test"
        members = [f"{names['prefix']}{tag}_{k:08d}.JPEG" for k in range(1, count + 1)]
        with tarfile.open(os.path.join(directory, names[split]), "w") as tar:
            for index, member in enumerate(unsorted(members)):
                add(tar, member, encode(rng, kinds[(index + 1) % len(kinds)], index))
    if year == 2010:
        truth = "".join(f"{int(rng.integers(1, LEAVES + 1))}\n" for _ in range(arguments.test))
        with open(os.path.join(directory, "ILSVRC2010_test_ground_truth.txt"), "w") as out:
            out.write(truth)
        with tarfile.open(os.path.join(directory, "patch_images.tar"), "w") as tar:
            add(tar, f"patch_images/train/{WNIDS[0]}_107.JPEG", encode(rng, "RGB", 1))
            add(tar, "patch_images/val/ILSVRC2010_val_00000002.JPEG", encode(rng, "RGB", 2))
            add(tar, "patch_images/test/ILSVRC2010_test_00000001.JPEG", encode(rng, "RGB", 3))
            add(tar, "patch_images/readme.txt", b"not an image")


def members(tar):
    return {info.name: tar.extractfile(info).read() for info in tar if info.isfile()}


def expected(arguments):
    """Fuel's file, derived: (images, targets or None, filenames) per split."""
    year, directory = arguments.year, arguments.directory
    names = layout(year)
    with tarfile.open(os.path.join(directory, names["devkit"])) as tar:
        synsets = scipy.io.loadmat(tar.extractfile(names["meta"]), squeeze_me=True)["synsets"]
        truth = [int(line) for line in tar.extractfile(names["truth"]).read().split()]
    ids = [int(value) for value in synsets[names["id"]]]
    classes = {str(wnid): index for index, wnid in enumerate(synsets["WNID"][:1000])}
    patches = {}
    if year == 2010:
        with tarfile.open(os.path.join(directory, "patch_images.tar")) as tar:
            for name, data in members(tar).items():
                if name.endswith(".JPEG"):
                    patches[(name.split("/")[-2], name.split("/")[-1])] = data

    def stored(data, split, name):
        data = patches.get((split, name), data)
        return gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data

    train = []
    with tarfile.open(os.path.join(directory, names["train"])) as outer:
        for info in outer:
            inner = members(tarfile.open(fileobj=outer.extractfile(info)))
            for name in sorted(inner):
                train.append((stored(inner[name], "train", name), classes[info.name.split(".")[0]],
                              name))
    order = numpy.random.RandomState(arguments.shuffle_seed).permutation(len(train))
    placed = [None] * len(train)
    for arrival, place in enumerate(order):
        placed[place] = train[arrival]
    splits = [placed]
    truths = {"valid": truth}
    if year == 2010:
        with open(os.path.join(directory, "ILSVRC2010_test_ground_truth.txt")) as text:
            truths["test"] = [int(line) for line in text.read().split()]
    for split in ("valid", "test"):
        with tarfile.open(os.path.join(directory, names[split])) as tar:
            images = members(tar)
        tag = "val" if split == "valid" else "test"
        labels = [ids.index(value) for value in truths[split]] if split in truths else None
        splits.append([(stored(images[name], tag, name), labels[rank] if labels else None, name)
                       for rank, name in enumerate(sorted(images))])
    return splits


def expect(arguments):
    import h5py
    splits = expected(arguments)
    problems = []
    with h5py.File(arguments.file, "r") as handle:
        images, targets, names = handle["encoded_images"], handle["targets"], handle["filenames"]
        if "encoded_images_shapes" in handle or handle["encoded_images"].dims[0].keys():
            problems.append("encoded_images has scales")
        if targets.dtype != numpy.int16 or names.dtype != numpy.dtype("S32"):
            problems.append(f"dtypes {targets.dtype} {names.dtype}")
        row = 0
        for split in splits:
            for data, target, name in split:
                if bytes(images[row]) != data:
                    problems.append(f"row {row} ({name}): image bytes differ")
                if names[row, 0] != name.encode()[:32]:
                    problems.append(f"row {row}: filename {names[row, 0]!r}, expected {name!r}")
                if target is not None and targets[row, 0] != target:
                    problems.append(f"row {row} ({name}): target {targets[row, 0]}, expected {target}")
                row += 1
        if images.shape != (row,):
            problems.append(f"encoded_images {images.shape}, expected ({row},)")
        labelled = row if arguments.year == 2010 else row - len(splits[2])
        if targets.shape != (labelled, 1):
            problems.append(f"targets {targets.shape}, expected ({labelled}, 1)")
    for problem in problems:
        print(problem)
    return 1 if problems else 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("command", choices=["make", "expect"])
    parser.add_argument("directory")
    parser.add_argument("file", nargs="?")
    parser.add_argument("--year", type=int, default=2012, choices=[2012, 2010])
    parser.add_argument("--train", type=int, default=23)
    parser.add_argument("--valid", type=int, default=7)
    parser.add_argument("--test", type=int, default=6)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--shuffle-seed", type=int, default=1)
    arguments = parser.parse_args()
    if arguments.command == "make":
        make(arguments)
        return 0
    return expect(arguments)


if __name__ == "__main__":
    sys.exit(main())
