#!/usr/bin/python3
"""The content digest of an H5PYDataset file computed from the encoding documented in
info/content_digest.h and fuel-info(1), with h5py and hashlib only: an independent check
of fuel's implementation.

usage: content_digest.py FILE   prints "SOURCE SHA256" per source in name order, then
                                "* SHA256" for the whole content
"""
import hashlib
import sys

import h5py
import numpy


def u64(value):
    return int(value).to_bytes(8, "little", signed=False)


def i64(value):
    return int(value).to_bytes(8, "little", signed=True)


def text(value):
    if isinstance(value, str):
        value = value.encode()
    return u64(len(value)) + value


def fixed_string(value):
    """A fixed-length string as fuel's reader returns it: without trailing NULs or spaces."""
    if isinstance(value, bytes):
        return value.rstrip(b"\0").rstrip(b" ")
    return value.encode()


def dtype_name(dtype):
    if dtype.kind == "S":
        return "S%d" % dtype.itemsize
    return dtype.name


def scale(dataset, name):
    for attached in dataset.dims[0].values():
        found = attached.attrs.get("NAME")
        if found is not None and fixed_string(found) == name.encode():
            return attached
    return None


def source_digest(dataset):
    digest = hashlib.sha256()
    base = h5py.check_vlen_dtype(dataset.dtype)
    digest.update(text("fuel-source-digest-1"))
    if base is None:
        digest.update(text(dtype_name(dataset.dtype)) + text("fixed"))
        digest.update(u64(dataset.ndim) + b"".join(u64(size) for size in dataset.shape))
        canonical = dataset.dtype.newbyteorder("<")
        for first in range(0, dataset.shape[0] if dataset.ndim else 1, 1024):
            block = dataset[first:first + 1024] if dataset.ndim else dataset[()]
            digest.update(numpy.ascontiguousarray(block, dtype=canonical).tobytes())
        return digest.hexdigest()
    shapes = scale(dataset, "shapes")
    rank = shapes.shape[1] if shapes is not None else 1
    digest.update(text(dtype_name(base)) + text("variable") + u64(len(dataset)) + u64(rank))
    for index in range(len(dataset)):
        elements = numpy.asarray(dataset[index]).astype(base.newbyteorder("<"))
        shape = shapes[index] if shapes is not None else [len(elements)]
        digest.update(b"".join(u64(size) for size in shape) + u64(len(elements)))
        digest.update(elements.tobytes())
    return digest.hexdigest()


def labels_of(dataset):
    labels = [dimension.label for dimension in dataset.dims]
    shape_labels = scale(dataset, "shape_labels")
    names = [fixed_string(label) if isinstance(label, bytes) else label.encode()
             for label in (shape_labels[()] if shape_labels is not None else [])]
    return (u64(len(labels)) + b"".join(text(label) for label in labels)
            + u64(len(names)) + b"".join(text(name) for name in names))


def row_bytes(handle, row):
    encoded = (text(fixed_string(row["split"])) + text(fixed_string(row["source"]))
               + i64(row["start"]) + i64(row["stop"]) + bytes([1 if row["available"] else 0])
               + text(fixed_string(row["comment"])))
    if not row["indices"]:
        return encoded + text("contiguous")
    values = numpy.asarray(handle[row["indices"]][()]).reshape(-1)
    return (encoded + text("indices") + u64(len(values))
            + values.astype("<i8").tobytes())


def main():
    with h5py.File(sys.argv[1], "r") as handle:
        rows = handle.attrs["split"]
        names = sorted({fixed_string(row["source"]) for row in rows})
        whole = hashlib.sha256(text("fuel-content-digest-1") + u64(len(names)))
        for name in names:
            source = name.decode()
            if source not in handle:
                whole.update(text(name) + text("") + u64(0) + u64(0))
                continue
            digest = source_digest(handle[source])
            print(source, digest)
            whole.update(text(name) + text(digest) + labels_of(handle[source]))
        order = sorted(range(len(rows)), key=lambda index: (
            fixed_string(rows[index]["split"]), fixed_string(rows[index]["source"]), index))
        whole.update(u64(len(rows)))
        for index in order:
            whole.update(row_bytes(handle, rows[index]))
        print("*", whole.hexdigest())


main()
