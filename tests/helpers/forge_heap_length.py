"""forge_heap_length.py FILE ATTRIBUTE LENGTH: the heap ID of FILE's root variable-length string
ATTRIBUTE made to declare LENGTH bytes (its object left as it is), found by its old length followed
by the address of a global heap collection ("GCOL"). When the heap ID lies in a fractal heap's
direct block ("FHDB": dense attribute storage) whose checksum held, the checksum is made again."""
import os
import struct
import sys

import h5py

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lookup3 import lookup3  # noqa: E402


def checksummed_block(data, at):
    """(start, size, checksum offset) of the direct block holding AT whose checksum holds, or None:
    its block offset's width and its size are not known here, so each is tried."""
    start = data.rfind(b"FHDB", 0, at)
    for width in range(1, 9) if start >= 0 else ():
        for size in (512 << shift for shift in range(12)):
            field = start + 13 + width
            if start + size > len(data) or not field + 4 <= at < start + size:
                continue
            block = bytearray(data[start:start + size])
            block[field - start:field - start + 4] = bytes(4)
            if lookup3(bytes(block)) == struct.unpack_from("<I", data, field)[0]:
                return start, size, field
    return None

path, name, length = sys.argv[1], sys.argv[2], int(sys.argv[3])
with h5py.File(path, "r") as f:
    value = f.attrs[name]
old = len(value.encode() if isinstance(value, str) else value)
data = bytearray(open(path, "rb").read())
needle, found, start = struct.pack("<I", old), [], 0
while (at := data.find(needle, start)) >= 0:
    address = struct.unpack_from("<Q", data, at + 4)[0] if at + 12 <= len(data) else len(data)
    if data[address:address + 4] == b"GCOL":
        found.append(at)
    start = at + 1
assert len(found) == 1, found
block = checksummed_block(data, found[0])
struct.pack_into("<I", data, found[0], length)
if block is not None:
    start, size, field = block
    struct.pack_into("<I", data, field, 0)
    struct.pack_into("<I", data, field, lookup3(bytes(data[start:start + size])))
open(path, "wb").write(bytes(data))
