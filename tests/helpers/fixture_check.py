#!/usr/bin/python3
"""Checks fuel-fixture's output with Python's own readers.

usage: fixture_check.py layout ACTUAL.json EXPECTED.json
         the fuel-info --json documents agree on everything but counts, commands and provenance
       fixture_check.py raw DATASET DIR N
         reads DIR's raw files back with gzip, pickle, scipy.io.loadmat, h5py, zipfile, PIL and
         numpy.loadtxt (Python Fuel's reader of the text files): N examples per split, plausible
         values, MD5SUMS right, every file marked as fuel-fixture's (gzip comment, MAT-file header
         text, zip comment, a '#' comment ending the first line)
       fixture_check.py plausible DATASET FILE
         the HDF5 fixture's values are plausible (labels in range, boxes inside images, ...)
       fixture_check.py splits FILE SPLIT=N...
         read as Fuel's H5PYDataset reads the split attribute, each split holds N examples of
         every source
       fixture_check.py cut PARENT CHILD N [SEED]
         each split of CHILD holds the first N (SEED given: a sorted random N) examples of PARENT's
         split, for every source, read as Fuel's H5PYDataset reads the split attribute
       fixture_check.py CHECK -- CHECK ...
         several checks in one start (each problem then names its check)
Prints one line per problem and exits 1 when there is any.
"""
import gzip
import hashlib
import io
import json
import os
import pickle
import sys
import tarfile
import zipfile

import h5py
import numpy
import scipy.io
from PIL import Image

PROBLEMS = []


def expect(condition, message):
    if not condition:
        PROBLEMS.append(message)


def layout_of(document):
    rows = sorted((row["split"], row["source"], row["available"], row["comment"], row["layout"])
                  for row in document["split_rows"])
    sources = []
    for source in document["sources"]:
        source = dict(source)
        source["shape"] = source["shape"][1:]
        source.pop("digest", None)  # the values differ: synthetic examples
        sources.append(source)
    return {"splits": document["splits"], "rows": rows, "sources": sources,
            "interface": document["h5py_interface_version"]}


def layout(actual_path, expected_path):
    with open(actual_path) as actual, open(expected_path) as expected:
        actual_layout, expected_layout = layout_of(json.load(actual)), layout_of(json.load(expected))
    for key in expected_layout:
        expect(actual_layout[key] == expected_layout[key],
               "%s differs: %r != %r" % (key, actual_layout[key], expected_layout[key]))


def md5sums(directory):
    with open(os.path.join(directory, "MD5SUMS")) as listing:
        for line in listing:
            digest, name = line.split()
            with open(os.path.join(directory, name), "rb") as raw:
                expect(hashlib.md5(raw.read()).hexdigest() == digest, "MD5SUMS wrong for " + name)
            expect(marked(os.path.join(directory, name)), name + ": no fuel-fixture mark")


def idx(path, magic, count):
    data = gzip.open(path).read()
    expect(int.from_bytes(data[:4], "big") == magic, path + ": magic")
    expect(int.from_bytes(data[4:8], "big") == count, path + ": count")
    return data


def raw_mnist(directory, count):
    for prefix in ("train", "t10k"):
        images = idx(os.path.join(directory, prefix + "-images-idx3-ubyte.gz"), 2051, count)
        labels = idx(os.path.join(directory, prefix + "-labels-idx1-ubyte.gz"), 2049, count)
        expect(images[8:16] == bytes([0, 0, 0, 28, 0, 0, 0, 28]), prefix + ": not 28x28")
        expect(len(images) == 16 + 784 * count, prefix + ": image bytes")
        expect(all(label < 10 for label in labels[8:]), prefix + ": label out of range")
        expect(len(labels) == 8 + count, prefix + ": label bytes")
        expect(max(images[16:]) > 128, prefix + ": no bright stroke")


def raw_binarized(directory, count):
    for split in ("train", "valid", "test"):
        rows = numpy.loadtxt(os.path.join(directory, "binarized_mnist_%s.amat" % split), ndmin=2)
        expect(rows.shape == (count, 784), split + ": rows")
        expect(set(numpy.unique(rows)) <= {0, 1}, split + ": values")


