#!/usr/bin/python3
"""Prints, as JSON, what `fuel diff --json A B` must list under "values", computed with h5py and
numpy from the files' split rows: each source index for index, each split position for position
(contiguous rows and indices alike), the longer side's other examples differing; a split one file
only has is left out.

usage: split_diff.py A B
"""
import json
import sys

import h5py
import numpy


def rows(handle):
    found = {}
    for row in handle.attrs["split"]:
        split, source = row["split"].decode(), row["source"].decode()
        if (split, source) in found:
            continue
        if not row["available"]:
            found[(split, source)] = numpy.zeros(0, dtype=numpy.int64)
        elif row["indices"]:
            found[(split, source)] = numpy.asarray(handle[row["indices"]][()], dtype=numpy.int64)
        else:
            found[(split, source)] = numpy.arange(row["start"], row["stop"])
    return found


def entry(source, split, left, right):
    common = min(len(left), len(right))
    differing = [position for position in range(common)
                 if not numpy.array_equal(left[position], right[position])]
    differing += list(range(common, max(len(left), len(right))))
    return {"source": source, "split": split, "examples": max(len(left), len(right)),
            "left_examples": len(left), "right_examples": len(right),
            "differing": len(differing), "first": differing[:5]}


def main():
    files = [h5py.File(path, "r") for path in sys.argv[1:3]]
    splits = [rows(handle) for handle in files]
    values = []
    for source in files[0]:
        if source not in files[1] or source.endswith("_indices"):
            continue
        data = [handle[source][()] for handle in files]
        found = [entry(source, None, data[0], data[1])]
        order = [key for key in splits[0] if key[1] == source]
        order += [key for key in splits[1] if key[1] == source and key not in order]
        listed = [{key[0] for key in rows} for rows in splits]
        for split, _ in order:
            if split not in listed[0] or split not in listed[1]:
                continue
            empty = numpy.zeros(0, dtype=numpy.int64)
            chosen = [data[side][splits[side].get((split, source), empty)] for side in (0, 1)]
            found.append(entry(source, split, chosen[0], chosen[1]))
        values += [item for item in found if item["differing"] > 0]
    print(json.dumps(values, sort_keys=True))


main()
