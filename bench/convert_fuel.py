#!/usr/bin/python3
"""Runs real Python Fuel's converter for bench/celeba.sh, bench/dogs_vs_cats.sh and bench/svhn2.sh.

usage: convert_fuel.py celeba 64|aligned_cropped RAW OUT
       convert_fuel.py dogs_vs_cats RAW OUT
       convert_fuel.py svhn2 RAW OUT

Fuel's own source is executed (read from FUEL_PYTHON_PATH, colon-separated source trees, the first
holding fuel/), with only what a benchmark archive of another size needs: its hard-coded counts
(CelebA's 202599 faces and split stops, Dogs vs Cats' 25000 + 12500 images) replaced by the
archive's, and, for Dogs vs Cats, a grayscale image given a channel axis where Fuel's transpose
would crash (the benchmark's archives hold two). Fuel is not part of this project.
"""
import collections
import collections.abc
import os
import sys
import types
import zipfile

PATHS = [path for path in os.environ.get("FUEL_PYTHON_PATH", "").split(":") if path]
sys.path[:0] = PATHS

# Fuel 0.2 on today's Python and numpy: names moved to collections.abc, numpy.bool removed,
# Debian's progressbar2 module named progressbar2.
for name in ("Iterable", "Mapping", "MutableMapping", "Sequence", "Callable", "Hashable"):
    if not hasattr(collections, name):
        setattr(collections, name, getattr(collections.abc, name))
import numpy  # noqa: E402
numpy.bool = bool
try:
    import progressbar  # noqa: F401
except ImportError:
    import progressbar2
    sys.modules["progressbar"] = progressbar2


def fuel_source(relative):
    for path in PATHS:
        if os.path.exists(os.path.join(path, relative)):
            return os.path.join(path, relative)
    sys.exit(f"convert_fuel.py: no {relative} in FUEL_PYTHON_PATH")


def load(relative, replacements):
    path = fuel_source(relative)
    source = open(path).read()
    for old, new in replacements:
        if old not in source:
            sys.exit(f"convert_fuel.py: {relative} does not hold {old!r}")
        source = source.replace(old, new)
    module = types.ModuleType(relative.replace("/", "."))
    module.__file__ = path
    exec(compile(source, path, "exec"), module.__dict__)
    return module


def images(path):
    return len(zipfile.ZipFile(path).namelist()) - 1  # the first entry is the folder


def dogs_vs_cats(raw, out):
    train = images(os.path.join(raw, "dogs_vs_cats.train.zip"))
    test = images(os.path.join(raw, "dogs_vs_cats.test1.zip"))
    total = train + test
    module = load("fuel/converters/dogs_vs_cats.py", [
        ("(37500,)", f"({total},)"), ("(37500, 3)", f"({total}, 3)"),
        ("(25000, 1)", f"({train}, 1)"), ("[25000, 12500]", f"[{train}, {test}]"),
        ("i - 25000", f"i - {train}"), ("[(0, 25000)] * 2", f"[(0, {train})] * 2"),
        ("(25000, 37500)", f"({train}, {total})"),
        ("image = image.transpose(2, 0, 1)",
         "image = (image[:, :, None] if image.ndim == 2 else image).transpose(2, 0, 1)")])
    module.convert_dogs_vs_cats(raw, out)


def celeba(which, raw, out):
    count = images(os.path.join(raw, "img_align_celeba.zip"))
    module = load("fuel/converters/celeba.py", [
        ("NUM_EXAMPLES = 202599", f"NUM_EXAMPLES = {count}"),
        ("TRAIN_STOP = 162770", f"TRAIN_STOP = {count * 162770 // 202599}"),
        ("VALID_STOP = 182637", f"VALID_STOP = {count * 182637 // 202599}")])
    module.convert_celeba(which, raw, out)


def svhn2(raw, out):
    load("fuel/converters/svhn.py", []).convert_svhn_format_2(raw, out)


if __name__ == "__main__":
    if sys.argv[1] == "dogs_vs_cats":
        dogs_vs_cats(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "svhn2":
        svhn2(sys.argv[2], sys.argv[3])
    else:
        celeba(sys.argv[2], sys.argv[3], sys.argv[4])
