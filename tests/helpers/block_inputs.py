#!/usr/bin/python3
"""Raw inputs of a chosen size for a converter, and a value-by-value check of what fuel made of them.

usage: block_inputs.py make DATASET DIRECTORY COUNT...
       block_inputs.py check DATASET DIRECTORY FILE [DTYPE [FILE DTYPE]...]
DATASET is mnist, binarized_mnist, iris, cifar10, cifar100 or svhn2; COUNT is the number of
examples of each split (mnist: train test [SIDE], SIDE the image side, default 28; binarized_mnist:
train valid test; iris: all; cifar10: data_batch_1..5 test_batch; cifar100: train test; svhn2:
train test extra). `make` writes the raw files into DIRECTORY in the real distributions' formats,
from a seeded generator. `check` reads those raw files here, with this file's own readers (gzip
and struct, text splitting, tarfile and pickle, scipy.io.loadmat), builds the arrays Fuel's
converters make of them, and compares FILE with them: sources, dtypes, shapes, every value, and
the split rows. Prints one line per difference and exits 1 when there is any.
"""
import gzip
import io
import os
import pickle
import struct
import sys
import tarfile

import h5py
import numpy
import scipy.io

MNIST_NAMES = {"train": ("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz"),
               "test": ("t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz")}
IRIS_CLASSES = ["Iris-setosa", "Iris-versicolor", "Iris-virginica"]
CIFAR10_MEMBERS = ["data_batch_%d" % index for index in range(1, 6)] + ["test_batch"]
CIFAR_ARCHIVES = {"cifar10": ("cifar-10-python.tar.gz", "cifar-10-batches-py"),
                  "cifar100": ("cifar-100-python.tar.gz", "cifar-100-python")}
SVHN_SPLITS = ["train", "test", "extra"]


def generator(counts):
    return numpy.random.default_rng(sum(counts) * 7919 + len(counts))


def pixels(random, shape):
    """Pixels that vary everywhere but compress: a ramp plus small noise, a fifth of them 0."""
    size = int(numpy.prod(shape))
    values = (numpy.arange(size, dtype=numpy.uint32) * 37 % 251).astype(numpy.uint8)
    values += random.integers(0, 4, size=size, dtype=numpy.uint8)
    values[random.integers(0, 5, size=size, dtype=numpy.uint8) == 0] = 0
    return values.reshape(shape)


def make_mnist(directory, counts):
    side = counts[2] if len(counts) > 2 else 28
    random = generator(counts)
    for split, count in zip(("train", "test"), counts[:2]):
        images, labels = MNIST_NAMES[split]
        data = pixels(random, (count, side, side))
        with gzip.open(os.path.join(directory, images), "wb", compresslevel=1) as stream:
            stream.write(struct.pack(">IIII", 2051, count, side, side) + data.tobytes())
        targets = random.integers(0, 10, size=count, dtype=numpy.uint8)
        with gzip.open(os.path.join(directory, labels), "wb", compresslevel=1) as stream:
            stream.write(struct.pack(">II", 2049, count) + targets.tobytes())


def read_idx(path, magic, rank):
    data = gzip.open(path).read()
    header = struct.unpack(">%dI" % (rank + 1), data[:4 * (rank + 1)])
    assert header[0] == magic, (path, header[0])
    return numpy.frombuffer(data[4 * (rank + 1):], numpy.uint8).reshape(header[1:])


def expect_mnist(directory, dtype):
    images = [read_idx(os.path.join(directory, MNIST_NAMES[split][0]), 2051, 3)
              for split in ("train", "test")]
    labels = [read_idx(os.path.join(directory, MNIST_NAMES[split][1]), 2049, 1)
              for split in ("train", "test")]
    features = numpy.concatenate(images)[:, numpy.newaxis]
    if dtype == "bool":
        features = features >= 128
    elif dtype != "uint8":
        features = features.astype(dtype) / numpy.array(255, dtype)
    targets = numpy.concatenate(labels)[:, numpy.newaxis]
    counts = [len(split) for split in images]
    return {"features": features, "targets": targets}, splits(["train", "test"], counts)


def make_binarized_mnist(directory, counts):
    random = generator(counts)
    for split, count in zip(("train", "valid", "test"), counts):
        bits = (pixels(random, (count, 784)) > 127).astype(numpy.uint8)
        lines = [" ".join("01"[bit] for bit in row) + "\n" for row in bits]
        with open(os.path.join(directory, "binarized_mnist_%s.amat" % split), "w") as stream:
            stream.writelines(lines)


def expect_binarized_mnist(directory, dtype):
    rows = []
    counts = []
    for split in ("train", "valid", "test"):
        with open(os.path.join(directory, "binarized_mnist_%s.amat" % split)) as stream:
            split_rows = [[int(value) for value in line.split()] for line in stream if line.strip()]
        rows.extend(split_rows)
        counts.append(len(split_rows))
    features = numpy.array(rows, numpy.uint8).reshape(-1, 1, 28, 28)
    return {"features": features}, splits(["train", "valid", "test"], counts)


def make_iris(directory, counts):
    random = generator(counts)
    with open(os.path.join(directory, "iris.data"), "w") as stream:
        for _ in range(counts[0]):
            values = random.integers(1, 80, size=4) / 10
            name = IRIS_CLASSES[random.integers(0, 3)]
            stream.write(",".join("%.1f" % value for value in values) + "," + name + "\n")
        stream.write("\n")


def expect_iris(directory, dtype):
    features, targets = [], []
    with open(os.path.join(directory, "iris.data")) as stream:
        for line in stream:
            if line.strip():
                fields = line.strip().split(",")
                features.append([numpy.float32(float(value)) for value in fields[:4]])
                targets.append([IRIS_CLASSES.index(fields[4])])
    sources = {"features": numpy.array(features, numpy.float32),
               "targets": numpy.array(targets, numpy.uint8)}
    return sources, splits(["all"], [len(features)])


