#!/usr/bin/python3
"""Writes one small H5PYDataset file for the content digest and diff tests, in one of several
layouts holding the same content, or with one change.

usage: content_files.py PATH VARIANT [BYTES]
  plain      contiguous, little-endian, fixed-length strings, provenance "one"
  chunked    the same content chunked, gzip'd and shuffled, big-endian fixed-shape numbers,
             int32 indices, variable-length strings in the split array and labels, rows in
             another order, provenance "two"
  value      plain with features[8, 1, 2] changed (index 8: position 1 of split test)
  target     plain with targets[2] changed (index 2: position 2 of split train)
  box        plain with the elements of boxes[1] changed
  comment    plain with another comment on the (train, features) row
  label      plain with another axis label on features
  extra      plain with a source `extra` and a split `more` besides
  longer     plain with an 11th example in features only
  bare       plain without any attribute but the split array (no provenance)
  large      a single uint8 source `features` of BYTES bytes, contiguous (speed measures)
  big        a single uint16 source `features` of 3 examples of 4.5 MiB each
  bigchanged big with two values of example 1, 4 MiB apart, and one of example 2 changed
"""
import sys

import h5py
import numpy

EXAMPLES = 10


def values(variant):
    count = EXAMPLES + 1 if variant == "longer" else EXAMPLES
    features = numpy.arange(count * 2 * 3, dtype=numpy.uint8).reshape(count, 2, 3)
    targets = numpy.linspace(0.5, 5, EXAMPLES).reshape(EXAMPLES, 1)
    flags = numpy.arange(EXAMPLES) % 3 == 0
    boxes = [numpy.arange(2 * (1 + index % 3), dtype=numpy.uint16) + index
             for index in range(EXAMPLES)]
    if variant == "value":
        features[8, 1, 2] ^= 0xff
    if variant == "target":
        targets[2, 0] += 1
    if variant == "box":
        boxes[1] = boxes[1] + 7
    return features, targets, flags, boxes


def labelled(dataset, labels):
    for axis, label in enumerate(labels):
        dataset.dims[axis].label = label


