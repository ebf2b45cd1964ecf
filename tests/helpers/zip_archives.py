#!/usr/bin/python3
"""Writes the zip archives the archive_stream tests and fuzz seeds read: zip_archives.py DIRECTORY.

Python's zipfile writes them, seekable (sizes in the local headers) and unseekable (general purpose
flag bit 3: sizes in a data descriptor after the data), stored and deflated; then hostile and
damaged variants of those, each damage made on the bytes as a reader meets them."""
import stat
import struct
import sys
import zipfile

DIRECTORY = sys.argv[1]


def noise(size):
    """SIZE bytes of a linear congruential generator's high bytes, as the C tests make them."""
    state, data = 12345, bytearray(size)
    for index in range(size):
        state = (state * 1103515245 + 12345) & 0xffffffff
        data[index] = state >> 24
    return bytes(data)


# Holds a data descriptor's signature, so a reader that searches for it must also check the CRC.
NOISE = noise(300000) + b'PK\x07\x08' + bytes(12)
MEMBERS = [('top/', b''), ('top/first', b'hello'), ('top/inner/', b''),
           ('top/inner/second', b'world!!'), ('top/empty', b''), ('top/noise', NOISE)]
# A comment holding an end record's signature: the real one is the one that reaches the end.
COMMENT = b'fuel PK\x05\x06 comment'


class Unseekable:
    """A file zipfile can only write to in order, as to a pipe: it then writes data descriptors."""

    def __init__(self, file):
        self.file = file

    def write(self, data):
        return self.file.write(data)

    def flush(self):
        self.file.flush()


def path(name):
    return f'{DIRECTORY}/{name}'


def write_members(archive, members):
    for name, content in members:
        archive.writestr(name, content)


def write_normal():
    for method, kind in ((zipfile.ZIP_STORED, 'stored'), (zipfile.ZIP_DEFLATED, 'deflated')):
        with zipfile.ZipFile(path(f'python-{kind}.zip'), 'w', method) as archive:
            write_members(archive, MEMBERS)
            archive.comment = COMMENT
        with open(path(f'python-{kind}-descriptor.zip'), 'wb') as file:
            with zipfile.ZipFile(Unseekable(file), 'w', method) as archive:
                write_members(archive, MEMBERS)


def local_extra(mode):
    """libarchive's 'xl' local extra field: the version made by (Unix) and the external
    attributes holding MODE, which a streaming reader otherwise never sees."""
    body = struct.pack('<BHI', 0x05, (3 << 8) | 20, (mode & 0xffff) << 16)
    return struct.pack('<HH', 0x6c78, len(body)) + body


def write_hostile():
    hostile = {'dots': ('a/../../evil', None), 'absolute': ('/etc/passwd', None),
               'symlink': ('link', stat.S_IFLNK | 0o777), 'device': ('null', stat.S_IFCHR | 0o644)}
    for kind, (name, mode) in hostile.items():
        with zipfile.ZipFile(path(f'hostile-{kind}.zip'), 'w') as archive:
            archive.writestr('good', b'ok')
            info = zipfile.ZipInfo('placeholder')
            info.filename = name  # ZipInfo would drop a leading '/'
            if mode is not None:
                info.extra = local_extra(mode)
                info.external_attr = mode << 16
            archive.writestr(info, b'/etc/passwd' if kind == 'symlink' else b'evil')
            archive.writestr('after', b'never')


def write_many():
    """More members than the end record's 16-bit count holds: zipfile adds the zip64 records."""
    with zipfile.ZipFile(path('many.zip'), 'w') as archive:
        for index in range(70000):
            archive.writestr(f'm/{index:05d}', bytes([index % 256]))


def damaged(source, target, change):
    data = bytearray(open(path(source), 'rb').read())
    data = change(data)
    with open(path(target), 'wb') as file:
        file.write(data)


def local_header(data, name):
    """Where the local header of member NAME starts (its name follows the 30 fixed bytes)."""
    return data.index(name) - 30


def flip(data, needle, offset):
    data[data.index(needle) + offset] ^= 0x20
    return data


def write_damaged():
    damaged('python-stored.zip', 'crc.zip', lambda data: flip(data, b'world!!', 2))
    damaged('python-stored-descriptor.zip', 'crc-descriptor.zip',
            lambda data: flip(data, b'world!!', 2))
    noise = NOISE[100000:100016]
    damaged('python-stored.zip', 'truncated-data.zip',
            lambda data: data[:data.index(noise)])
    damaged('python-deflated.zip', 'truncated-deflated.zip',
            lambda data: data[:len(data) // 2])
    damaged('python-deflated.zip', 'truncated-directory.zip',
            lambda data: data[:data.index(b'PK\x01\x02') + 30])
    damaged('python-deflated.zip', 'truncated-between.zip',
            lambda data: data[:data.index(b'PK\x03\x04', 4)])
    # The second local header's signature damaged: a streaming reader passes the member over.
    damaged('python-deflated.zip', 'lost-member.zip',
            lambda data: flip(data, b'top/first', 2 - 30))
    # top/first's uncompressed size (local header offset 22) made 3.75 GiB.
    def liar(data):
        size = local_header(data, b'top/first') + 22
        return data[:size] + struct.pack('<I', 0xf0000000) + data[size + 4:]
    damaged('python-stored.zip', 'liar.zip', liar)
    # With flag bit 3 the descriptor's sizes are the ones libarchive checks; the local header
    # may still declare one (top/first's made 9 bytes).
    def descriptor_liar(data):
        size = local_header(data, b'top/first') + 22
        return data[:size] + struct.pack('<I', 9) + data[size + 4:]
    damaged('python-deflated-descriptor.zip', 'descriptor-liar.zip', descriptor_liar)
    damaged('python-deflated.zip', 'trailing.zip', lambda data: data + b'more')
    damaged('many.zip', 'many-lost-member.zip', lambda data: flip(data, b'm/00005', 2 - 30))


write_normal()
write_hostile()
write_many()
write_damaged()
