#!/usr/bin/python3
"""Rewrites a .tar.gz archive with changed members, for tests of archive-reading converters.

usage: remake_tar.py SOURCE DESTINATION [OPERATION]...
Operations, applied in order to the list of SOURCE's members:
  reverse             members in reverse order
  drop=NAME           remove member NAME
  replace=NAME:FILE   the contents of member NAME become those of FILE
  add=NAME:FILE       append a regular member NAME holding FILE's contents
  symlink=NAME:TARGET append a symbolic link NAME pointing to TARGET
  hardlink=NAME:TARGET append a hard link NAME to TARGET
"""
import io
import sys
import tarfile


def read_members(path):
    members = []
    with tarfile.open(path, "r:gz") as archive:
        for info in archive.getmembers():
            data = archive.extractfile(info).read() if info.isfile() else None
            members.append((info, data))
    return members


def regular(name, data):
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mode = 0o644
    return info, data


def link(name, target, kind):
    info = tarfile.TarInfo(name)
    info.type = kind
    info.linkname = target
    return info, None


def apply(members, operation):
    action, _, argument = operation.partition("=")
    name, _, value = argument.partition(":")
    if action == "reverse":
        return list(reversed(members))
    if action == "drop":
        return [(info, data) for info, data in members if info.name != name]
    if action == "replace":
        contents = open(value, "rb").read()
        return [regular(name, contents) if info.name == name else (info, data)
                for info, data in members]
    if action == "add":
        return members + [regular(name, open(value, "rb").read())]
    if action == "symlink":
        return members + [link(name, value, tarfile.SYMTYPE)]
    if action == "hardlink":
        return members + [link(name, value, tarfile.LNKTYPE)]
    sys.exit(f"unknown operation: {operation}")


def main():
    source, destination, operations = sys.argv[1], sys.argv[2], sys.argv[3:]
    members = read_members(source)
    for operation in operations:
        members = apply(members, operation)
    with tarfile.open(destination, "w:gz", format=tarfile.GNU_FORMAT) as archive:
        for info, data in members:
            archive.addfile(info, io.BytesIO(data) if data is not None else None)


if __name__ == "__main__":
    main()
