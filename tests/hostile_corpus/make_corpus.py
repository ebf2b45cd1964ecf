#!/usr/bin/python3
"""The independent re-run of issue 41's hostile corpus: one case for each failure the issue lists
and each kind it names, made here with the real tools (PIL, zipfile, tarfile, numpy, h5py, zlib,
os.mkfifo), none of the suite's fixtures read. Each case is a folder holding its inputs and
case.json: the command (paths relative to the case's folder; OUT is a fresh output folder in it),
the documented exit code, a fragment of the one error line, and optionally signals to send.
Run them with tests/hostile_corpus/run_corpus.

usage: make_corpus.py OUT
"""
import hashlib
import io
import json
import os
import struct
import subprocess
import sys
import tarfile
import zipfile
import zlib

import h5py
import numpy
from PIL import Image

HELPERS = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'helpers')
out = sys.argv[1]


def case(name, argv, exit_code, fragment, files=(), **extra):
    folder = os.path.join(out, name)
    os.makedirs(folder)
    for path, data in files:
        os.makedirs(os.path.dirname(os.path.join(folder, path)) or folder, exist_ok=True)
        with open(os.path.join(folder, path), 'wb') as f:
            f.write(data)
    with open(os.path.join(folder, 'case.json'), 'w') as f:
        json.dump(dict(argv=argv, exit=exit_code, fragment=fragment, **extra), f)
    return folder


def jpeg(side, progressive=False, mode='RGB', colour=(120, 60, 200), quality=75):
    data = io.BytesIO()
    Image.new(mode, (side, side), colour if mode == 'RGB' else colour[0]).save(
        data, 'JPEG', progressive=progressive, quality=quality)
    return data.getvalue()


def many_scans(data, scans):
    """DATA made progressive by jpegtran with one luma AC scan, that scan then repeated."""
    script = b'0,1,2: 0 0 0 0;\n0: 1 63 0 0;\n1: 1 63 0 0;\n2: 1 63 0 0;\n'
    scripted = os.path.join(out, '.scans')
    with open(scripted, 'wb') as f:
        f.write(script)
    rewritten = subprocess.run(['jpegtran', '-scans', scripted], input=data,
                               stdout=subprocess.PIPE, check=True).stdout
    os.remove(scripted)
    starts = []
    at = 2
    while (at := rewritten.find(b'\xff\xda', at)) >= 0:
        starts.append(at)
        at += 2
    luma = rewritten[starts[1]:starts[2]]
    return rewritten[:starts[2]] + luma * (scans - 4) + rewritten[starts[2]:]


def zip_bytes(entries, method=zipfile.ZIP_STORED):
    data = io.BytesIO()
    with zipfile.ZipFile(data, 'w', method) as archive:
        for name, content in entries:
            archive.writestr(name, content)
    return data.getvalue()


def tar_bytes(entries):
    data = io.BytesIO()
    with tarfile.open(fileobj=data, mode='w') as archive:
        for name, content in entries:
            info = tarfile.TarInfo(name)
            info.size = len(content)
            archive.addfile(info, io.BytesIO(content))
    return data.getvalue()


def dogs(name, train, exit_code, fragment, threads='4', **extra):
    test = zip_bytes([('test1/', b''), ('test1/1.jpg', jpeg(8))])
    return case(name, ['fuel', 'convert', 'dogs_vs_cats', '-d', '.', '-o', 'OUT', '--threads',
                       threads], exit_code, fragment,
                [('dogs_vs_cats.train.zip', zip_bytes(train)), ('dogs_vs_cats.test1.zip', test)],
                **extra)


