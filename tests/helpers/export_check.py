#!/usr/bin/env python3
"""Reads what fuel export and fuel preview wrote, independently of fuel's code, and compares it
value by value with the source H5PYDataset file. Each subcommand prints nothing and exits 0 when
everything matches, or prints the first mismatch and exits 1. Several checks separated by "--" run
in one start, in order, up to the first mismatch."""
import io
import json
import os
import struct
import sys

import h5py
import numpy as np
from PIL import Image

MAGIC = 0xCED7230A


def fail(message):
    print(message)
    sys.exit(1)


def selection(source_file, split, source):
    """The split's examples of SOURCE as numpy reads them through the split attribute."""
    with h5py.File(source_file, "r") as f:
        for row in f.attrs["split"]:
            if row["split"].decode() == split and row["source"].decode() == source:
                if row["indices"]:
                    return f[source][list(f[row["indices"]][...])]
                return f[source][int(row["start"]):int(row["stop"])]
    fail(f"no split {split} of {source} in {source_file}")


def as_images(features):
    """(N, C, H, W) -> (N, H, W, C) 8-bit as fuel export encodes them (floats taken as 0..1)."""
    if features.dtype.kind == "f":
        features = np.clip(np.rint(features.astype(np.float64) * 255), 0, 255)
    elif features.dtype == bool:
        features = features.astype(np.uint8) * 255
    return features.astype(np.uint8).transpose(0, 2, 3, 1)


def label_text(value):
    value = float(value)
    return str(int(value)) if value == int(value) else repr(value)


def class_names(source_file, name):
    """The file's names of label source NAME's classes (its NAME_classes dataset, else its
    fuel_card's "classes"), [] when it has none."""
    if f"{name}_classes" in source_file:
        return [value.decode() for value in source_file[f"{name}_classes"][()]]
    card = source_file.attrs.get("fuel_card")
    if card is None:
        return []
    card = json.loads(card.decode() if isinstance(card, bytes) else card)
    return card.get("classes", {}).get(name, [])


def named_label_text(value, names):
    """preview's label: "3:cat" where the class is named otherwise than by its number, a name's
    spaces shown as _."""
    text = label_text(value)
    number = float(value)
    if number == int(number) and 0 <= number < len(names) and names[int(number)] != text:
        return text + ":" + names[int(number)].replace(" ", "_")
    return text


def png_pixels(data):
    image = Image.open(io.BytesIO(data) if isinstance(data, bytes) else data)
    pixels = np.asarray(image)
    return pixels[:, :, None] if pixels.ndim == 2 else pixels


def hdf5_layer(list_file, source_file, split, scale, dtype, per_file):
    """The list names absolute paths of files whose data/label concatenate to the source."""
    paths = open(list_file).read().split("\n")[:-1]
    features = selection(source_file, split, "features")
    targets = selection(source_file, split, "targets")
    data, labels = [], []
    for number, path in enumerate(paths):
        if not os.path.isabs(path):
            fail(f"not an absolute path: {path}")
        with h5py.File(path, "r") as f:
            for name in ("data", "label"):
                if f[name].chunks is not None or f[name].compression is not None:
                    fail(f"{path}: {name} is chunked or compressed")
                if f[name].dtype != np.dtype(dtype):
                    fail(f"{path}: {name} is {f[name].dtype}, not {dtype}")
            if per_file and number < len(paths) - 1 and len(f["data"]) != per_file:
                fail(f"{path}: {len(f['data'])} examples, not {per_file}")
            if f["label"].shape != (len(f["data"]), 1):
                fail(f"{path}: label shape {f['label'].shape}")
            provenance = json.loads(f.attrs["fuel_provenance"])
            if provenance["export"]["split"] != split:
                fail(f"{path}: provenance names split {provenance['export']['split']}")
            data.append(f["data"][...])
            labels.append(f["label"][...])
    expected = (features.astype(np.float64) * scale).astype(dtype)
    if not np.array_equal(np.concatenate(data), expected):
        fail("data differs from the source times the scale")
    if not np.array_equal(np.concatenate(labels), targets.astype(dtype)):
        fail("labels differ from the source")


def record_read(stream):
    """One record by dmlc-core's rules: parts joined with the magic, padding after each part.
    Returns (payload, cflags) or None at the end."""
    payload, cflags = b"", []
    while True:
        head = stream.read(8)
        if not head:
            return None
        magic, word = struct.unpack("<II", head)
        if magic != MAGIC:
            fail(f"bad magic {magic:#x} at {stream.tell() - 8}")
        cflag, length = word >> 29, word & ((1 << 29) - 1)
        cflags.append(cflag)
        payload += stream.read(length)
        stream.read((4 - length % 4) % 4)
        if cflag in (0, 3):
            return payload, cflags
        payload += struct.pack("<I", MAGIC)