def cifar_members(dataset, counts):
    if dataset == "cifar10":
        return list(zip(CIFAR10_MEMBERS, counts))
    return list(zip(["train", "test"], counts))


def cifar_batch(dataset, name, count, random):
    batch = {b"batch_label": name.encode(), b"data": pixels(random, (count, 3072)),
             b"filenames": [b"image_%d.png" % index for index in range(count)]}
    if dataset == "cifar10":
        batch[b"labels"] = [int(label) for label in random.integers(0, 10, size=count)]
    else:
        batch[b"fine_labels"] = [int(label) for label in random.integers(0, 100, size=count)]
        batch[b"coarse_labels"] = [int(label) for label in random.integers(0, 20, size=count)]
    return pickle.dumps(batch, protocol=2)


def make_cifar(dataset, directory, counts):
    archive, folder = CIFAR_ARCHIVES[dataset]
    random = generator(counts)
    with tarfile.open(os.path.join(directory, archive), "w:gz", compresslevel=1) as output:
        entry = tarfile.TarInfo(folder)
        entry.type = tarfile.DIRTYPE
        output.addfile(entry)
        for name, count in cifar_members(dataset, counts):
            content = cifar_batch(dataset, name, count, random)
            entry = tarfile.TarInfo(folder + "/" + name)
            entry.size = len(content)
            output.addfile(entry, io.BytesIO(content))


def expect_cifar(dataset, directory):
    archive, folder = CIFAR_ARCHIVES[dataset]
    batches = {}
    with tarfile.open(os.path.join(directory, archive)) as source:
        for member in source.getmembers():
            if member.isfile():
                batches[os.path.basename(member.name)] = pickle.loads(
                    source.extractfile(member).read(), encoding="bytes")
    names = CIFAR10_MEMBERS if dataset == "cifar10" else ["train", "test"]
    labels = ["labels"] if dataset == "cifar10" else ["coarse_labels", "fine_labels"]
    sources = {"features": numpy.concatenate([batches[name][b"data"] for name in names])}
    sources["features"] = sources["features"].reshape(-1, 3, 32, 32)
    for label in labels:
        values = sum((list(batches[name][label.encode()]) for name in names), [])
        sources["targets" if label == "labels" else label] = \
            numpy.array(values, numpy.uint8)[:, numpy.newaxis]
    train = sum(len(batches[name][b"data"]) for name in names[:-1])
    return sources, splits(["train", "test"], [train, len(batches[names[-1]][b"data"])])


def make_svhn2(directory, counts):
    random = generator(counts)
    for split, count in zip(SVHN_SPLITS, counts):
        images = pixels(random, (32, 32, 3, count))
        labels = random.integers(1, 11, size=(count, 1)).astype(numpy.float64)
        scipy.io.savemat(os.path.join(directory, "%s_32x32.mat" % split),
                         {"X": images, "y": labels}, do_compression=True)


def expect_svhn2(directory, dtype):
    features, targets, counts = [], [], []
    for split in SVHN_SPLITS:
        content = scipy.io.loadmat(os.path.join(directory, "%s_32x32.mat" % split))
        features.append(content["X"].transpose(3, 2, 0, 1))
        labels = content["y"].astype(numpy.float64)
        labels[labels == 10] = 0
        targets.append(labels)
        counts.append(content["X"].shape[3])
    sources = {"features": numpy.concatenate(features), "targets": numpy.concatenate(targets)}
    return sources, splits(SVHN_SPLITS, counts)


def splits(names, counts):
    """{(split, start, stop)} as contiguous splits one after the other."""
    rows, start = set(), 0
    for name, count in zip(names, counts):
        rows.add((name, start, start + count))
        start += count
    return rows


def compare(path, sources, expected_splits):
    problems = []
    with h5py.File(path, "r") as handle:
        if sorted(handle) != sorted(sources):
            problems.append("sources %s, expected %s" % (sorted(handle), sorted(sources)))
        for name in sorted(set(handle) & set(sources)):
            actual, expected = handle[name], sources[name]
            if actual.dtype != expected.dtype or actual.shape != expected.shape:
                problems.append("%s: %s %s, expected %s %s" % (name, actual.dtype, actual.shape,
                                                             expected.dtype, expected.shape))
                continue
            values = actual[...]
            if not numpy.array_equal(values, expected):
                wrong = numpy.argwhere(values != expected)
                problems.append("%s: %d values differ, first at %s: %r, expected %r" % (
                    name, len(wrong), tuple(wrong[0]), values[tuple(wrong[0])],
                    expected[tuple(wrong[0])]))
        rows = {(row["split"].decode(), int(row["start"]), int(row["stop"]))
                for row in handle.attrs["split"]}
        if rows != expected_splits:
            problems.append("split rows %s, expected %s" % (sorted(rows), sorted(expected_splits)))
    return problems


def main(arguments):
    action, dataset, directory = arguments[:3]
    if action == "make":
        counts = [int(count) for count in arguments[3:]]
        if dataset in CIFAR_ARCHIVES:
            make_cifar(dataset, directory, counts)
        else:
            globals()["make_" + dataset](directory, counts)
        return 0
    files, dtypes = arguments[3::2], arguments[4::2] or ["uint8"]
    problems = []
    for path, dtype in zip(files, dtypes):
        if dataset in CIFAR_ARCHIVES:
            sources, expected_splits = expect_cifar(dataset, directory)
        else:
            sources, expected_splits = globals()["expect_" + dataset](directory, dtype)
        found = compare(path, sources, expected_splits)
        problems += [path + ": " + problem for problem in found] if len(files) > 1 else found
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
