#!/usr/bin/python3
"""Runs real Python Fuel's fuel-convert on raw files, then opens what it wrote with its H5PYDataset.

usage: real_fuel_convert.py RAW OUT NAME [ARGUMENT...]   (as `fuel-convert NAME -d RAW -o OUT ...`)

Fuel is not part of this project: its source trees are named by FUEL_PYTHON_PATH (colon-separated,
prepended to sys.path). Fuel 0.2 predates Python 3.10 and numpy 1.24, so the names they removed are
put back first, and Debian's progressbar2 module is given its usual name. Two converters hard-code the real archives' counts (CelebA's 202599 faces and split
stops, Dogs vs Cats' 25000 + 12500 images); those counts, and nothing else, are replaced by RAW's.
Fuel 0.2 has no ILSVRC2012 converter (later Fuel has): that one needs a later Fuel's source tree.
Prints each split's example count and each source's shape; Fuel's own error ends it otherwise; exit
77 when that Fuel has no converter of NAME.
"""
import collections
import collections.abc
import os
import sys
import zipfile

# Fuel's ILSVRC2010 converter forks producers holding the output open while fuel-convert reopens it
# to tag it; HDF5 1.10's file locks (newer than Fuel) then refuse that reopening at random.
os.environ["HDF5_USE_FILE_LOCKING"] = "FALSE"
sys.path[:0] = [path for path in os.environ.get("FUEL_PYTHON_PATH", "").split(":") if path]
for name in ("Iterable", "Mapping", "MutableMapping", "Sequence", "Callable", "Hashable"):
    if not hasattr(collections, name):
        setattr(collections, name, getattr(collections.abc, name))
import numpy  # noqa: E402

for name, value in (("bool", bool), ("int", int), ("float", float), ("object", object)):
    if name not in numpy.__dict__:
        setattr(numpy, name, value)
try:
    import progressbar  # noqa: F401
except ImportError:  # Debian's python3-progressbar2 names its module progressbar2
    import progressbar2
    sys.modules["progressbar"] = progressbar2


def members(path):
    return len(zipfile.ZipFile(path).namelist()) - 1  # the first entry is the folder


def celeba_counts(raw):
    import fuel.converters.celeba as celeba
    count = members(os.path.join(raw, "img_align_celeba.zip"))
    celeba.NUM_EXAMPLES = count
    celeba.TRAIN_STOP = count * 162770 // 202599
    celeba.VALID_STOP = count * 182637 // 202599


def dogs_vs_cats_counts(raw):
    import fuel.converters.dogs_vs_cats as module
    train = members(os.path.join(raw, "dogs_vs_cats.train.zip"))
    total = train + members(os.path.join(raw, "dogs_vs_cats.test1.zip"))
    source = open(module.__file__).read()
    for old, new in (("(37500,)", f"({total},)"), ("(37500, 3)", f"({total}, 3)"),
                     ("(37500, 1)", f"({total}, 1)"), ("[25000, 12500]", f"[{train}, {total - train}]"),
                     ("i - 25000", f"i - {train}"),
                     ("[(0, 25000), (25000, 37500)]", f"[(0, {train}), ({train}, {total})]")):
        if old not in source:
            sys.exit(f"real_fuel_convert.py: {module.__file__} does not hold {old!r}")
        source = source.replace(old, new)
    exec(compile(source, module.__file__, "exec"), module.__dict__)


def main():
    raw, out, name = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]), sys.argv[3]
    os.chdir(raw)  # Fuel's ILSVRC2012 converter counts the test archive's members by its bare name
    if name == "celeba":
        celeba_counts(raw)
    elif name == "dogs_vs_cats":
        dogs_vs_cats_counts(raw)
    from fuel import converters
    from fuel.bin import fuel_convert
    if name not in dict(converters.all_converters):
        print(f"Fuel {converters.__version__} has no {name} converter", file=sys.stderr)
        return 77
    from fuel.datasets import H5PYDataset
    import h5py
    before = set(os.listdir(out))
    sys.argv = ["fuel-convert", name, "-d", raw, "-o", out] + sys.argv[4:]
    fuel_convert.main(sys.argv[1:])
    for written in sorted(set(os.listdir(out)) - before):
        path = os.path.join(out, written)
        with h5py.File(path, "r") as handle:
            splits = H5PYDataset.get_all_splits(handle)
        for split in splits:
            dataset = H5PYDataset(path, which_sets=(split,), load_in_memory=True)
            shapes = ", ".join(f"{source} {tuple(data.shape)}"
                               for source, data in zip(dataset.sources, dataset.data_sources))
            print(f"{written}: {split}: {dataset.num_examples} examples: {shapes}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
