"""Pixels that deflate compresses as it does photographs (for benchmark inputs: random pixels
would make stored blocks and measure no inflate at all).

Each image is a smooth scene (a level, a tint per channel, a gradient, a blob) plus Gaussian noise;
the noise's sigma sets the compression: at zlib's default level about 0.81 for sigma 1.7 (SVHN's
train_32x32.mat: 182 MB for 225 MB of pixels) and 0.885 for sigma 3.3 at level 9
(cifar-10-python.tar.gz: 163 MB for 184 MB of pickles).
"""
import numpy


def scenes(generator, count, sigma):
    """COUNT images as a uint8 array (count, 3, 32, 32): channel, row, column."""
    y, x = numpy.mgrid[0:32, 0:32].astype(numpy.float32)
    shape = (count, 1, 1, 1)
    level = generator.uniform(30, 220, shape)
    tint = generator.normal(0, 20, (count, 3, 1, 1))
    slope_x, slope_y = generator.normal(0, 2.5, shape), generator.normal(0, 2.5, shape)
    centre_x, centre_y = generator.uniform(0, 32, shape), generator.uniform(0, 32, shape)
    height, radius = generator.normal(0, 50, shape), generator.uniform(4, 12, shape)
    blob = height * numpy.exp(-((x - centre_x) ** 2 + (y - centre_y) ** 2) / (2 * radius ** 2))
    scene = level + tint + slope_x * (x - 16) + slope_y * (y - 16) + blob
    scene += generator.normal(0, sigma, (count, 3, 32, 32))
    return numpy.clip(scene, 0, 255).astype(numpy.uint8)