def raw_iris(directory, count):
    classes = {"Iris-setosa": 0, "Iris-versicolor": 1, "Iris-virginica": 2}
    rows = numpy.loadtxt(os.path.join(directory, "iris.data"), delimiter=",", ndmin=2,
                         converters={4: lambda name: classes[name]}, encoding="latin1")
    expect(rows.shape == (count, 5), "iris rows")
    expect(numpy.all((rows[:, :4] > 0) & (rows[:, :4] < 10)), "iris features")


MARK = b"written by fuel fixture --raw: synthetic data, not the real files"


def gzip_comment(header):
    """RFC 1952: the FCOMMENT string of a gzip header, None without one."""
    flags, offset = header[3], 10
    if flags & 4:
        offset += 2 + int.from_bytes(header[offset:offset + 2], "little")
    if flags & 8:
        offset = header.index(b"\0", offset) + 1
    return header[offset:header.index(b"\0", offset)] if flags & 16 else None


def marked(path):
    with open(path, "rb") as raw:
        head = raw.read(512)
    if head[:2] == b"\x1f\x8b":
        return gzip_comment(head) == MARK
    if head[:6] == b"MATLAB":
        return head[:116].rstrip(b" ") == b"MATLAB 5.0 MAT-file, " + MARK
    if head[:4] == b"PK\3\4":
        with zipfile.ZipFile(path) as archive:
            return archive.comment == MARK
    with open(path, "rb") as raw:
        last_line = raw.read().split(b"\n")[-2]
    first_line = head.split(b"\n")[0]
    return (first_line in (b"# " + MARK, b"|" + MARK) or first_line.endswith(b" # " + MARK) or
            last_line == b"|" + MARK)


def raw_adult(directory, count):
    for name, header, dot in (("adult.data", False, ""), ("adult.test", True, ".")):
        with open(os.path.join(directory, name)) as data:
            lines = data.read().split("\n")
        # The mark takes the place of a line Python Fuel drops: the test file's first, the training
        # file's last (blank in the real files).
        mark = "|" + MARK.decode()
        expect(lines[-2:] == (["", ""] if header else [mark, ""]), name + ": last line")
        expect((lines[0] == mark) == header, name + ": header line")
        rows = [line.split(", ") for line in lines[header:-2]]
        expect(all(len(row) == 15 for row in rows), name + ": 15 fields a row")
        complete = [row for row in rows if "?" not in row]
        expect(len(complete) == count, name + ": %d complete rows" % len(complete))
        expect(all(row[14] in (">50K" + dot, "<=50K" + dot) for row in rows), name + ": labels")
        expect(all(17 <= int(row[0]) <= 90 and 1 <= int(row[12]) <= 99 for row in rows),
               name + ": age, hours-per-week")


def raw_silhouettes(directory, count, side):
    mat = scipy.io.loadmat(os.path.join(directory, "caltech101_silhouettes_%d_split1.mat" % side))
    for prefix in ("train", "val", "test"):
        data, labels = mat[prefix + "_data"], mat[prefix + "_labels"]
        expect(data.dtype == numpy.uint8 and data.shape == (count, side * side), prefix + "_data")
        expect(set(numpy.unique(data)) <= {0, 1}, prefix + "_data: 0 and 1")
        expect(labels.dtype == numpy.uint8 and labels.shape == (count, 1), prefix + "_labels")
        expect(labels.min() >= 1 and labels.max() <= 101, prefix + "_labels: 1-101")
    classes = scipy.io.loadmat(os.path.join(directory, "caltech101_silhouettes_%d_split1.mat" % side),
                               mat_dtype=True)
    expect(classes["train_data"].dtype == numpy.float64, "train_data: MATLAB doubles")


def unpickle(archive, name):
    return pickle.load(archive.extractfile(name), encoding="bytes")