def ilsvrc(name, valid_images, exit_code, fragment, truth=None):
    folder = os.path.join(out, name)
    subprocess.run([sys.executable, os.path.join(HELPERS, 'ilsvrc_archives.py'), 'make', folder,
                    '--train', '2', '--valid', str(len(valid_images)), '--test', '1'], check=True)
    path = os.path.join(folder, 'ILSVRC2012_img_val.tar')
    with tarfile.open(path) as archive:
        names = sorted(member.name for member in archive)
    with open(path, 'wb') as f:
        f.write(tar_bytes(list(zip(names, valid_images))))
    if truth is not None:
        devkit = os.path.join(folder, 'ILSVRC2012_devkit_t12.tar.gz')
        with tarfile.open(devkit) as archive:
            members = [(m, archive.extractfile(m).read() if m.isfile() else None) for m in archive]
        with tarfile.open(devkit, 'w:gz') as archive:
            for member, content in members:
                if member.name.endswith('validation_ground_truth.txt'):
                    content = truth
                    member.size = len(content)
                archive.addfile(member, io.BytesIO(content) if content is not None else None)
    with open(os.path.join(folder, 'case.json'), 'w') as f:
        json.dump(dict(argv=['fuel', 'convert', 'ilsvrc2012', '-d', '.', '-o', 'OUT',
                             '--threads', '4'], exit=exit_code, fragment=fragment), f)


def pack(name, spec, exit_code, fragment, files=(), fifos=()):
    folder = case(name, ['fuel', 'pack', 'spec.yaml', '-o', 'OUT'], exit_code, fragment,
                  [('spec.yaml', spec.encode())] + list(files))
    for fifo in fifos:
        os.makedirs(os.path.dirname(os.path.join(folder, fifo)) or folder, exist_ok=True)
        os.mkfifo(os.path.join(folder, fifo))
    return folder


def npy(array):
    data = io.BytesIO()
    numpy.save(data, array)
    return data.getvalue()


def packed_file(path, provenance, pads=0):
    """An H5PYDataset of one source, x, split all, with PROVENANCE as its fuel_provenance (after
    PADS other attributes: more than 8 in all are kept in dense storage)."""
    with h5py.File(path, 'w', libver='latest') as f:
        for index in range(pads):
            f.attrs['pad%d' % index] = 'x'
        f['x'] = numpy.arange(4, dtype='float64')
        split = numpy.empty(1, dtype=[('split', 'S3'), ('source', 'S1'), ('start', '<i8'),
                                      ('stop', '<i8'), ('indices', h5py.ref_dtype),
                                      ('available', bool), ('comment', 'S1')])
        split[0] = (b'all', b'x', 0, 4, None, True, b'.')
        f.attrs['split'] = split
        f.attrs['h5py_interface_version'] = '0.3'
        f.attrs['fuel_convert_version'] = '0.1.0'
        f.attrs['fuel_convert_command'] = 'fuel pack spec.yaml'
        f.attrs['fuel_provenance'] = provenance


def record(name, data):
    return {'name': name, 'size': len(data), 'sha256': hashlib.sha256(data).hexdigest()}


def provenance(argv, inputs, spec=None):
    """As fuel pack records it when SPEC (the spec's text) is given: the text, and the spec as
    the first input."""
    document = {'tool': 'fuel', 'version': '0.1.0', 'argv': argv, 'inputs': inputs,
                'created': '2026-12-01T00:00:00Z'}
    if spec is not None:
        document['pack'] = {'spec': spec}
        document['inputs'] = [record('spec.yaml', spec.encode())] + inputs
    return json.dumps(document)


SPEC = 'splits: {all: {examples: 4}}\nsources: {x: {from: x.npy}}\n'


def input_record(index):
    return {'name': 'i%07d.npy' % index, 'size': 1, 'sha256': '%064x' % index}


def zip_one(name, data, method, crc, uncompressed):
    name = name.encode()
    fields = (method, 0, 0x21, crc, len(data), uncompressed, len(name))
    local = struct.pack('<IHHHHHIIIHH', 0x04034b50, 20, 0, *fields, 0) + name
    central = struct.pack('<IHHHHHHIIIHHHHHII', 0x02014b50, 20, 20, 0, *fields, 0, 0, 0, 0, 0,
                          0) + name
    return local + data + central + struct.pack('<IHHHHIIH', 0x06054b50, 0, 0, 1, 1,
                                                len(central), len(local) + len(data), 0)