def sources_write(handle, variant):
    chunked = variant == "chunked"
    options = dict(chunks=True, compression="gzip", shuffle=True) if chunked else {}
    features, targets, flags, boxes = values(variant)
    created = handle.create_dataset("features", data=features, **options)
    labelled(created, ["batch", "height", "width" if variant != "label" else "column"])
    targets_type = ">f8" if chunked else "<f8"
    created = handle.create_dataset("targets", data=targets.astype(targets_type), **options)
    labelled(created, ["batch", "index"])
    created = handle.create_dataset("flags", data=flags, **options)
    labelled(created, ["batch"])
    # Little-endian in both: h5py 3.7 returns big-endian vlen elements unswapped.
    base = numpy.dtype("<u2")
    created = handle.create_dataset("boxes", (EXAMPLES,), dtype=h5py.vlen_dtype(base), **options)
    for index, box in enumerate(boxes):
        created[index] = box.astype(base)
    labelled(created, ["batch"])
    shapes = numpy.array([[len(box) // 2, 2] for box in boxes], dtype=numpy.uint16)
    handle.create_dataset("boxes_shapes", data=shapes)
    handle["boxes_shapes"].make_scale("shapes")
    created.dims[0].attach_scale(handle["boxes_shapes"])
    label_type = h5py.string_dtype() if chunked else "S10"
    handle.create_dataset("boxes_shape_labels", data=numpy.array(["box", "coordinate"],
                                                                 dtype=label_type))
    handle["boxes_shape_labels"].make_scale("shape_labels")
    created.dims[0].attach_scale(handle["boxes_shape_labels"])
    indices_type = numpy.int32 if chunked else numpy.int64
    handle.create_dataset("test_indices", data=numpy.array([7, 8, 9], dtype=indices_type))
    if variant == "extra":
        handle.create_dataset("extra", data=numpy.zeros((EXAMPLES,), dtype=numpy.int16))


def rows_write(handle, variant):
    chunked = variant == "chunked"
    sources = ["boxes", "features", "flags", "targets"] + (["extra"] if variant == "extra" else [])
    splits = ["train", "test", "valid"] + (["more"] if variant == "extra" else [])
    text = h5py.string_dtype() if chunked else "S10"
    rows = []
    for split in splits:
        for source in sources:
            comment = "."
            if split == "train" and source == "features" and variant == "comment":
                comment = "changed"
            if split == "train":
                rows.append((split, source, 0, 7, None, True, comment))
            elif split == "test":
                rows.append((split, source, -1, -1, handle["test_indices"].ref, True, comment))
            elif split == "valid" and source != "boxes":
                rows.append((split, source, 7, 10, None, True, comment))
            else:
                rows.append((split, source, 0, 0, None, False, comment))
    if chunked:
        rows.reverse()
    array = numpy.empty(len(rows), dtype=[
        ("split", text), ("source", text), ("start", numpy.int64), ("stop", numpy.int64),
        ("indices", h5py.ref_dtype), ("available", bool), ("comment", text)])
    for index, (split, source, start, stop, reference, available, comment) in enumerate(rows):
        if not chunked:
            split, source, comment = split.encode(), source.encode(), comment.encode()
        array[index] = (split, source, start, stop, reference, available, comment)
    handle.attrs["split"] = array


def attributes_write(handle, variant):
    chunked = variant == "chunked"
    handle.attrs["h5py_interface_version"] = numpy.bytes_(b"0.3")
    handle.attrs["fuel_convert_command"] = "by hand " + ("two" if chunked else "one")
    provenance = ('{"tool":"fuel","version":"0.1.0","argv":["fuel-convert","x","-o","%s"],'
                  '"inputs":[{"name":"x.gz","size":%d,"sha256":"%s"}],'
                  '"libraries":{"hdf5":"%s"},"created":"%s"}')
    if chunked:
        handle.attrs["fuel_provenance"] = provenance % ("b", 12, "b" * 64, "1.12.2",
                                                        "2024-01-01T00:00:00Z")
    else:
        handle.attrs["fuel_provenance"] = numpy.bytes_(
            (provenance % ("a", 11, "a" * 64, "1.10.8", "1970-01-01T00:00:00Z")).encode())


def large_write(path, size):
    with h5py.File(path, "w") as handle:
        generator = numpy.random.default_rng(1)
        rows = size // 4096
        created = handle.create_dataset("features", (rows, 4096), dtype=numpy.uint8)
        for first in range(0, rows, 4096):
            count = min(4096, rows - first)
            created[first:first + count] = generator.integers(0, 256, (count, 4096),
                                                              dtype=numpy.uint8)
        labelled(created, ["batch", "feature"])
        array = numpy.empty(1, dtype=[
            ("split", "S5"), ("source", "S8"), ("start", numpy.int64), ("stop", numpy.int64),
            ("indices", h5py.ref_dtype), ("available", bool), ("comment", "S1")])
        array[0] = (b"train", b"features", 0, rows, None, True, b".")
        handle.attrs["split"] = array


def big_write(path, variant):
    features = numpy.zeros((3, 1536, 1536), dtype=numpy.uint16)
    if variant == "bigchanged":
        features[1, 0, 5] = 1
        features[1, 1400, 7] = 1
        features[2, 1535, 1535] = 1
    with h5py.File(path, "w") as handle:
        handle.create_dataset("features", data=features)
        array = numpy.empty(1, dtype=[
            ("split", "S5"), ("source", "S8"), ("start", numpy.int64), ("stop", numpy.int64),
            ("indices", h5py.ref_dtype), ("available", bool), ("comment", "S1")])
        array[0] = (b"train", b"features", 0, 3, None, True, b".")
        handle.attrs["split"] = array


def main():
    path, variant = sys.argv[1], sys.argv[2]
    if variant == "large":
        large_write(path, int(sys.argv[3]))
        return
    if variant in ("big", "bigchanged"):
        big_write(path, variant)
        return
    with h5py.File(path, "w") as handle:
        sources_write(handle, variant)
        rows_write(handle, variant)
        if variant != "bare":
            attributes_write(handle, variant)


main()
