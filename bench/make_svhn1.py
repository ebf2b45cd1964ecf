#!/usr/bin/python3
"""Writes synthetic SVHN format 1 archives: make_svhn1.py OUTDIR TRAIN TEST EXTRA [SEED].

Each SPLIT.tar.gz holds SPLIT/1.png ... SPLIT/N.png and SPLIT/digitStruct.mat (MATLAB 7.3: HDF5
behind a 512-byte header, digitStruct/bbox and digitStruct/name as vectors of references into
#refs#, a field inline for one box and a cell of one-number datasets for several), 1 to 6 boxes
per image. The photos are smooth colour gradients with noise, so that PNG compresses them about
as poorly as it does real photos (the real train.tar.gz averages 12 KB per image), and their
sizes vary as SVHN's do.
"""
import io
import sys
import tarfile

import h5py
import numpy
from PIL import Image

FIELDS = ("height", "label", "left", "top", "width")


def photo(generator):
    height = int(generator.integers(25, 120))
    width = int(generator.integers(30, 220))
    rows = numpy.linspace(0, 1, height)[:, None, None]
    columns = numpy.linspace(0, 1, width)[None, :, None]
    start, slope_y, slope_x = (generator.uniform(0, 255, 3), generator.uniform(-90, 90, 3),
                               generator.uniform(-90, 90, 3))
    pixels = start + slope_y * rows + slope_x * columns + generator.normal(0, 5, (height, width, 3))
    buffer = io.BytesIO()
    Image.fromarray(numpy.clip(pixels, 0, 255).astype(numpy.uint8), "RGB").save(buffer, "PNG")
    return buffer.getvalue()


def write_digit_struct(path, count, generator):
    header = b"MATLAB 7.3 MAT-file, Platform: GLNXA64, Created on: Thu Jan  1 00:00:00 1970 HDF5 schema 1.00 ."
    with h5py.File(path, "w", userblock_size=512, libver="earliest") as handle:
        refs = handle.create_group("#refs#")
        reference = h5py.special_dtype(ref=h5py.Reference)
        bbox = numpy.empty((count, 1), dtype=object)
        names = numpy.empty((count, 1), dtype=object)
        serial = 0
        for image in range(count):
            boxes = int(generator.integers(1, 7))
            group = refs.create_group("g%d" % image)
            for field in FIELDS:
                values = generator.integers(1, 11 if field == "label" else 300, boxes).astype(float)
                if boxes == 1:
                    group.create_dataset(field, data=values.reshape(1, 1))
                    group[field].attrs["MATLAB_class"] = numpy.bytes_("double")
                    continue
                cells = numpy.empty((boxes, 1), dtype=object)
                for box in range(boxes):
                    element = refs.create_dataset("c%d" % serial, data=values[box].reshape(1, 1))
                    serial += 1
                    cells[box, 0] = element.ref
                group.create_dataset(field, data=cells, dtype=reference)
                group[field].attrs["MATLAB_class"] = numpy.bytes_("cell")
            bbox[image, 0] = group.ref
            text = numpy.frombuffer(("%d.png" % (image + 1)).encode(), numpy.uint8)
            name = refs.create_dataset("n%d" % image, data=text.astype(numpy.uint16).reshape(-1, 1))
            name.attrs["MATLAB_class"] = numpy.bytes_("char")
            names[image, 0] = name.ref
        struct = handle.create_group("digitStruct")
        struct.attrs["MATLAB_class"] = numpy.bytes_("struct")
        struct.create_dataset("bbox", data=bbox, dtype=reference)
        struct.create_dataset("name", data=names, dtype=reference)
    with open(path, "r+b") as handle:
        handle.write(header.ljust(128, b" "))


def add(archive, name, data):
    member = tarfile.TarInfo(name)
    member.size = len(data)
    archive.addfile(member, io.BytesIO(data))


def write_split(directory, split, count, generator):
    mat = "%s/%s_digitStruct.mat" % (directory, split)
    write_digit_struct(mat, count, generator)
    with tarfile.open("%s/%s.tar.gz" % (directory, split), "w:gz", compresslevel=6) as archive:
        for image in range(count):
            add(archive, "%s/%d.png" % (split, image + 1), photo(generator))
        with open(mat, "rb") as handle:
            add(archive, "%s/digitStruct.mat" % split, handle.read())
    import os
    os.remove(mat)


def main():
    directory = sys.argv[1]
    counts = [int(value) for value in sys.argv[2:5]]
    generator = numpy.random.default_rng(int(sys.argv[5]) if len(sys.argv) > 5 else 13)
    for split, count in zip(("train", "test", "extra"), counts):
        write_split(directory, split, count, generator)


if __name__ == "__main__":
    main()