def adult_row(age=39):
    return ('%d, State-gov, 77516, Bachelors, 13, Never-married, Adm-clerical, Not-in-family, '
            'White, Male, 2174, 0, 40, United-States, <=50K' % age).encode()


def adult(name, data, test, exit_code, fragment):
    return case(name, ['fuel', 'convert', 'adult', '-d', '.', '-o', 'OUT'], exit_code, fragment,
                [('adult.data', data), ('adult.test', test)])


def unbounded_time():
    photo = jpeg(4096, quality=90)
    scans = many_scans(photo, 60000)
    dogs('scans_dogs_vs_cats', [('train/cat.0.jpg', scans)], 4, 'has more than 500 scans')
    ilsvrc('scans_ilsvrc2012', [jpeg(64), scans], 4, 'has more than 500 scans')
    pack('scans_pack', 'splits: {all: {examples: 1}}\nsources: {x: {from: {images: p}}}\n', 4,
         'has more than 500 scans', [('p/a.jpg', scans)])
    pack('deep_spec', 'splits: ' + '[' * 500000 + ']' * 500000 + '\n', 2, 'nested more than')


def unbounded_memory():
    giant = jpeg(13000, progressive=True)
    ilsvrc('one_13000_progressive', [jpeg(64), giant], 0, '')
    ilsvrc('two_13000_progressive', [giant, giant], 0, '')
    dogs('three_4096_baseline', [('train/cat.%d.jpg' % i, jpeg(4096)) for i in range(3)], 0, '')
    dogs('three_4096_progressive',
         [('train/dog.%d.jpg' % i, jpeg(4096, progressive=True)) for i in range(3)], 0, '')
    ten_million = ('{"tool": "fuel", "argv": ["fuel", "pack", "spec.yaml"], "inputs": ['
                   + ','.join(['{"name": "a.npy", "size": 1, "sha256": "%s"}' % ('0' * 64)]
                              * 3000000) + ']}')
    folder = case('provenance_3m_inputs_reproduce',
                  ['fuel', 'reproduce', 'packed.hdf5', '--scratch', 'OUT'], 4, 'provenance')
    packed_file(os.path.join(folder, 'packed.hdf5'), ten_million)
    folder = case('provenance_3m_inputs_info', ['fuel', 'info', 'packed.hdf5'], None, '',
                  max_line=4096)
    packed_file(os.path.join(folder, 'packed.hdf5'), ten_million)
    folder = case('provenance_1m_inputs_reproduce',
                  ['fuel', 'reproduce', 'packed.hdf5', '--scratch', 'OUT'], None, '')
    packed_file(os.path.join(folder, 'packed.hdf5'),
                provenance(['fuel', 'pack', 'spec.yaml'],
                           [input_record(i) for i in range((1 << 20) - 1)], SPEC))


def bounded_parses():
    """What a provenance's walk cannot take apart, and an attribute fuel's own reader does not
    reach (dense storage: HDF5 reads it, so its declared length is checked first)."""
    entries = ','.join(json.dumps(input_record(i)) for i in range((1 << 20) - 1))
    two_lists = ('{"inputs": [' + entries + '], "tool": "fuel", "argv": ["fuel", "pack", '
                 '"spec.yaml"], "inputs": [' + entries + '], "created": "2026-12-01T00:00:00Z"}')
    folder = case('provenance_two_inputs_lists_reproduce',
                  ['fuel', 'reproduce', 'packed.hdf5', '--scratch', 'OUT'], 4,
                  'two members named inputs')
    packed_file(os.path.join(folder, 'packed.hdf5'), two_lists)
    folder = case('provenance_two_inputs_lists_info', ['fuel', 'info', '--json', 'packed.hdf5'],
                  0, '', max_line=8192)
    packed_file(os.path.join(folder, 'packed.hdf5'), two_lists)
    folder = case('provenance_dense_forged_reproduce',
                  ['fuel', 'reproduce', 'packed.hdf5', '--scratch', 'OUT'], 4,
                  'declares 4026531840 bytes')
    path = os.path.join(folder, 'packed.hdf5')
    packed_file(path, provenance(['fuel', 'pack', 'spec.yaml'], [input_record(0)]), pads=9)
    subprocess.run([sys.executable, os.path.join(HELPERS, 'forge_heap_length.py'), path,
                    'fuel_provenance', '4026531840'], check=True)


