#!/usr/bin/python3
"""Writes an H5PYDataset file of COUNT (default 1,431,167: ILSVRC2012's images) gray 16 x 16 uint8
images of noise for bench/duplicates.sh's --near at ImageNet's scale, train then test (a tenth),
with 1,000 exact copies and 1,000 copies two levels brighter planted: distinct images are about
128 bits apart, each copy within a few of its original. Deterministic.

usage: make_noise_hdf5.py FILE [COUNT]
"""
import sys

import h5py
import numpy

import make_images_hdf5


def main():
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 1431167
    generator = numpy.random.default_rng(1431167)
    with h5py.File(sys.argv[1], "w") as f:
        features = f.create_dataset("features", (count, 1, 16, 16), numpy.uint8,
                                    chunks=(4096, 1, 16, 16))
        for first in range(0, count, 65536):
            n = min(65536, count - first)
            features[first:first + n] = generator.integers(20, 236, (n, 1, 16, 16), numpy.uint8)
        places = generator.choice(count, 4000, replace=False)
        for original, copy in zip(places[:1000], places[1000:2000]):
            features[copy] = features[original]
        for original, copy in zip(places[2000:3000], places[3000:4000]):
            features[copy] = features[original] + 2
        f["targets"] = generator.integers(0, 1000, (count, 1)).astype(numpy.int16)
        make_images_hdf5.layout_write(f, count)


main()
