#!/usr/bin/python3
"""Writes a full-size cifar-10-python.tar.gz (50,000 + 10,000 images) laid out as the real one.

usage: make_cifar10.py DIRECTORY [--cifar100]
--cifar100 writes cifar-100-python.tar.gz instead: members train (50,000 images, one 155 MB
pickle) and test (10,000), with fine_labels and coarse_labels.
Each batch is pickled as Python 2's cPickle wrote the real archive (protocol 2, str opcodes, memo
via BINPUT), members in the real archive's order. Images are smooth blocks plus noise, which
gzip compresses about as much as the real photographs (ratio ~0.92).
"""
import io
import os
import struct
import sys
import tarfile

import numpy

IMAGES_PER_BATCH = 10000
MEMBER_ORDER = ["data_batch_4", "readme.html", "test_batch", "data_batch_3", "batches.meta",
                "data_batch_2", "data_batch_5", "data_batch_1"]


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

    def batch(self, label, data, labels, filenames, label_keys=(b"labels",)):
        w = self.out.write
        w(b"\x80\x02}"); self.put()
        w(b"(")
        self.string(b"batch_label"); self.string(label)
        self.string(b"data"); self.array(data)
        self.string(b"filenames"); w(b"]"); self.put(); w(b"(")
        for name in filenames:
            self.string(name)
        w(b"e")
        for key, values in zip(label_keys, labels):
            self.string(key); w(b"]"); self.put(); w(b"(")
            for value in values:
                self.integer(int(value))
            w(b"e")
        w(b"u.")
        return self.out.getvalue()


def images(generator, count):
    low = generator.integers(0, 256, (count, 3, 4, 4)).astype(numpy.int16)
    full = low.repeat(8, axis=2).repeat(8, axis=3)
    full += generator.integers(-4, 5, full.shape).astype(numpy.int16)
    return numpy.clip(full, 0, 255).astype(numpy.uint8).reshape(count, 3072)


def member_bytes(name, generator):
    if name == "readme.html":
        return b"<meta HTTP-EQUIV=\"REFRESH\" content=\"0; url=http://www.cs.toronto.edu/~kriz/cifar.html\">\n"
    if name == "batches.meta":
        return (b"\x80\x02}q\x00(U\x09num_casesq\x01M\x10\x27U\x0blabel_namesq\x02]q\x03"
                b"U\x08airplaneq\x04aU\x07num_visq\x05M\x00\x0cu.")
    label = (b"testing batch 1 of 1" if name == "test_batch"
             else b"training batch %d of 5" % int(name[-1]))
    labels = generator.integers(0, 10, IMAGES_PER_BATCH)
    filenames = [b"image_%05d.png" % index for index in range(IMAGES_PER_BATCH)]
    return Python2Pickle().batch(label, images(generator, IMAGES_PER_BATCH), [labels], filenames)


def cifar100_member(name, generator):
    count = 50000 if name == "train" else 10000
    labels = [generator.integers(0, 100, count), generator.integers(0, 20, count)]
    filenames = [b"image_%05d.png" % index for index in range(count)]
    return Python2Pickle().batch(name.encode(), images(generator, count), labels, filenames,
                                 (b"fine_labels", b"coarse_labels"))


def main():
    directory = sys.argv[1]
    cifar100 = "--cifar100" in sys.argv[2:]
    generator = numpy.random.default_rng(2026)
    path = os.path.join(directory, "cifar-100-python.tar.gz" if cifar100 else "cifar-10-python.tar.gz")
    folder_name = "cifar-100-python" if cifar100 else "cifar-10-batches-py"
    with tarfile.open(path, "w:gz", format=tarfile.GNU_FORMAT) as archive:
        folder = tarfile.TarInfo(folder_name)
        folder.type = tarfile.DIRTYPE
        folder.mode = 0o755
        archive.addfile(folder)
        for name in (["train", "test"] if cifar100 else MEMBER_ORDER):
            content = cifar100_member(name, generator) if cifar100 else member_bytes(name, generator)
            info = tarfile.TarInfo(folder_name + "/" + name)
            info.size = len(content)
            info.mode = 0o644
            archive.addfile(info, io.BytesIO(content))
    print(path)


if __name__ == "__main__":
    main()
