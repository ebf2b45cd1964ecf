#!/usr/bin/python3
"""The baseline of bench/stats.sh: h5py + numpy computing the per-channel mean and std (float64,
ddof 0) of a file's train features, in blocks of 4096 images as a training script would.

usage: stats_numpy.py FILE
"""
import sys

import h5py
import numpy


def main():
    with h5py.File(sys.argv[1], "r") as f:
        rows = [r for r in f.attrs["split"] if r["split"] == b"train" and r["source"] == b"features"]
        start, stop = int(rows[0]["start"]), int(rows[0]["stop"])
        features = f["features"]
        sums = numpy.zeros(features.shape[1])
        squares = numpy.zeros(features.shape[1])
        for first in range(start, stop, 4096):
            block = features[first:min(first + 4096, stop)].astype(numpy.float64)
            sums += block.sum(axis=(0, 2, 3))
            squares += numpy.square(block).sum(axis=(0, 2, 3))
        count = (stop - start) * features.shape[2] * features.shape[3]
        mean = sums / count
        print(mean, numpy.sqrt(squares / count - mean * mean))


main()
