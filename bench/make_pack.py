#!/usr/bin/python3
"""Writes the inputs of fuel pack's benchmarks (bench/pack.sh, bench/compare.sh) in DIRECTORY: a
float32 .npy of about SIZE bytes (rows of 256 values, written by blocks) with its spec big.yaml, and
IMAGES JPEGs of photo-like pictures (100 distinct ones, repeated) in 10 class folders with their
spec images.yaml.

usage: make_pack.py DIRECTORY SIZE IMAGES SIDE
"""
import io
import os
import sys

import numpy
from numpy.lib import format
from PIL import Image

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "helpers"))
import photos  # noqa: E402

work, size, images, side = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
rows = max(1, size // (256 * 4))
generator = numpy.random.RandomState(0)
with open(os.path.join(work, "big.npy"), "wb") as f:
    format.write_array_header_1_0(f, {"descr": "<f4", "fortran_order": False, "shape": (rows, 256)})
    block = 16384
    for first in range(0, rows, block):
        count = min(block, rows - first)
        f.write(generator.standard_normal((count, 256)).astype("<f4").tobytes())
pictures = []
for number in range(100):
    buffer = io.BytesIO()
    Image.fromarray(photos.picture(generator, side, side)).save(buffer, "JPEG", quality=90)
    pictures.append(buffer.getvalue())
for number in range(images):
    folder = os.path.join(work, "images", "class%d" % (number % 10))
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "%06d.jpg" % number), "wb") as f:
        f.write(pictures[number % 100])
with open(os.path.join(work, "big.yaml"), "w") as f:
    f.write("name: big\nsplits: {all: {examples: %d}}\nsources: {data: {from: big.npy}}\n" % rows)
with open(os.path.join(work, "images.yaml"), "w") as f:
    f.write("name: images\nsplits: {all: {examples: %d}}\nsources:\n"
            "  features: {from: {images: images}}\n  targets: {from: {classes: images}}\n" % images)