def raw_cifar(directory, count, hundred):
    name = "cifar-100-python.tar.gz" if hundred else "cifar-10-python.tar.gz"
    with tarfile.open(os.path.join(directory, name)) as archive:
        if hundred:
            batches, meta = ["cifar-100-python/train"], unpickle(archive, "cifar-100-python/meta")
            test = "cifar-100-python/test"
            expect(len(meta[b"fine_label_names"]) == 100, "fine_label_names")
        else:
            batches = ["cifar-10-batches-py/data_batch_%d" % number for number in range(1, 6)]
            test = "cifar-10-batches-py/test_batch"
            meta = unpickle(archive, "cifar-10-batches-py/batches.meta")
            expect(meta[b"label_names"][0] == b"airplane", "label_names")
        for members in (batches, [test]):
            total = 0
            for member in members:
                batch = unpickle(archive, member)
                data = batch[b"data"]
                expect(data.dtype == numpy.uint8 and data.shape[1:] == (3072,), member + ": data")
                total += data.shape[0]
                labels = batch[b"fine_labels" if hundred else b"labels"]
                expect(len(labels) == data.shape[0], member + ": labels")
                expect(all(0 <= label < (100 if hundred else 10) for label in labels), member)
                if hundred:
                    expect(all(0 <= label < 20 for label in batch[b"coarse_labels"]), member)
                expect(isinstance(batch[b"batch_label"], bytes), member + ": Python 2 str")
            expect(total == count, "%s: %d examples" % (members[0], total))


def raw_svhn2(directory, count):
    for split in ("train", "test", "extra"):
        mat = scipy.io.loadmat(os.path.join(directory, split + "_32x32.mat"))
        expect(mat["X"].dtype == numpy.uint8 and mat["X"].shape == (32, 32, 3, count), split + " X")
        expect(mat["y"].dtype == numpy.float64 and mat["y"].shape == (count, 1), split + " y")
        expect(mat["y"].min() >= 1 and mat["y"].max() <= 10, split + ": labels 1-10")


def svhn1_split(archive, split, count):
    struct = h5py.File(io.BytesIO(archive.extractfile(split + "/digitStruct.mat").read()), "r")
    expect(struct.userblock_size == 512, split + ": user block")
    expect(struct["digitStruct"].attrs["MATLAB_class"] == b"struct", split + ": MATLAB_class")
    boxes, names = struct["digitStruct/bbox"], struct["digitStruct/name"]
    expect(boxes.shape == (count, 1) and names.shape == (count, 1), split + ": struct shape")
    for index in range(count):
        name = "".join(chr(unit) for unit in struct[names[index, 0]][:, 0])
        expect(name == "%d.png" % (index + 1), split + ": name " + name)
        image = Image.open(archive.extractfile(split + "/" + name))
        expect(image.mode == "RGB", split + ": mode")
        group = struct[boxes[index, 0]]
        fields = {}
        for field in ("label", "height", "width", "left", "top"):
            values = group[field]
            if values.dtype == object:
                fields[field] = [float(struct[reference][0, 0]) for reference in values[:, 0]]
            else:
                fields[field] = [float(values[0, 0])]
        for box in range(len(fields["label"])):
            expect(1 <= fields["label"][box] <= 10, split + ": label")
            expect(fields["left"][box] >= 0 and fields["top"][box] >= 0, split + ": box origin")
            expect(fields["left"][box] + fields["width"][box] <= image.size[0], split + ": box x")
            expect(fields["top"][box] + fields["height"][box] <= image.size[1], split + ": box y")


def raw_svhn1(directory, count):
    for split in ("train", "test", "extra"):
        with tarfile.open(os.path.join(directory, split + ".tar.gz")) as archive:
            svhn1_split(archive, split, count)


def raw_celeba(directory, count):
    with zipfile.ZipFile(os.path.join(directory, "img_align_celeba.zip")) as archive:
        names = archive.namelist()
        expect(names == ["img_align_celeba/"] + ["img_align_celeba/%06d.jpg" % number
                                                 for number in range(1, count + 1)], "celeba names")
        for name in names[1:]:
            image = Image.open(io.BytesIO(archive.read(name)))
            expect(image.format == "JPEG" and image.mode == "RGB" and image.size == (178, 218), name)
    values = numpy.loadtxt(os.path.join(directory, "list_attr_celeba.txt"), dtype="int32",
                           skiprows=2, usecols=tuple(range(1, 41)), ndmin=2)
    expect(values.shape == (count, 40) and set(numpy.unique(values)) <= {-1, 1}, "attributes")
    with open(os.path.join(directory, "list_attr_celeba.txt")) as attributes:
        count_line = attributes.readline().split("#")[0]
        expect(count_line.strip() == str(count), "attribute count line")
        expect(len(attributes.readline().split()) == 40, "attribute names")


