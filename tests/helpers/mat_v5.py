#!/usr/bin/python3
"""Reads and writes MATLAB level-5 MAT-files (numeric arrays only) for tests and benchmarks.

usage: mat_v5.py show FILE
       mat_v5.py rewrite IN OUT [--uncompressed] [--big-endian] [--store NAME=TYPE]
                 [--rename OLD=NEW] [--reshape NAME=D1,D2,...] [--drop-last NAME] [--drop NAME]
                 [--class NAME=TYPE]
       mat_v5.py synthetic OUT COUNT [--level L]
`rewrite` re-encodes every variable of IN (values unchanged unless an option says otherwise);
--store writes NAME's data with the narrower stored type TYPE (uint8, int16, ...), as MATLAB does
for integer-valued doubles; --class changes NAME's class. `synthetic` streams an SVHN-like X (32x32x3xCOUNT uint8, photo-like
compressibility) and y (COUNTx1 double, 1..10), each in its own zlib miCOMPRESSED element.
"""
import argparse
import struct
import sys
import zlib

import numpy

import photos

MI_TYPES = {1: "i1", 2: "u1", 3: "i2", 4: "u2", 5: "i4", 6: "u4", 7: "f4", 9: "f8", 12: "i8", 13: "u8"}
MI_CODES = {name: code for code, name in MI_TYPES.items()}
TYPE_NAMES = {"int8": "i1", "uint8": "u1", "int16": "i2", "uint16": "u2", "int32": "i4",
              "uint32": "u4", "single": "f4", "double": "f8", "int64": "i8", "uint64": "u8"}
CLASSES = {"f8": 6, "f4": 7, "i1": 8, "u1": 9, "i2": 10, "u2": 11, "i4": 12, "u4": 13, "i8": 14,
           "u8": 15}
CLASS_TYPES = {code: name for name, code in CLASSES.items()}
MI_MATRIX, MI_COMPRESSED = 14, 15


class Variable:
    def __init__(self, name, class_type, dims, stored_type, data):
        self.name, self.class_type, self.dims = name, class_type, list(dims)
        self.stored_type, self.data = stored_type, data  # data: 1-D array, column-major order


def read_tag(buffer, offset, order):
    word, = struct.unpack_from(order + "I", buffer, offset)
    if word >> 16:
        return word & 0xFFFF, word >> 16, offset + 4, offset + 8
    data_type, size = struct.unpack_from(order + "II", buffer, offset)
    return data_type, size, offset + 8, offset + 8 + (size + 7) // 8 * 8