def recordio(prefix, source_file, split, label_source):
    features = selection(source_file, split, "features")
    targets = selection(source_file, split, label_source).reshape(-1)
    images = as_images(features)
    offsets = {}
    for line in open(prefix + ".idx"):
        key, offset = line.rstrip("\n").split("\t")
        offsets[int(key)] = int(offset)
    lst = [line.rstrip("\n").split("\t") for line in open(prefix + ".lst")]
    saw_parts = False
    with open(prefix + ".rec", "rb") as stream:
        for number in range(len(features)):
            if stream.tell() != offsets[number]:
                fail(f"record {number} at {stream.tell()}, .idx says {offsets[number]}")
            payload, cflags = record_read(stream)
            saw_parts |= cflags != [0]
            flag, label, record_id, record_id2 = struct.unpack("<IfQQ", payload[:24])
            if (flag, record_id, record_id2) != (0, number, 0):
                fail(f"record {number}: header {flag} {record_id} {record_id2}")
            if label != np.float32(targets[number]):
                fail(f"record {number}: label {label} != {targets[number]}")
            if not np.array_equal(png_pixels(payload[24:]), images[number]):
                fail(f"record {number}: pixels differ")
            text = label_text(targets[number])
            if lst[number] != [str(number), text, f"{split}/{text}/{number}.png"]:
                fail(f".lst line {number}: {lst[number]}")
        if record_read(stream) is not None:
            fail("records past the split's examples")
        # .idx offsets seek straight to their records, in any order
        for number in reversed(range(len(features))):
            stream.seek(offsets[number])
            payload, _ = record_read(stream)
            if struct.unpack("<Q", payload[8:16])[0] != number:
                fail(f".idx offset of {number} leads to another record")
    print("parts" if saw_parts else "whole")


def image_list(directory, name, source_file, split):
    images = as_images(selection(source_file, split, "features"))
    targets = selection(source_file, split, "targets").reshape(-1)
    lines = open(os.path.join(directory, f"{name}_{split}.txt")).read().split("\n")[:-1]
    if len(lines) != len(images):
        fail(f"{len(lines)} lines for {len(images)} examples")
    for number, line in enumerate(lines):
        text = label_text(targets[number])
        if line != f"{split}/{text}/{number}.png {text}":
            fail(f"line {number}: {line}")
        with open(os.path.join(directory, line.split(" ")[0]), "rb") as stream:
            if not np.array_equal(png_pixels(stream.read()), images[number]):
                fail(f"{line}: pixels differ")


def npy(directory, name, source_file, split, source, dtype, scale):
    array = np.load(os.path.join(directory, f"{name}_{split}_{source}.npy"), mmap_mode="r")
    if not isinstance(array, np.memmap):
        fail("numpy did not map the file")
    expected = selection(source_file, split, source)
    if dtype != "stored":
        expected = (expected.astype(np.float64) * scale).astype(dtype)
    if array.dtype != expected.dtype or array.shape != expected.shape:
        fail(f"{array.dtype} {array.shape} != {expected.dtype} {expected.shape}")
    if not np.array_equal(array, expected):
        fail("values differ")


def preview(png, labels_file, source_file, split, count, zoom, label_source):
    """Finds each tile's example by its pixels (any example of the split), checks the tile
    pixel by pixel, and that the printed labels are those examples' labels in grid order."""
    gap = 2
    images = as_images(selection(source_file, split, "features"))
    targets = selection(source_file, split, label_source).reshape(-1)
    montage = png_pixels(open(png, "rb"))
    count = min(count, len(images))
    columns = int(np.ceil(np.sqrt(count)))
    height, width = images.shape[1] * zoom, images.shape[2] * zoom
    printed = " ".join(open(labels_file).read().split())
    found, chosen = [], set()
    for index in range(count):
        row, column = divmod(index, columns)
        top, left = gap + row * (height + gap), gap + column * (width + gap)
        tile = montage[top:top + height:zoom, left:left + width:zoom]
        if tile.shape[2] != images.shape[3]:
            fail(f"tile has {tile.shape[2]} channels, examples {images.shape[3]}")
        matches = [n for n in range(len(images)) if np.array_equal(images[n], tile)
                   and n not in chosen]
        if not matches:
            fail(f"tile {index} is no example of the split")
        block = montage[top:top + height, left:left + width]
        if not np.array_equal(block, np.repeat(np.repeat(tile, zoom, 0), zoom, 1)):
            fail(f"tile {index} is not zoomed {zoom}x{zoom}")
        chosen.add(matches[0])
        found.append(matches[0])
    with h5py.File(source_file, "r") as f:
        names = class_names(f, label_source)
    expected = " ".join(named_label_text(targets[n], names) for n in found)
    if printed != expected:
        fail(f"labels printed {printed!r}, tiles show {expected!r}")
    print(" ".join(str(n) for n in found))


def check(command, arguments):
    if command == "hdf5-layer":
        hdf5_layer(arguments[0], arguments[1], arguments[2], float(arguments[3]), arguments[4],
                   int(arguments[5]))
    elif command == "recordio":
        recordio(*arguments[:3], arguments[3] if len(arguments) > 3 else "targets")
    elif command == "image-list":
        image_list(*arguments)
    elif command == "npy":
        npy(*arguments[:5], arguments[5], float(arguments[6]))
    elif command == "preview":
        preview(arguments[0], arguments[1], arguments[2], arguments[3], int(arguments[4]),
                int(arguments[5]), arguments[6] if len(arguments) > 6 else "targets")
    else:
        fail(f"unknown check {command}")


def main():
    words = sys.argv[1:]
    while words:
        end = words.index("--") if "--" in words else len(words)
        check(words[0], words[1:end])
        words = words[end + 1:]


if __name__ == "__main__":
    main()