def raw_dogs_vs_cats(directory, count):
    modes = []
    for split, folder in (("train", "train/"), ("test1", "test1/")):
        with zipfile.ZipFile(os.path.join(directory, "dogs_vs_cats.%s.zip" % split)) as archive:
            names = archive.namelist()
            expect(names[0] == folder and len(names) == count + 1, split + ": members")
            for name in names[1:]:
                image = Image.open(io.BytesIO(archive.read(name)))
                expect(image.format == "JPEG" and max(image.size) <= 500, name)
                modes.append(image.mode)
                base = name[len(folder):]
                expect(base.split(".")[0] in ("cat", "dog") if split == "train"
                       else base.split(".")[0].isdigit(), name)
    expect(modes == ["RGB"] * len(modes), "RGB members only (grayscale only with --quirks)")


def raw(dataset, directory, count):
    readers = {"mnist": raw_mnist, "fashion_mnist": raw_mnist, "binarized_mnist": raw_binarized,
               "iris": raw_iris, "svhn2": raw_svhn2, "svhn1": raw_svhn1, "adult": raw_adult,
               "caltech16": lambda d, c: raw_silhouettes(d, c, 16),
               "caltech28": lambda d, c: raw_silhouettes(d, c, 28),
               "cifar10": lambda d, c: raw_cifar(d, c, False),
               "cifar100": lambda d, c: raw_cifar(d, c, True), "celeba": raw_celeba,
               "dogs_vs_cats": raw_dogs_vs_cats}
    readers[dataset](directory, count)
    md5sums(directory)


def plausible(dataset, path):
    handle = h5py.File(path, "r")
    provenance = json.loads(handle.attrs["fuel_provenance"])
    expect("fixture" in provenance, "no fixture in the provenance")
    ranges = {"mnist": ("targets", 10), "fashion_mnist": ("targets", 10), "cifar10": ("targets", 10),
              "cifar100": ("fine_labels", 100), "iris": ("targets", 3), "svhn2": ("targets", 10),
              "caltech16": ("targets", 102), "caltech28": ("targets", 102)}
    if dataset in ranges:
        source, limit = ranges[dataset]
        targets = handle[source][...]
        expect(targets.min() >= 0 and targets.max() < limit, "%s out of range" % source)
    if dataset in ("binarized_mnist", "caltech16", "caltech28"):
        expect(set(numpy.unique(handle["features"][...])) <= {0, 1}, "features not 0/1")
    if dataset in ("caltech16", "caltech28"):
        expect(handle["targets"][...].min() >= 1, "silhouette labels start at 1")
    if dataset == "adult":
        features = handle["features"][...]
        expect(handle["targets"].dtype == numpy.bool_, "adult targets not bool")
        expect(features[:, 0].min() >= 17 and features[:, 0].max() <= 90, "adult age")
        expect(features.min() >= 0, "adult: a negative value")
        expect(((features == 1).sum(axis=1) >= 8).all(), "adult: fewer than 8 one-hot ones a row")
    if dataset == "iris":
        expect(handle["features"][...].min() > 0, "iris features not positive")
    if dataset in ("celeba", "dogs_vs_cats"):
        expect(set(numpy.unique(handle["targets"][...])) <= {0, 1}, "targets not 0/1")
    if dataset == "dogs_vs_cats":
        shapes = handle["image_features_shapes"][...]
        expect(set(shapes[:, 0]) <= {1, 3} and shapes[:, 1:].max() <= 500, "dogs_vs_cats shapes")
    if dataset == "svhn1":
        shapes = handle["features_shapes"][...]
        for index in range(len(shapes)):
            lefts, widths = handle["bbox_lefts"][index], handle["bbox_widths"][index]
            tops, heights = handle["bbox_tops"][index], handle["bbox_heights"][index]
            labels = handle["bbox_labels"][index]
            expect(labels.max() <= 9, "svhn 1 labels: the converter writes 10 as 0")
            expect((lefts + widths <= shapes[index][2]).all(), "svhn 1 box past the width")
            expect((tops + heights <= shapes[index][1]).all(), "svhn 1 box past the height")