def parse_matrix(buffer, order):
    _, _, start, _ = read_tag(buffer, 0, order)
    _, _, data, offset = read_tag(buffer, start, order)
    flags, = struct.unpack_from(order + "I", buffer, data)
    _, size, data, offset = read_tag(buffer, offset, order)
    dims = struct.unpack_from(order + "%di" % (size // 4), buffer, data)
    _, size, data, offset = read_tag(buffer, offset, order)
    name = bytes(buffer[data:data + size]).decode()
    if flags & 0xFF == 1:  # a cell (the fixtures' classnames): not numbers, left out
        return None
    stored, size, data, offset = read_tag(buffer, offset, order)
    dtype = numpy.dtype(MI_TYPES[stored]).newbyteorder(order)
    values = numpy.frombuffer(bytes(buffer[data:data + size]), dtype=dtype)
    return Variable(name, CLASS_TYPES[flags & 0xFF], dims, MI_TYPES[stored], values)


def read_file(path):
    with open(path, "rb") as handle:
        content = handle.read()
    order = "<" if content[126:128] == b"IM" else ">"
    variables, offset = [], 128
    while offset + 8 <= len(content):
        data_type, size = struct.unpack_from(order + "II", content, offset)
        body = content[offset + 8:offset + 8 + size]
        offset += 8 + size
        if data_type == MI_COMPRESSED:
            body = zlib.decompress(body)
        elif data_type == MI_MATRIX:
            body = content[offset - 8 - size:offset]
            offset += (8 - size % 8) % 8
        variable = parse_matrix(body, order)
        if variable is not None:
            variables.append(variable)
    return variables, order


def header(order, text=b"MATLAB 5.0 MAT-file, written by tests/helpers/mat_v5.py"):
    return text.ljust(116, b" ") + b"\0" * 8 + struct.pack(order + "H", 0x0100) + (
        b"IM" if order == "<" else b"MI")


def element(data_type, payload, order):
    if len(payload) <= 4:
        return struct.pack(order + "I", (len(payload) << 16) | data_type) + payload.ljust(4, b"\0")
    return struct.pack(order + "II", data_type, len(payload)) + payload + b"\0" * (
        (8 - len(payload) % 8) % 8)


def matrix_head(variable, order, data_size):
    """The miMATRIX tag and every subelement before the real part's data bytes."""
    flags = element(6, struct.pack(order + "II", CLASSES[variable.class_type], 0), order)
    dims = element(5, struct.pack(order + "%di" % len(variable.dims), *variable.dims), order)
    name = element(1, variable.name.encode(), order)
    stored = MI_CODES[variable.stored_type]
    padded = data_size if data_size <= 4 else data_size + (8 - data_size % 8) % 8
    real_tag = b"" if data_size <= 4 else struct.pack(order + "II", stored, data_size)
    size = len(flags) + len(dims) + len(name) + len(real_tag) + (8 if data_size <= 4 else padded)
    return struct.pack(order + "II", MI_MATRIX, size) + flags + dims + name + real_tag


def matrix_bytes(variable, order):
    data = variable.data.astype(numpy.dtype(variable.stored_type).newbyteorder(order)).tobytes()
    head = matrix_head(variable, order, len(data))
    if len(data) <= 4:
        return head + element(MI_CODES[variable.stored_type], data, order)
    return head + data + b"\0" * ((8 - len(data) % 8) % 8)


def write_file(path, variables, order, compressed):
    with open(path, "wb") as handle:
        handle.write(header(order))
        for variable in variables:
            content = matrix_bytes(variable, order)
            if compressed:
                packed = zlib.compress(content)
                handle.write(struct.pack(order + "II", MI_COMPRESSED, len(packed)) + packed)
            else:
                handle.write(content)


def rewrite(arguments):
    variables, order = read_file(arguments.input)
    if arguments.big_endian:
        order = ">"
    by_name = {variable.name: variable for variable in variables}
    for change in arguments.store:
        name, type_name = change.split("=")
        by_name[name].stored_type = TYPE_NAMES[type_name]
    for change in arguments.set_class:
        name, type_name = change.split("=")
        by_name[name].class_type = TYPE_NAMES[type_name]
    for change in arguments.reshape:
        name, dims = change.split("=")
        by_name[name].dims = [int(value) for value in dims.split(",")]
    for name in arguments.drop_last:
        variable = by_name[name]
        variable.dims[0] -= 1
        variable.data = variable.data[:-1]
    for change in arguments.rename:
        old, new = change.split("=")
        by_name[old].name = new
    variables = [variable for variable in variables if variable.name not in arguments.drop]
    write_file(arguments.output, variables, order, not arguments.uncompressed)


def synthetic_images(count, block=4096):
    """Yields column-major X bytes, BLOCK images at a time, compressing as SVHN's photographs do
    (see photos.py: 0.81, as the real train_32x32.mat)."""
    generator = numpy.random.default_rng(2012)
    for first in range(0, count, block):
        images = photos.scenes(generator, min(block, count - first), 1.7)
        # (n, channel, column, row) in C order is X[row][column][channel][n] in column-major.
        yield images.transpose(0, 1, 3, 2).tobytes()


def synthetic(arguments):
    count, order = arguments.count, "<"
    images = Variable("X", "u1", [32, 32, 3, count], "u1", None)
    labels = numpy.random.default_rng(7).integers(1, 11, size=count).astype("f8")
    with open(arguments.output, "wb") as handle:
        handle.write(header(order, b"MATLAB 5.0 MAT-file, Platform: GLNXA64, synthetic SVHN extra"))
        compressor = zlib.compressobj(arguments.level)
        start = handle.tell()
        handle.write(b"\0" * 8)
        data_size = 32 * 32 * 3 * count
        pieces = [compressor.compress(matrix_head(images, order, data_size))]
        for block in synthetic_images(count):
            pieces.append(compressor.compress(block))
            handle.write(b"".join(pieces))
            pieces = []
        handle.write(compressor.compress(b"\0" * ((8 - data_size % 8) % 8)) + compressor.flush())
        end = handle.tell()
        handle.seek(start)
        handle.write(struct.pack(order + "II", MI_COMPRESSED, end - start - 8))
        handle.seek(end)
        packed = zlib.compress(matrix_bytes(Variable("y", "f8", [count, 1], "u1", labels), order))
        handle.write(struct.pack(order + "II", MI_COMPRESSED, len(packed)) + packed)


def show(arguments):
    variables, order = read_file(arguments.input)
    print("byte order", "little" if order == "<" else "big")
    for variable in variables:
        print(variable.name, CLASSES[variable.class_type], variable.dims, variable.stored_type,
              variable.data[:8].tolist())


def main():
    parser = argparse.ArgumentParser()
    commands = parser.add_subparsers(dest="command", required=True)
    command = commands.add_parser("show")
    command.add_argument("input")
    command.set_defaults(run=show)
    command = commands.add_parser("rewrite")
    command.add_argument("input")
    command.add_argument("output")
    command.add_argument("--uncompressed", action="store_true")
    command.add_argument("--big-endian", action="store_true")
    for option in ("--store", "--rename", "--reshape", "--drop-last", "--drop"):
        command.add_argument(option, action="append", default=[])
    command.add_argument("--class", dest="set_class", action="append", default=[])
    command.set_defaults(run=rewrite)
    command = commands.add_parser("synthetic")
    command.add_argument("output")
    command.add_argument("count", type=int)
    command.add_argument("--level", type=int, default=zlib.Z_DEFAULT_COMPRESSION)
    command.set_defaults(run=synthetic)
    arguments = parser.parse_args()
    arguments.run(arguments)


if __name__ == "__main__":
    sys.exit(main())
