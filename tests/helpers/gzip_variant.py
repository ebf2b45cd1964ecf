#!/usr/bin/python3
"""Rewrites a gzip file as gzip can read it, or as it must refuse it (tests of common/formats/gzip/inflate).

usage: gzip_variant.py MODE INPUT OUTPUT
MODE: members (the content as three concatenated members, then 512 zero bytes), garbage (bytes
after the member), crc (the trailer's CRC-32 wrong), length (the trailer's ISIZE wrong),
cut_member (1f 8b after the member, then nothing).
"""
import gzip
import sys
import zlib


def member(data):
    return gzip.compress(data, mtime=0)


def main():
    mode, source, target = sys.argv[1:4]
    with open(source, "rb") as handle:
        content = gzip.decompress(handle.read())
    whole = bytearray(member(content))
    if mode == "members":
        third = len(content) // 3
        out = member(content[:third]) + member(content[third:2 * third]) + member(content[2 * third:])
        out += bytes(512)
    elif mode == "garbage":
        out = bytes(whole) + b"garbage after the member"
    elif mode == "crc":
        whole[-8:-4] = (zlib.crc32(content) ^ 1).to_bytes(4, "little")
        out = bytes(whole)
    elif mode == "length":
        whole[-4:] = ((len(content) + 1) & 0xFFFFFFFF).to_bytes(4, "little")
        out = bytes(whole)
    elif mode == "cut_member":
        out = bytes(whole) + b"\x1f\x8b"
    else:
        sys.exit("unknown mode: " + mode)
    with open(target, "wb") as handle:
        handle.write(out)


if __name__ == "__main__":
    main()
