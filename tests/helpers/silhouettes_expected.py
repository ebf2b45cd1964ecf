#!/usr/bin/python3
"""Checks fuel's caltech101_silhouettes{16,28}.hdf5 against Fuel's rule, computed from the MAT-file.

usage: silhouettes_expected.py MAT SIDE FILE
The rule (Fuel 0.2's converter, written out): scipy.io.loadmat(MAT) with its defaults (each
variable in the type the file stores it as); features = train_data, val_data, test_data each
reshaped to (-1, 1, SIDE, SIDE) in C order, concatenated; targets = train_labels, val_labels,
test_labels unchanged; splits train, valid, test; axis labels batch/channel/height/width and
batch/index. Prints each difference and exits 1 when there is any.
"""
import sys

import h5py
import numpy
import scipy.io


def main():
    mat, side = scipy.io.loadmat(sys.argv[1]), int(sys.argv[2])
    names = (("train", "train"), ("valid", "val"), ("test", "test"))
    features = [mat[prefix + "_data"].reshape([-1, 1, side, side]) for _, prefix in names]
    targets = [mat[prefix + "_labels"] for _, prefix in names]
    starts = numpy.cumsum([0] + [len(part) for part in features])
    problems = []
    with h5py.File(sys.argv[3], "r") as handle:
        for name, parts in (("features", features), ("targets", targets)):
            expected, dataset = numpy.concatenate(parts), handle[name]
            if dataset.dtype != expected.dtype or dataset.shape != expected.shape:
                problems.append(f"{name}: {dataset.dtype} {dataset.shape}, expected "
                                f"{expected.dtype} {expected.shape}")
            elif not numpy.array_equal(dataset[...], expected):
                problems.append(f"{name}: values differ")
        labels = [[d.label for d in handle[name].dims] for name in ("features", "targets")]
        if labels != [["batch", "channel", "height", "width"], ["batch", "index"]]:
            problems.append(f"axis labels {labels}")
        splits = {(bytes(row["split"]).rstrip(b"\0").decode(), int(row["start"]), int(row["stop"]))
                  for row in handle.attrs["split"]}
        wanted = {(split, int(starts[index]), int(starts[index + 1]))
                  for index, (split, _) in enumerate(names)}
        if splits != wanted:
            problems.append(f"splits {sorted(splits)}, expected {sorted(wanted)}")
    for problem in problems:
        print(problem)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
