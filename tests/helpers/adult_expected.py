#!/usr/bin/python3
"""Checks fuel's adult.hdf5 against the Adult rule, computed here from the raw files alone.

usage: adult_expected.py RAW_DIRECTORY FILE
The rule: rows of adult.data then adult.test, fields separated by commas and the spaces after
them; blank lines and lines beginning with '|' skipped; a row holding '?' dropped. features is
float64: in column order, each continuous column as it is, each categorical column one-hot over
its values in adult.data sorted by their bytes; targets is bool (N, 1), the label starting with
'>'. Splits train then test; axis labels batch/feature and batch/index. Prints each difference
and exits 1 when there is any.
"""
import sys

import h5py
import numpy

CONTINUOUS = {0, 2, 4, 10, 11, 12}


def rows(path):
    with open(path, "rb") as handle:
        for line in handle.read().split(b"\n"):
            line = line.strip(b" \t\r")
            if not line or line.startswith(b"|"):
                continue
            fields = [field.strip(b" \t") for field in line.split(b",")]
            assert len(fields) == 15, (path, line)
            if b"?" in line:
                continue
            yield fields


def expected(directory):
    train, test = list(rows(directory + "/adult.data")), list(rows(directory + "/adult.test"))
    values = {column: sorted({row[column] for row in train})
              for column in range(14) if column not in CONTINUOUS}
    width = 6 + sum(len(column) for column in values.values())
    features = numpy.zeros((len(train) + len(test), width))
    targets = numpy.zeros((len(train) + len(test), 1), dtype=bool)
    for index, row in enumerate(train + test):
        offset = 0
        for column in range(14):
            if column in CONTINUOUS:
                features[index, offset] = float(row[column])
                offset += 1
            else:
                features[index, offset + values[column].index(row[column])] = 1
                offset += len(values[column])
        targets[index, 0] = row[14].startswith(b">")
    return features, targets, len(train), len(test)


def main():
    features, targets, train, test = expected(sys.argv[1])
    problems = []
    with h5py.File(sys.argv[2], "r") as handle:
        for name, array in (("features", features), ("targets", targets)):
            dataset = handle[name]
            if dataset.dtype != array.dtype or dataset.shape != array.shape:
                problems.append(f"{name}: {dataset.dtype} {dataset.shape}, expected "
                                f"{array.dtype} {array.shape}")
            elif not numpy.array_equal(dataset[...], array):
                problems.append(f"{name}: values differ")
        labels = [[d.label for d in handle[name].dims] for name in ("features", "targets")]
        if labels != [["batch", "feature"], ["batch", "index"]]:
            problems.append(f"axis labels {labels}")
        splits = {(bytes(row["split"]).rstrip(b"\0").decode(), int(row["start"]), int(row["stop"]))
                  for row in handle.attrs["split"]}
        if splits != {("train", 0, train), ("test", train, train + test)}:
            problems.append(f"splits {sorted(splits)}, expected train {train}, test {test}")
    for problem in problems:
        print(problem)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
