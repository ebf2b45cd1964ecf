"""forge_heap_length.py FILE ATTRIBUTE LENGTH: the heap ID of FILE's root variable-length string
ATTRIBUTE made to declare LENGTH bytes (its object left as it is), found by its old length followed
by the address of a global heap collection ("GCOL")."""
import struct
import sys

import h5py

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
struct.pack_into("<I", data, found[0], length)
open(path, "wb").write(bytes(data))