def not_files():
    one = 'splits: {all: {examples: 4}}\nsources: {x: {from: %s}}\n'
    folder = case('fifo_spec', ['fuel', 'pack', 'spec.yaml', '-o', 'OUT'], 4,
                  'not a regular file')
    os.mkfifo(os.path.join(folder, 'spec.yaml'))
    pack('fifo_image', one.replace('4', '2') % '{images: p}', 4, 'not a regular file',
         [('p/a.jpg', jpeg(16))], fifos=['p/b.jpg'])
    pack('fifo_array_in_folder', one.replace('4', '2') % '{arrays: a}', 4, 'not a regular file',
         [('a/0.npy', npy(numpy.zeros(3)))], fifos=['a/1.npy'])
    pack('fifo_from', one % 'x.npy', 4, 'not a regular file', fifos=['x.npy'])
    folder = case('fifo_adult', ['fuel', 'convert', 'adult', '-d', '.', '-o', 'OUT'], 4,
                  'not a regular file', [('adult.test', adult_row() + b'.\n')])
    os.mkfifo(os.path.join(folder, 'adult.data'))
    folder = case('directory_adult', ['fuel', 'convert', 'adult', '-d', '.', '-o', 'OUT'], 4,
                  'not a regular file', [('adult.test', adult_row() + b'.\n')])
    os.mkdir(os.path.join(folder, 'adult.data'))


def paths_not_given():
    folder = case('reproduce_climbing_input',
                  ['fuel', 'reproduce', 'IN/packed.hdf5', '-d', 'IN', '--scratch', 'OUT'], None,
                  '', [('outside/secret.bin', b'secret\n')], forbid=['outside'])
    os.makedirs(os.path.join(folder, 'IN'))
    packed_file(os.path.join(folder, 'IN', 'packed.hdf5'),
                provenance(['fuel', 'pack', 'spec.yaml'],
                           [record('../outside/secret.bin', b'secret\n')],
                           SPEC.replace('x.npy', '../outside/secret.bin')))
    folder = case('reproduce_elsewhere_spec',
                  ['fuel', 'reproduce', 'IN/packed.hdf5', '--scratch', 'OUT'], None, '',
                  [('elsewhere/spec.yaml', b'secret_key_of_elsewhere: 1\n'),
                   ('elsewhere/x.npy', npy(numpy.arange(4.0)))], forbid=['elsewhere'])
    os.makedirs(os.path.join(folder, 'IN'))
    packed_file(os.path.join(folder, 'IN', 'packed.hdf5'),
                provenance(['fuel', 'pack', os.path.join(folder, 'elsewhere', 'spec.yaml')],
                           [record('x.npy', npy(numpy.arange(4.0)))], SPEC))


