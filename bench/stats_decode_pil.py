#!/usr/bin/python3
"""The baseline of bench/stats_decode.sh: what a training script does for the same figures, each
stored JPEG of a file's train split decoded by PIL and made RGB (torchvision's loader:
Image.open(file).convert("RGB")), then each channel's sum and sum of squares in float64 (numpy).
Prints the images, the pixels, and each channel's mean and std (ddof 0).

usage: stats_decode_pil.py FILE [SOURCE]
"""
import io
import sys

import h5py
import numpy
from PIL import Image


def main():
    source = sys.argv[2] if len(sys.argv) > 2 else "encoded_images"
    with h5py.File(sys.argv[1], "r") as f:
        rows = [r for r in f.attrs["split"] if r["split"] == b"train" and r["source"] == source.encode()]
        start, stop = int(rows[0]["start"]), int(rows[0]["stop"])
        images = f[source]
        sums = numpy.zeros(3)
        squares = numpy.zeros(3)
        pixels = 0
        for index in range(start, stop):
            rgb = numpy.asarray(Image.open(io.BytesIO(images[index].tobytes())).convert("RGB"))
            values = rgb.reshape(-1, 3).astype(numpy.float64)
            sums += values.sum(axis=0)
            squares += numpy.square(values).sum(axis=0)
            pixels += values.shape[0]
        mean = sums / pixels
        print(stop - start, pixels, mean, numpy.sqrt(squares / pixels - mean * mean))


main()
