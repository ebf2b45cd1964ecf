#!/usr/bin/python3
"""Writes a synthetic ILSVRC2012 for bench/imagenet.sh: the devkit (scipy's savemat struct array of
1,000 leaf synsets, the counts as integers so that Fuel's own converter runs on a current numpy),
the training tar of per-class tars of 1,300 images each (the last one fewer), the validation and
test tars, all of photo-like JPEGs of ImageNet's typical size (500 x 375, PIL at quality 90,
about 100 KB: tests/helpers/photos.py). A pool of distinct pictures is encoded once and reused
under new member names, so that making 20,000 images takes seconds, not minutes.

usage: make_imagenet.py DIRECTORY TRAIN VALID TEST [--pool N]
"""
import argparse
import io
import os
import sys
import tarfile

import numpy
import scipy.io
from PIL import Image

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "helpers"))
import photos  # noqa: E402

PER_CLASS = 1300
CLASSES = 1000


def wnid(index):
    return "n%08d" % (1440764 + 37 * index)


def pool_make(generator, count):
    pool = []
    for index in range(count):
        picture = photos.picture(generator, 375, 500, detail=34.0, sigma=5.0)
        out = io.BytesIO()
        Image.fromarray(picture).save(out, format="JPEG", quality=90)
        pool.append(out.getvalue())
    return pool


def add(tar, name, data):
    info = tarfile.TarInfo(name)
    info.size = len(data)
    tar.addfile(info, io.BytesIO(data))


def write_devkit(directory, counts, valid, generator):
    fields = [("ILSVRC2012_ID", "O"), ("WNID", "O"), ("words", "O"), ("gloss", "O"),
              ("num_children", "O"), ("children", "O"), ("wordnet_height", "O"),
              ("num_train_images", "O")]
    rows = [(numpy.uint16(index + 1), wnid(index), "words", "gloss", numpy.uint8(0),
             numpy.zeros((0, 0)), numpy.uint8(0), numpy.uint16(counts[index]))
            for index in range(CLASSES)]
    meta = os.path.join(directory, "meta.mat")
    scipy.io.savemat(meta, {"synsets": numpy.array(rows, dtype=fields).reshape(-1, 1)})
    truth = "".join(f"{int(generator.integers(1, CLASSES + 1))}\n" for _ in range(valid))
    with tarfile.open(os.path.join(directory, "ILSVRC2012_devkit_t12.tar.gz"), "w:gz") as tar:
        tar.add(meta, arcname="ILSVRC2012_devkit_t12/data/meta.mat")
        add(tar, "ILSVRC2012_devkit_t12/data/ILSVRC2012_validation_ground_truth.txt",
            truth.encode())
    os.remove(meta)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("directory")
    parser.add_argument("train", type=int)
    parser.add_argument("valid", type=int)
    parser.add_argument("test", type=int)
    parser.add_argument("--pool", type=int, default=300)
    arguments = parser.parse_args()
    os.makedirs(arguments.directory, exist_ok=True)
    generator = numpy.random.default_rng(12)
    pool = pool_make(generator, arguments.pool)
    counts = [0] * CLASSES
    for image in range(arguments.train):
        counts[image // PER_CLASS] += 1
    write_devkit(arguments.directory, counts, arguments.valid, generator)
    image = 0
    with tarfile.open(os.path.join(arguments.directory, "ILSVRC2012_img_train.tar"), "w") as outer:
        for index, count in enumerate(counts):
            if count == 0:
                continue
            inner_path = os.path.join(arguments.directory, "class.tar")
            with tarfile.open(inner_path, "w") as inner:
                # Member names in the real archives' readdir order, not sorted.
                for number in generator.permutation(count):
                    add(inner, f"{wnid(index)}_{number + 1}.JPEG", pool[image % len(pool)])
                    image += 1
            outer.add(inner_path, arcname=f"{wnid(index)}.tar")
            os.remove(inner_path)
    for name, count in (("val", arguments.valid), ("test", arguments.test)):
        with tarfile.open(os.path.join(arguments.directory, f"ILSVRC2012_img_{name}.tar"), "w") as tar:
            for number in range(count):
                add(tar, f"ILSVRC2012_{name}_{number + 1:08d}.JPEG", pool[(image + number) % len(pool)])
    sizes = [len(data) for data in pool]
    print(f"{arguments.train + arguments.valid + arguments.test} JPEGs, mean {numpy.mean(sizes) / 1000:.0f} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
