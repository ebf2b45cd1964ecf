"""s3_export_check.py LOCAL GOT URL DIR: the export GOT (read back from s3:// URL by boto3) is the
   export LOCAL (written to DIR) file for file: the same names (hidden ones aside), the same bytes,
   except where the provenance records the command line, which names URL instead of DIR there:
   text files then equal once URL is read as DIR, HDF5 files (hdf5-layer) equal dataset for
   dataset and attribute for attribute, read the same way. Prints what differs; exit 1 if any."""
import os
import sys

import h5py
import numpy

local, got, url, directory = sys.argv[1:5]


def files(root):
    found = set()
    for parent, folders, names in os.walk(root):
        folders[:] = [name for name in folders if not name.startswith(".")]
        for name in names:
            if not name.startswith("."):
                found.add(os.path.relpath(os.path.join(parent, name), root))
    return found


def as_local(value):
    if isinstance(value, bytes):
        return value.replace(url.encode(), directory.encode())
    if isinstance(value, str):
        return value.replace(url, directory)
    return value


def hdf5_same(left, right):
    with h5py.File(left, "r") as a, h5py.File(right, "r") as b:
        if sorted(a.keys()) != sorted(b.keys()) or sorted(a.attrs) != sorted(b.attrs):
            return False
        if any(as_local(b.attrs[name]) != a.attrs[name] for name in a.attrs):
            return False
        return all(numpy.array_equal(a[name][()], b[name][()]) for name in a.keys())


wrong = []
names = files(local)
if names != files(got):
    wrong.append("names differ: %s" % sorted(names ^ files(got)))
for name in sorted(names & files(got)):
    left, right = (open(os.path.join(root, name), "rb").read() for root in (local, got))
    if left == right:
        continue
    if name.endswith(".h5") and hdf5_same(os.path.join(local, name), os.path.join(got, name)):
        continue
    if not name.endswith(".h5") and as_local(right) == left:
        continue
    wrong.append(name)
if wrong:
    sys.exit("differ: " + ", ".join(wrong))
print("%d files equal" % len(names))
