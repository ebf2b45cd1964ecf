#!/usr/bin/python3
"""Compares an HDF5 file written by fuel with one written by Python Fuel, as H5PYDataset sees them.

usage: compare_hdf5.py ACTUAL EXPECTED [ACTUAL EXPECTED ...]
Checks every dataset (dtype, shape, values, dimension labels, attached scales by name), the split
attribute (field names and dtypes, rows compared as a set since Fuel's row order follows dict order),
and the root attributes except fuel_convert_command / fuel_convert_version / fuel_provenance.
Prints one line per difference and exits 1 when there is any; with several pairs, each pair's
differences follow a line naming it.
"""
import sys

import h5py
import numpy

IGNORED_ATTRIBUTES = {"fuel_convert_command", "fuel_convert_version", "fuel_provenance", "split"}


def split_rows(handle):
    rows = set()
    for row in handle.attrs["split"]:
        rows.add((bytes(row["split"]).rstrip(b"\0"), bytes(row["source"]).rstrip(b"\0"),
                  int(row["start"]), int(row["stop"]), bool(row["indices"]),
                  bool(row["available"]), bytes(row["comment"]).rstrip(b"\0")))
    return rows


def scale_names(dataset):
    names = []
    for dimension in dataset.dims:
        names.append(sorted(scale_name for scale_name, _ in dimension.items()))
    return names


def compare_values(name, actual, expected, problems):
    if actual.dtype.kind == "O" or expected.dtype.kind == "O":
        if len(actual) != len(expected):
            problems.append(f"{name}: {len(actual)} variable-length rows, expected {len(expected)}")
            return
        for index, (left, right) in enumerate(zip(actual[...], expected[...])):
            if left.dtype != right.dtype or not numpy.array_equal(left, right):
                problems.append(f"{name}[{index}]: {left!r} != {right!r}")
                return
    elif not numpy.array_equal(actual[...], expected[...]):
        difference = numpy.argwhere(actual[...] != expected[...])
        problems.append(f"{name}: values differ, first at {tuple(difference[0])}")


def compare_dataset(name, actual, expected, problems):
    if actual.dtype != expected.dtype:
        problems.append(f"{name}: dtype {actual.dtype}, expected {expected.dtype}")
    if actual.shape != expected.shape:
        problems.append(f"{name}: shape {actual.shape}, expected {expected.shape}")
        return
    labels = [dimension.label for dimension in actual.dims]
    expected_labels = [dimension.label for dimension in expected.dims]
    if labels != expected_labels:
        problems.append(f"{name}: axis labels {labels}, expected {expected_labels}")
    if scale_names(actual) != scale_names(expected):
        problems.append(f"{name}: scales {scale_names(actual)}, expected {scale_names(expected)}")
    if actual.chunks is not None or actual.compression is not None:
        problems.append(f"{name}: chunked or compressed, expected contiguous")
    compare_values(name, actual, expected, problems)


def compare(actual_path, expected_path):
    problems = []
    with h5py.File(actual_path, "r") as actual, h5py.File(expected_path, "r") as expected:
        if set(actual) != set(expected):
            problems.append(f"datasets {sorted(actual)}, expected {sorted(expected)}")
        for name in sorted(set(actual) & set(expected)):
            compare_dataset(name, actual[name], expected[name], problems)
        if actual.attrs["split"].dtype != expected.attrs["split"].dtype:
            problems.append(f"split dtype {actual.attrs['split'].dtype}, "
                            f"expected {expected.attrs['split'].dtype}")
        if split_rows(actual) != split_rows(expected):
            problems.append(f"split rows {sorted(split_rows(actual))}, "
                            f"expected {sorted(split_rows(expected))}")
        for key in set(expected.attrs) - IGNORED_ATTRIBUTES:
            if key not in actual.attrs or actual.attrs[key] != expected.attrs[key]:
                problems.append(f"attribute {key}: {actual.attrs.get(key)!r}, "
                                f"expected {expected.attrs[key]!r}")
        for key in ("fuel_convert_command", "fuel_convert_version"):
            if key not in actual.attrs:
                problems.append(f"attribute {key} missing")
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    pairs = list(zip(sys.argv[1::2], sys.argv[2::2]))
    failed = 0
    for actual, expected in pairs:
        if len(pairs) > 1:
            print(f"{actual} against {expected}:")
        failed |= compare(actual, expected)
    sys.exit(failed)
