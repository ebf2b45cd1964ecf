#!/usr/bin/python3
"""Rewrites a zip archive with changed members, for tests of the JPEG datasets' converters.

usage: remake_zip.py SOURCE DESTINATION [OPERATION]...
Operations, applied in order to the list of SOURCE's entries (directories included):
  drop=NAME           remove entry NAME
  replace=NAME:FILE   the contents of member NAME become those of FILE
  add=NAME:FILE       append a member NAME holding FILE's contents
  grey=NAME           member NAME re-encoded by PIL as a grayscale JPEG
  cmyk=NAME           member NAME re-encoded by PIL as a CMYK JPEG (Adobe's inverted bytes)
  resize=NAME:WxH     member NAME re-encoded by PIL at W x H pixels
  truncate=NAME       member NAME's JPEG cut in the middle of its entropy-coded data (PIL raises)
  directory-reversed  the central directory lists the entries in reverse order of their data
The members are written deflated, as Python's zipfile writes them.
"""
import io
import sys
import zipfile

from PIL import Image


def reencoded(data, change):
    image = change(Image.open(io.BytesIO(data)))
    output = io.BytesIO()
    image.save(output, 'JPEG', quality=90)
    return output.getvalue()


def truncated(data):
    start = data.index(b'\xff\xda')  # start of scan: what follows is entropy-coded data
    return data[:(start + len(data)) // 2]


def apply(entries, operation):
    kind, _, argument = operation.partition('=')
    name, _, value = argument.partition(':')
    if kind == 'drop':
        return [(entry, data) for entry, data in entries if entry != name]
    if kind == 'add':
        return entries + [(name, open(value, 'rb').read())]
    changes = {
        'replace': lambda data: open(value, 'rb').read(),
        'grey': lambda data: reencoded(data, lambda image: image.convert('L')),
        'cmyk': lambda data: reencoded(data, lambda image: image.convert('CMYK')),
        'resize': lambda data: reencoded(data, lambda image: image.resize(
            tuple(int(side) for side in value.split('x')), Image.BILINEAR)),
        'truncate': truncated,
    }
    assert any(entry == name for entry, _ in entries), name
    return [(entry, changes[kind](data) if entry == name else data) for entry, data in entries]


def main():
    source, destination, operations = sys.argv[1], sys.argv[2], sys.argv[3:]
    with zipfile.ZipFile(source) as archive:
        entries = [(info.filename, archive.read(info)) for info in archive.infolist()]
    reverse = 'directory-reversed' in operations
    for operation in operations:
        if operation != 'directory-reversed':
            entries = apply(entries, operation)
    with zipfile.ZipFile(destination, 'w', zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries:
            archive.writestr(name, data)
        if reverse:
            archive.filelist.reverse()


main()