def too_lax():
    photo = jpeg(32)
    entries = zip_bytes([('train/cat.0.jpg', photo), ('train/dog.0.jpg', photo)])
    data = bytearray(entries)
    directory = data.rindex(b'PK\x01\x02')
    struct.pack_into('<I', data, directory + 42, 0)
    test = zip_bytes([('test1/1.jpg', jpeg(8))])
    case('zip_overlapping', ['fuel', 'convert', 'dogs_vs_cats', '-d', '.', '-o', 'OUT'], 4,
         'overlaps', [('dogs_vs_cats.train.zip', bytes(data)), ('dogs_vs_cats.test1.zip', test)])
    member = npy(numpy.arange(100, dtype='float32'))
    deflater = zlib.compressobj(9, zlib.DEFLATED, -15)
    stream = deflater.compress(member) + deflater.flush(zlib.Z_FULL_FLUSH)
    mebibyte = deflater.compress(bytes(1 << 20)) + deflater.flush(zlib.Z_FULL_FLUSH)
    stream += mebibyte * 4096 + deflater.flush()
    one = 'splits: {all: {examples: 100}}\nsources: {x: {from: "a.npz:x"}}\n'
    pack('npz_inflates_4_gib', one, 4, 'more data than',
         [('a.npz', zip_one('x.npy', stream, 8, zlib.crc32(member), len(member)))])
    pack('npz_bad_crc', one, 4, 'CRC',
         [('a.npz', zip_one('x.npy', member, 0, zlib.crc32(member) ^ 1, len(member)))])
    ilsvrc('truth_nul', [jpeg(64), jpeg(64)], 4, 'NUL byte', truth=b'3\x00\n1\n')
    adult('adult_empty', b'', b'', 4, 'no complete row')
    adult('adult_negative_age', adult_row() + b'\n', adult_row(-5) + b'.\n', 4, 'negative')


def messages():
    escape = '\x1b]0;pwned\x07\x1b[2J'
    folder = case('info_escapes', ['fuel', 'info', 'packed.hdf5'], 0, '', no_escape=True)
    packed_file(os.path.join(folder, 'packed.hdf5'),
                provenance(['fuel', 'pack', 'spec' + escape + '.yaml'], []))
    folder = case('info_not_json', ['fuel', 'info', 'packed.hdf5'], 0, '', max_line=4096)
    packed_file(os.path.join(folder, 'packed.hdf5'), 'x' * 200000)
    adult('adult_bom', b'\xef\xbb\xbf' + adult_row() + b'\n', adult_row() + b'.\n', 4,
          'byte order mark')
    faces = [('img_align_celeba/', b'')] + [('img_align_celeba/%06d.jpg' % i, jpeg(32))
                                            for i in range(1, 4)]
    header = b'3\n' + b' '.join(b'A%d' % i for i in range(40)) + b'\n'
    rows = b''.join(b'%06d.jpg ' % i + b' '.join([b'-1'] * 40) + b'\n' for i in range(1, 5))
    for name, hostile in (('celeba_parent_face', 'img_align_celeba/../000004.jpg'),
                          ('celeba_absolute_face', '/img_align_celeba/000004.jpg')):
        case(name, ['fuel', 'convert', 'celeba', '64', '-d', '.', '-o', 'OUT'], 4, hostile,
             [('img_align_celeba.zip', zip_bytes(faces + [(hostile, jpeg(32))])),
              ('list_attr_celeba.txt', header.replace(b'3', b'4', 1) + rows)])
    link = zipfile.ZipInfo('train/dog.0.jpg')
    link.create_system = 3
    link.external_attr = 0o120777 << 16
    data = io.BytesIO()
    with zipfile.ZipFile(data, 'w') as archive:
        archive.writestr('train/cat.0.jpg', jpeg(16))
        archive.writestr(link, '/etc/passwd')
    case('zip_symlink_member', ['fuel', 'convert', 'dogs_vs_cats', '-d', '.', '-o', 'OUT'], 4,
         'symbolic link', [('dogs_vs_cats.train.zip', data.getvalue()),
                           ('dogs_vs_cats.test1.zip', zip_bytes([('test1/1.jpg', jpeg(8))]))])


def signals():
    dogs('two_quick_sigterms', [('train/cat.%d.jpg' % i, jpeg(4096)) for i in range(6)], None,
         '', signals=['TERM', 'TERM'])


os.makedirs(out)
unbounded_time()
unbounded_memory()
bounded_parses()
not_files()
paths_not_given()
too_lax()
messages()
signals()
