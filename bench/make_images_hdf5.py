#!/usr/bin/python3
"""Writes an H5PYDataset file of uint8 images for bench/stats.sh: EXAMPLES (default 87,381, 1 GiB of
pixels) 3 x 64 x 64 images, train then test (a tenth), labelled (batch, channel, height, width) as
the converters label images; pixels a smooth gradient per image plus noise, deterministic.

usage: make_images_hdf5.py FILE [EXAMPLES]
"""
import sys

import h5py
import numpy


def main():
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 87381
    generator = numpy.random.default_rng(2026)
    ramp = numpy.linspace(0, 180, 64, dtype=numpy.float32)
    with h5py.File(sys.argv[1], "w") as f:
        features = f.create_dataset("features", (count, 3, 64, 64), numpy.uint8)
        for first in range(0, count, 4096):
            n = min(4096, count - first)
            base = generator.integers(0, 60, (n, 3, 1, 1)).astype(numpy.float32)
            noise = generator.integers(0, 16, (n, 3, 64, 64)).astype(numpy.float32)
            features[first:first + n] = (base + ramp[None, None, :, None] + noise).astype(numpy.uint8)
        f["targets"] = generator.integers(0, 10, (count, 1)).astype(numpy.uint8)
        layout_write(f, count)


def layout_write(f, count):
    """Labels the axes of F's features (images) and targets and splits COUNT examples into train
    and test (the last tenth), as H5PYDataset reads them."""
    for name, labels in (("features", ("batch", "channel", "height", "width")),
                         ("targets", ("batch", "index"))):
        for axis, label in enumerate(labels):
            f[name].dims[axis].label = label
    train = count - count // 10
    rows = [(split, source, start, stop, None, True, b".")
            for split, start, stop in ((b"train", 0, train), (b"test", train, count))
            for source in (b"features", b"targets")]
    dtype = numpy.dtype([("split", "S5"), ("source", "S8"), ("start", numpy.int64),
                         ("stop", numpy.int64), ("indices", h5py.special_dtype(ref=h5py.Reference)),
                         ("available", bool), ("comment", "S1")])
    f.attrs["split"] = numpy.array(rows, dtype=dtype)
    f.attrs["h5py_interface_version"] = "0.3"


if __name__ == "__main__":
    main()