def split_examples(handle, split, source):
    """A split's examples of a source, as Fuel's H5PYDataset finds them from the split attribute."""
    for row in handle.attrs["split"]:
        if row["split"].rstrip(b"\0").decode() == split and \
                row["source"].rstrip(b"\0").decode() == source and row["available"]:
            if row["indices"]:
                return [handle[source][index] for index in handle[row["indices"]][...]]
            return [handle[source][index] for index in range(row["start"], row["stop"])]
    return None


def splits(path, counts):
    handle = h5py.File(path, "r")
    sources = sorted({row["source"].rstrip(b"\0").decode() for row in handle.attrs["split"]})
    for item in counts:
        split, count = item.split("=")
        for source in sources:
            examples = split_examples(handle, split, source)
            expect(examples is not None and len(examples) == int(count),
                   "%s/%s: %s examples, expected %s" % (
                       split, source, None if examples is None else len(examples), count))


def parent_positions(parent, child, split, source):
    """Where each of CHILD's examples of SPLIT comes from among PARENT's (first match)."""
    expected, actual = split_examples(parent, split, source), split_examples(child, split, source)
    positions = []
    for item in actual:
        matches = [number for number, candidate in enumerate(expected)
                   if numpy.array_equal(item, candidate)]
        positions.append(matches)
    return positions


def cut(parent_path, child_path, count, seed):
    parent, child = h5py.File(parent_path, "r"), h5py.File(child_path, "r")
    split_names = sorted({row["split"].rstrip(b"\0").decode() for row in parent.attrs["split"]})
    sources = sorted({row["source"].rstrip(b"\0").decode() for row in parent.attrs["split"]})
    picks = {}
    for split in split_names:
        for source in sources:
            expected, actual = split_examples(parent, split, source), split_examples(child, split, source)
            if expected is None:
                expect(actual is None, "%s/%s should be unavailable" % (split, source))
                continue
            wanted = min(count, len(expected))
            expect(len(actual) == wanted, "%s/%s: %d examples" % (split, source, len(actual)))
            if seed is None:
                expected = expected[:wanted]
            else:
                positions = parent_positions(parent, child, split, source)
                expect(all(positions), "%s/%s: an example not in the parent" % (split, source))
                picks.setdefault(split, []).append(positions)
                continue
            for number, (item, reference) in enumerate(zip(actual, expected)):
                expect(numpy.array_equal(item, reference) and item.dtype == reference.dtype,
                       "%s/%s: example %d differs" % (split, source, number))
        for source in sources:
            expect(child[source].dims[0].label == parent[source].dims[0].label, source + " labels")
    for split, per_source in picks.items():
        # Every source keeps the same examples: some parent position fits each source's example.
        for number in range(len(per_source[0])):
            common = set(per_source[0][number])
            for positions in per_source[1:]:
                common &= set(positions[number])
            expect(common, "%s: example %d is not the same example in every source" % (split, number))


def check(arguments):
    command = arguments[0]
    if command == "layout":
        layout(arguments[1], arguments[2])
    elif command == "raw":
        raw(arguments[1], arguments[2], int(arguments[3]))
    elif command == "plausible":
        plausible(arguments[1], arguments[2])
    elif command == "splits":
        splits(arguments[1], arguments[2:])
    elif command == "cut":
        cut(arguments[1], arguments[2], int(arguments[3]), arguments[4] if len(arguments) > 4 else None)


def main(arguments):
    groups = [[]]
    for word in arguments:
        if word == "--":
            groups.append([])
        else:
            groups[-1].append(word)
    for group in filter(None, groups):
        first = len(PROBLEMS)
        check(group)
        if len(groups) > 1:
            PROBLEMS[first:] = [" ".join(group) + ": " + problem for problem in PROBLEMS[first:]]
    for problem in PROBLEMS:
        print(problem)
    return 1 if PROBLEMS else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
