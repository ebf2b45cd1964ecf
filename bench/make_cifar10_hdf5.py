#!/usr/bin/python3
"""Writes a full-size CIFAR-10 H5PYDataset file (50,000 train + 10,000 test, Fuel's layout) with
the images bench/make_cifar.py makes (smooth scenes plus noise, compressing like photographs),
without the minute of building and converting the archive.

usage: make_cifar10_hdf5.py FILE
"""
import os
import sys

import h5py
import numpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_cifar import images  # noqa: E402


def main():
    generator = numpy.random.default_rng(2026)
    count = 60000
    with h5py.File(sys.argv[1], "w") as f:
        features = f.create_dataset("features", (count, 3, 32, 32), numpy.uint8)
        for first in range(0, count, 10000):
            features[first:first + 10000] = images(generator, 10000).reshape(10000, 3, 32, 32)
        f["targets"] = generator.integers(0, 10, (count, 1)).astype(numpy.uint8)
        for name, labels in (("features", ("batch", "channel", "height", "width")),
                             ("targets", ("batch", "index"))):
            for axis, label in enumerate(labels):
                f[name].dims[axis].label = label
        rows = [(split, source, start, stop, None, True, b".")
                for split, start, stop in ((b"train", 0, 50000), (b"test", 50000, 60000))
                for source in (b"features", b"targets")]
        f.attrs["split"] = numpy.array(rows, dtype=[
            ("split", "S5"), ("source", "S8"), ("start", "<i8"), ("stop", "<i8"),
            ("indices", h5py.special_dtype(ref=h5py.Reference)), ("available", bool),
            ("comment", "S1")])


if __name__ == "__main__":
    main()
