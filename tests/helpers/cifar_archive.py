#!/usr/bin/python3
"""Rewrites a CIFAR python archive for tests: re-pickled, reordered, members dropped or replaced.

usage: cifar_archive.py SOURCE DESTINATION [--protocol P] [--str-keys] [--reverse]
           [--drop MEMBER] [--raw MEMBER BYTES_FILE] [--edit MEMBER PYTHON] [--symlink NAME]
           [--examples N]
MEMBER is the base name (e.g. data_batch_3). --protocol re-pickles every batch with Python 3's
pickle (keys stay bytes unless --str-keys); --edit runs PYTHON with the unpickled dict as `batch`
and numpy as `numpy`; --raw stores the given bytes as the member; --symlink adds a symbolic link
member NAME (path inside the archive) pointing to /etc/passwd; --examples gives every batch N
examples (its first 8 repeated, within gzip's window, each image's first 4 bytes then its index),
before --edit.
"""
import argparse
import io
import os
import pickle
import tarfile

import numpy


def arguments():
    parser = argparse.ArgumentParser()
    parser.add_argument("source")
    parser.add_argument("destination")
    parser.add_argument("--protocol", type=int)
    parser.add_argument("--str-keys", action="store_true")
    parser.add_argument("--reverse", action="store_true")
    parser.add_argument("--drop")
    parser.add_argument("--raw", nargs=2)
    parser.add_argument("--edit", nargs=2)
    parser.add_argument("--symlink")
    parser.add_argument("--examples", type=int)
    return parser.parse_args()


def rewrite(name, content, options):
    base = os.path.basename(name)
    if options.raw and base == options.raw[0]:
        return open(options.raw[1], "rb").read()
    is_batch = base.startswith("data_batch") or base in ("test_batch", "train", "test")
    if not is_batch or (options.protocol is None and not options.edit and not options.examples):
        return content
    batch = pickle.loads(content, encoding="bytes")
    if options.examples:
        resize(batch, options.examples)
    if options.edit and base == options.edit[0]:
        exec(options.edit[1], {"batch": batch, "numpy": numpy})
    if options.str_keys:
        batch = {key.decode(): value for key, value in batch.items()}
    return pickle.dumps(batch, protocol=options.protocol if options.protocol is not None else 2)


def resize(batch, examples):
    data = numpy.resize(batch[b"data"][:8], (examples, batch[b"data"].shape[1]))
    data[:, :4] = numpy.arange(examples, dtype="<u4").view(numpy.uint8).reshape(examples, 4)
    batch[b"data"] = data
    for key, value in batch.items():
        if isinstance(value, list) and len(value) > 0:
            batch[key] = [value[index % len(value)] for index in range(examples)]


def main():
    options = arguments()
    with tarfile.open(options.source) as source:
        members = [(member, source.extractfile(member).read() if member.isfile() else None)
                   for member in source.getmembers()]
    if options.reverse:
        members.reverse()
    with tarfile.open(options.destination, "w:gz") as destination:
        for member, content in members:
            if options.drop and os.path.basename(member.name) == options.drop:
                continue
            if content is None:
                destination.addfile(member)
                continue
            content = rewrite(member.name, content, options)
            member.size = len(content)
            destination.addfile(member, io.BytesIO(content))
        if options.symlink:
            link = tarfile.TarInfo(options.symlink)
            link.type = tarfile.SYMTYPE
            link.linkname = "/etc/passwd"
            destination.addfile(link)


if __name__ == "__main__":
    main()
