#!/usr/bin/python3
"""Checks that h5py reads files made by test_h5py_writer as Fuel's H5PYDataset expects.

usage: check_h5py.py FIXED_FILE VARIABLE_FILE
FIXED_FILE holds features (5,1,2,3) and targets (5,1) uint8, splits train 0..3 and test 3..5;
VARIABLE_FILE holds boxes, uint16 vlen of (n, 2) examples, splits train 0..2 and test 2..3.
Prints one line per problem and exits 1 when there is any.
"""
import sys

import h5py
import numpy


def check_split(handle, expected_rows, problems):
    split = handle.attrs["split"]
    names = split.dtype.names
    if names != ("split", "source", "start", "stop", "indices", "available", "comment"):
        problems.append(f"split fields {names}")
        return
    if split.dtype["available"] != numpy.dtype(bool):
        problems.append(f"available reads as {split.dtype['available']}, not numpy bool")
    if h5py.check_dtype(ref=split.dtype["indices"]) is not h5py.Reference:
        problems.append(f"indices reads as {split.dtype['indices']}, not an object reference")
    rows = []
    for row in split:
        if not isinstance(row["indices"], h5py.Reference) or bool(row["indices"]):
            problems.append(f"indices {row['indices']!r} is not a null reference")
        if not isinstance(row["available"], numpy.bool_):
            problems.append(f"available {row['available']!r} is not a numpy bool")
        rows.append((row["split"].decode(), row["source"].decode(), int(row["start"]),
                     int(row["stop"]), bool(row["available"]), row["comment"].decode()))
    if rows != expected_rows:
        problems.append(f"split rows {rows}, expected {expected_rows}")


def check_fixed(path, problems):
    with h5py.File(path, "r") as handle:
        check_split(handle, [("train", "features", 0, 3, True, "."),
                             ("train", "targets", 0, 3, True, "."),
                             ("test", "features", 3, 5, True, "."),
                             ("test", "targets", 3, 5, True, ".")], problems)
        features = handle["features"]
        if [dimension.label for dimension in features.dims] != ["batch", "channel", "height", "width"]:
            problems.append(f"features labels {[dimension.label for dimension in features.dims]}")
        if features.dtype != numpy.uint8 or features.shape != (5, 1, 2, 3):
            problems.append(f"features {features.dtype} {features.shape}")
        if features.chunks is not None or features.compression is not None:
            problems.append("features is chunked or compressed")
        expected = (numpy.arange(30) * 7).astype(numpy.uint8).reshape(5, 1, 2, 3)
        if not numpy.array_equal(features[...], expected):
            problems.append("features values differ")
        if handle.attrs["h5py_interface_version"] != "0.3":
            problems.append(f"h5py_interface_version {handle.attrs['h5py_interface_version']!r}")


def check_variable(path, problems):
    with h5py.File(path, "r") as handle:
        check_split(handle, [("train", "boxes", 0, 2, True, "."),
                             ("test", "boxes", 2, 3, True, ".")], problems)
        boxes = handle["boxes"]
        if h5py.check_dtype(vlen=boxes.dtype) != numpy.uint16:
            problems.append(f"boxes dtype {boxes.dtype}")
        if boxes.dims[0].label != "batch":
            problems.append(f"boxes label {boxes.dims[0].label!r}")
        scales = sorted(name for name, _ in boxes.dims[0].items())
        if scales != ["shape_labels", "shapes"]:
            problems.append(f"boxes scales {scales}")
        shapes = boxes.dims[0]["shapes"][...]
        labels = [label.decode() for label in boxes.dims[0]["shape_labels"][...]]
        if labels != ["bounding_box", "height"]:
            problems.append(f"shape labels {labels}")
        examples = [boxes[index].reshape(shapes[index]) for index in range(3)]
        if [example.tolist() for example in examples] != [[[11, 12]],
                                                          [[21, 22], [23, 24], [25, 26]],
                                                          [[31, 32], [33, 34]]]:
            problems.append(f"boxes values {examples}")


def main(fixed_path, variable_path):
    problems = []
    check_fixed(fixed_path, problems)
    check_variable(variable_path, problems)
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
