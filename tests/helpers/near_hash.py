"""fuel duplicates --near's perceptual hash (duplicates/perceptual_hash.c) in numpy, and the pairs
of images within a threshold found by brute force: the oracle the tests and the false positive
figure compare fuel with.

usage: near_hash.py pairs FILE SOURCE THRESHOLD [SAMPLE]
  prints "SPLIT INDEX SPLIT INDEX DISTANCE" for every pair of examples of SOURCE (uint8 with a
  channel axis) within THRESHOLD bits; with SAMPLE, only pairs with one of the first SAMPLE test
  examples and the other in train (Fashion-MNIST's test against train)."""
import sys

import numpy

SIDE, KEPT = 32, 16


def box_weights(count):
    """The SIDE x COUNT matrix of the area-weighted box resampling of COUNT values to SIDE."""
    weights = numpy.zeros((SIDE, count))
    span = count / SIDE
    for target in range(SIDE):
        low, high = target * span, (target + 1) * span
        for source in range(int(low), min(count, int(numpy.ceil(high)))):
            weights[target, source] = max(0.0, min(high, source + 1) - max(low, source))
    return weights / span


COSINES = numpy.array([[numpy.cos(numpy.pi * (u + 1) * (2 * x + 1) / (2.0 * SIDE))
                        for x in range(SIDE)] for u in range(KEPT)])


def gray(images):
    """(n, channels, height, width) uint8 to (n, height, width) float64 gray levels."""
    images = images.astype(numpy.float64)
    if images.shape[1] == 1:
        return images[:, 0]
    if images.shape[1] == 3:
        return 0.299 * images[:, 0] + 0.587 * images[:, 1] + 0.114 * images[:, 2]
    return images.mean(axis=1)


def hashes(images):
    """The 256-bit hashes of (n, channels, height, width) uint8 images as (n, 256) booleans."""
    plane = gray(images)
    rows, columns = box_weights(plane.shape[1]), box_weights(plane.shape[2])
    small = numpy.einsum('yi,nij,xj->nyx', rows, plane, columns)
    kept = numpy.einsum('uy,nyx,vx->nuv', COSINES, small, COSINES).reshape(len(images), -1)
    return kept > numpy.median(kept, axis=1, keepdims=True)


def distances(first, second):
    """The Hamming distances between every row of FIRST and every row of SECOND."""
    return (first[:, None, :] != second[None, :, :]).sum(axis=2)


def main():
    import h5py
    _, command, path, source, threshold = sys.argv[:5]
    threshold = int(threshold)
    with h5py.File(path, 'r') as file:
        splits = {}
        for row in file.attrs['split']:
            if row['source'].decode() == source:
                splits[row['split'].decode()] = (int(row['start']), int(row['stop']))
        data = file[source][:]
    bits = hashes(data)
    if len(sys.argv) > 5:
        test, train = splits['test'], splits['train']
        sample = int(sys.argv[5])
        candidates = bits[train[0]:train[1]]
        for index in range(sample):
            found = distances(bits[test[0] + index][None], candidates)[0]
            for other in numpy.nonzero(found <= threshold)[0]:
                print('train', other, 'test', index, found[other])
        return
    names = {}
    for split, (start, stop) in splits.items():
        for position in range(start, stop):
            names[position] = (split, position - start)
    found = distances(bits, bits)
    for first in range(len(bits)):
        for second in range(first + 1, len(bits)):
            if found[first, second] <= threshold:
                print(*names[first], *names[second], found[first, second])


if __name__ == '__main__':
    main()
