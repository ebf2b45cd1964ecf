"""Hostile JPEGs for the corpus: valid progressive files of many scans, which libjpeg decodes
without a warning (each scan passes over the whole image).

    many_scans(jpeg, scans)  JPEG rewritten by jpegtran into full-precision spectral scans
                             (first scans with Al 0: repeating one is no bogus progression),
                             its luma AC scan then repeated until the file holds SCANS scans
"""
import os
import subprocess
import tempfile



def script(jpeg):
    """The scan script for JPEG's components: their DC together, then each one's AC."""
    frame = min(at for at in (jpeg.find(marker) for marker in (b'\xff\xc0', b'\xff\xc1',
                                                                 b'\xff\xc2')) if at >= 0)
    components = range(jpeg[frame + 9])
    lines = [','.join(map(str, components)) + ': 0 0 0 0;']
    lines += ['%d: 1 63 0 0;' % component for component in components]
    return ('\n'.join(lines) + '\n').encode(), len(components)


def segments(data):
    """Offsets of each SOS marker in DATA, and of the marker ending each scan's data."""
    starts, at = [], 2
    while True:
        at = data.find(b'\xff\xda', at)
        if at < 0:
            return starts
        end = at + 2
        while True:
            end = data.find(b'\xff', end)
            following = data[end + 1]
            if following != 0 and not 0xd0 <= following <= 0xd7 and following != 0xff:
                break
            end += 1
        starts.append((at, end))
        at = end


def many_scans(jpeg, scans):
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, 'scans')
        text, components = script(jpeg)
        with open(path, 'wb') as f:
            f.write(text)
        rewritten = subprocess.run(['jpegtran', '-scans', path], input=jpeg,
                                   stdout=subprocess.PIPE, check=True).stdout
    found = segments(rewritten)
    assert len(found) == components + 1, len(found)
    start, end = found[1]
    luma = rewritten[start:end]
    return rewritten[:end] + luma * (scans - len(found)) + rewritten[end:]
