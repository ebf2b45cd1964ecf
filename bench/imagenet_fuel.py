#!/usr/bin/python3
"""Python Fuel's own ILSVRC2012 converter for bench/imagenet.sh: convert_ilsvrc2012(RAW, OUT) with
its default shuffle seed, as `fuel-convert ilsvrc2012` runs it.

Fuel is not part of this project: it is imported from the source trees in FUEL_PYTHON_PATH
(colon-separated, prepended to sys.path). Fuel (2016) predates Python 3.10 and numpy 1.24, so the
names they removed are put back first; Fuel counts the test archive's members by its bare name,
so it runs in RAW.

usage: imagenet_fuel.py RAW OUT
"""
import collections
import collections.abc
import os
import sys

sys.path[:0] = [path for path in os.environ.get("FUEL_PYTHON_PATH", "").split(":") if path]
for name in ("Iterable", "Mapping", "MutableMapping", "Sequence", "Callable", "Hashable"):
    if not hasattr(collections, name):
        setattr(collections, name, getattr(collections.abc, name))

import numpy  # noqa: E402

for name, value in (("bool", bool), ("int", int), ("float", float), ("object", object)):
    if name not in numpy.__dict__:
        setattr(numpy, name, value)

from fuel.converters.ilsvrc2012 import convert_ilsvrc2012  # noqa: E402


def main():
    raw, out = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    os.chdir(raw)
    convert_ilsvrc2012(raw, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
