#!/usr/bin/python3
"""Checks a converted CIFAR file against the pickles of its archive, batch by batch in Fuel's order.

usage: cifar_check.py ARCHIVE HDF5 cifar10|cifar100
Exits 1 naming the first difference: features, each label source, the splits' counts.
"""
import pickle
import sys
import tarfile

import h5py
import numpy

LAYOUTS = {
    "cifar10": (["data_batch_%d" % number for number in range(1, 6)] + ["test_batch"],
                {b"labels": "targets"}),
    "cifar100": (["train", "test"], {b"fine_labels": "fine_labels",
                                     b"coarse_labels": "coarse_labels"}),
}


def batches(archive, members):
    found = {}
    with tarfile.open(archive) as source:
        for member in source.getmembers():
            name = member.name.rsplit("/", 1)[-1]
            if member.isfile() and name in members:
                found[name] = pickle.loads(source.extractfile(member).read(), encoding="bytes")
    return [found[name] for name in members]


def main():
    archive, path, dataset = sys.argv[1:4]
    members, labels = LAYOUTS[dataset]
    loaded = batches(archive, members)
    features = numpy.concatenate([batch[b"data"] for batch in loaded]).reshape(-1, 3, 32, 32)
    train = sum(len(batch[b"data"]) for batch in loaded[:-1])
    with h5py.File(path, "r") as output:
        if not numpy.array_equal(output["features"][()], features):
            sys.exit("features differ")
        for key, source in labels.items():
            expected = numpy.concatenate([batch[key] for batch in loaded]).reshape(-1, 1)
            if not numpy.array_equal(output[source][()], expected):
                sys.exit("%s differ" % source)
        splits = {row["split"].decode(): (row["start"], row["stop"])
                  for row in output.attrs["split"] if row["source"] == b"features"}
        if splits != {"train": (0, train), "test": (train, len(features))}:
            sys.exit("splits differ: %s" % splits)
    print("same as the pickles: %d examples" % len(features))


if __name__ == "__main__":
    main()
