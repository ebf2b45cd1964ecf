#!/usr/bin/python3
"""Writes a full-size cifar-10-python.tar.gz or cifar-100-python.tar.gz (50,000 + 10,000 images)
laid out as the real one, its images compressing as the real photographs do.

usage: make_cifar.py cifar10|cifar100 DIRECTORY
Each batch is pickled as Python 2's cPickle wrote the real archives (protocol 2, str opcodes, memo
via BINPUT), members in the real archive's order. The real cifar-10-python.tar.gz is 163 MB for
184 MB of pickles (0.886); random pixels would make stored blocks and measure no inflate at all.
The images (tests/helpers/photos.py) are smooth scenes plus Gaussian noise of sigma 3.3, which
deflate -9 takes to 0.885 of their size: Huffman-coded literals and short matches, as in the real
files.
"""
import io
import os
import struct
import sys
import tarfile

import numpy

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "helpers"))
import photos  # noqa: E402

IMAGES_PER_BATCH = 10000
NOISE_SIGMA = 3.3
CIFAR10_ORDER = ["data_batch_4", "readme.html", "test_batch", "data_batch_3", "batches.meta",
                 "data_batch_2", "data_batch_5", "data_batch_1"]
CIFAR100_ORDER = ["file.txt~", "train", "test", "meta"]


class Python2Pickle:
    """Emits the opcodes cPickle protocol 2 writes for dicts, lists, str, int and ndarrays."""

    def __init__(self):
        self.out = io.BytesIO()
        self.memo = 0

    def put(self):
        self.out.write(b"q" + bytes([self.memo]) if self.memo < 256
                       else b"r" + struct.pack("<I", self.memo))
        self.memo += 1

    def string(self, value):
        if len(value) < 256:
            self.out.write(b"U" + bytes([len(value)]) + value)
        else:
            self.out.write(b"T" + struct.pack("<i", len(value)) + value)
        self.put()

    def integer(self, value):
        if 0 <= value < 256:
            self.out.write(b"K" + bytes([value]))
        elif 0 <= value < 65536:
            self.out.write(b"M" + struct.pack("<H", value))
        else:
            self.out.write(b"J" + struct.pack("<i", value))

    def array(self, data):
        w = self.out.write
        w(b"cnumpy.core.multiarray\n_reconstruct\n"); self.put()
        w(b"cnumpy\nndarray\n"); self.put()
        w(b"K\x00\x85"); self.put()
        self.string(b"b")
        w(b"\x87"); self.put()
        w(b"R"); self.put()
        w(b"(K\x01")
        self.integer(data.shape[0]); self.integer(data.shape[1])
        w(b"\x86"); self.put()
        w(b"cnumpy\ndtype\n"); self.put()
        self.string(b"u1")
        w(b"K\x00K\x01\x87"); self.put()
        w(b"R"); self.put()
        w(b"(K\x03"); self.string(b"|")
        w(b"NNNJ\xff\xff\xff\xffJ\xff\xff\xff\xffK\x00t"); self.put()
        w(b"b\x89")
        self.string(data.tobytes())
        w(b"t"); self.put()
        w(b"b")

    def label_list(self, key, values):
        self.string(key); self.out.write(b"]"); self.put(); self.out.write(b"(")
        for value in values:
            self.integer(int(value))
        self.out.write(b"e")

    def batch(self, label, data, labels, filenames):
        """LABELS: (key, values) pairs, e.g. [(b"labels", [...])]."""
        w = self.out.write
        w(b"\x80\x02}"); self.put()
        w(b"(")
        self.string(b"batch_label"); self.string(label)
        self.string(b"data"); self.array(data)
        self.string(b"filenames"); w(b"]"); self.put(); w(b"(")
        for name in filenames:
            self.string(name)
        w(b"e")
        for key, values in labels:
            self.label_list(key, values)
        w(b"u.")
        return self.out.getvalue()


def images(generator, count):
    return photos.scenes(generator, count, NOISE_SIGMA).reshape(count, 3072)


def cifar10_member(name, generator):
    if name == "readme.html":
        return b"<meta HTTP-EQUIV=\"REFRESH\" content=\"0; url=http://www.cs.toronto.edu/~kriz/cifar.html\">\n"
    if name == "batches.meta":
        return (b"\x80\x02}q\x00(U\x09num_casesq\x01M\x10\x27U\x0blabel_namesq\x02]q\x03"
                b"U\x08airplaneq\x04aU\x07num_visq\x05M\x00\x0cu.")
    label = (b"testing batch 1 of 1" if name == "test_batch"
             else b"training batch %d of 5" % int(name[-1]))
    labels = [(b"labels", generator.integers(0, 10, IMAGES_PER_BATCH))]
    filenames = [b"image_%05d.png" % index for index in range(IMAGES_PER_BATCH)]
    return Python2Pickle().batch(label, images(generator, IMAGES_PER_BATCH), labels, filenames)


def cifar100_member(name, generator):
    if name == "file.txt~":
        return b""
    if name == "meta":
        return (b"\x80\x02}q\x00(U\x11fine_label_namesq\x01]q\x02U\x05appleq\x03a"
                b"U\x13coarse_label_namesq\x04]q\x05U\x0faquatic_mammalsq\x06au.")
    count = 5 * IMAGES_PER_BATCH if name == "train" else IMAGES_PER_BATCH
    fine = generator.integers(0, 100, count)
    labels = [(b"fine_labels", fine), (b"coarse_labels", fine // 5)]
    filenames = [b"image_%05d.png" % index for index in range(count)]
    label = b"training batch 1 of 1" if name == "train" else b"testing batch 1 of 1"
    return Python2Pickle().batch(label, images(generator, count), labels, filenames)


LAYOUTS = {
    "cifar10": ("cifar-10-python.tar.gz", "cifar-10-batches-py", CIFAR10_ORDER, cifar10_member),
    "cifar100": ("cifar-100-python.tar.gz", "cifar-100-python", CIFAR100_ORDER, cifar100_member),
}


def main():
    archive_name, folder_name, order, member_bytes = LAYOUTS[sys.argv[1]]
    directory = sys.argv[2]
    generator = numpy.random.default_rng(2026)
    path = os.path.join(directory, archive_name)
    with tarfile.open(path, "w:gz", format=tarfile.GNU_FORMAT) as archive:
        folder = tarfile.TarInfo(folder_name)
        folder.type = tarfile.DIRTYPE
        folder.mode = 0o755
        archive.addfile(folder)
        for name in order:
            content = member_bytes(name, generator)
            info = tarfile.TarInfo(folder_name + "/" + name)
            info.size = len(content)
            info.mode = 0o644
            archive.addfile(info, io.BytesIO(content))
    print(path)


if __name__ == "__main__":
    main()
