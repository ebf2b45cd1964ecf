#!/usr/bin/python3
"""Writes full-size binarized MNIST .amat files (50,000 + 10,000 + 10,000 rows of 784 values).

usage: make_binarized_mnist.py DIRECTORY
Each row is 784 space-separated 0/1 values, as the real files hold them; the pixels are blobs
rather than noise, so the rows look like thresholded digits.
"""
import os
import sys

import numpy

ROWS = {"train": 50000, "valid": 10000, "test": 10000}


def write(path, rows, generator):
    with open(path, "wb") as handle:
        for start in range(0, rows, 5000):
            count = min(5000, rows - start)
            centres = generator.integers(6, 22, (count, 2, 1, 1))
            y, x = numpy.mgrid[0:28, 0:28]
            distance = (y - centres[:, 0]) ** 2 + (x - centres[:, 1]) ** 2
            bits = (distance < generator.integers(20, 60, (count, 1, 1))).reshape(count, 784)
            text = numpy.where(bits, b"1", b"0").astype("S1")
            lines = numpy.full((count, 784 * 2), b" ", dtype="S1")
            lines[:, 0::2] = text
            lines[:, -1] = b"\n"
            handle.write(lines.tobytes())


def main():
    directory = sys.argv[1]
    generator = numpy.random.default_rng(7)
    for split, rows in ROWS.items():
        write(os.path.join(directory, "binarized_mnist_%s.amat" % split), rows, generator)


if __name__ == "__main__":
    main()
