#!/usr/bin/python3
"""Reads back the shard sets of `fuel export --to webdataset|tfrecord` from the formats'
specifications, nothing shared with the C code, and compares them value for value with the source
file read by h5py.

  shard_check.py webdataset DIR SPLIT SOURCE.hdf5 [--seed S] [--ranks R] [--mtime T]
  shard_check.py tfrecord DIR SPLIT SOURCE.hdf5 [--seed S] [--ranks R]
  shard_check.py CHECK -- CHECK ...: several checks in one start, in order, up to the first mismatch

DIR/SPLIT.json lists the shards: each must exist with that size and sha256, hold that many
examples, and the shards together hold every example of the split once, in the split's order or
in numpy.random.RandomState(S).permutation(n) with --seed. Shard counts differ by at most one, the
larger first; with --ranks R there is a multiple of R of them and the ranks' shares (rank r reads
shards r, r + R, ...) differ by at most one.

webdataset: every member of every shard is a POSIX ustar header (magic "ustar\\0", version "00")
of a regular file, owner 0:0, mode 0644, mtime T (default: the listing's); members are grouped by
key as WebDataset's tariterators does (the key is the name up to the first dot of its last path
component, the rest the extension), each example one group of consecutive members; KEY.png decodes
(PIL) to the example's pixels, KEY.jpg is the stored bytes, KEY.cls the label in decimal ASCII,
KEY.SOURCE.npy numpy.load's the example with its dtype and shape.

tfrecord: each file read by tfrecord.py (both masked CRC-32Cs checked) and each record decoded by
the protobuf library; image/encoded decodes to the pixels (or is the stored JPEG bytes) with
image/format, image/height, image/width, image/channels, image/filename KEY.png or KEY.jpg;
image/class/label the label, image/class/text its class name where the file names its classes;
other sources flattened, float32 or int64 values.

Class names, read here from the file (its SOURCE_classes dataset, else its fuel_card's "classes"),
must be the label source's "classes" in SPLIT.json, and absent from it when the file has none.

Prints "ok N examples in M shards"; on a mismatch one line on stderr, exit 1."""
import hashlib
import io
import json
import os
import struct
import sys
import tarfile

import h5py
import numpy as np
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tfrecord  # noqa: E402


class Mismatch(Exception):
    pass


def expect(condition, message):
    if not condition:
        raise Mismatch(message)


def split_examples(source_file, split):
    """{source: (values of the split's examples, h5py dataset)} from the split array."""
    rows = source_file.attrs['split']
    found = {}
    for row in rows:
        if row['split'].decode() != split or not row['available']:
            continue
        name = row['source'].decode()
        dataset = source_file[name]
        if row['indices']:
            indices = list(source_file[row['indices']][...])
        else:
            indices = list(range(row['start'], row['stop']))
        found[name] = [example_at(dataset, index) for index in indices]
    return found


def example_at(dataset, index):
    """Example INDEX; a variable-length one in the shape its `shapes` scale gives."""
    example = dataset[index]
    if dataset.dtype.kind == 'O' and 'shapes' in dataset.dims[0].keys():
        example = np.asarray(example).reshape(dataset.dims[0]['shapes'][index])
    return example


def pixels(example):
    """An example of (channel,) height, width as PIL shows it: height, width(, channel)."""
    array = np.asarray(example)
    if array.ndim == 3:
        array = np.moveaxis(array, 0, -1)
        if array.shape[2] == 1:
            array = array[:, :, 0]
    return array


def image_matches(data, example, what):
    image = Image.open(io.BytesIO(data))
    expect(image.format == 'PNG', f'{what}: not a PNG')
    expect(np.array_equal(np.asarray(image), pixels(example)), f'{what}: pixels differ')
    return image


def order_check(listing, order, seed):
    examples = listing['examples']
    expected = (np.random.RandomState(seed).permutation(examples) if seed is not None
                else np.arange(examples))
    expect(list(order) == [int(value) for value in expected],
           f'example order {list(order)[:8]}... is not {list(expected)[:8]}...')


def balance_check(listing, ranks):
    counts = [shard['examples'] for shard in listing['shards']]
    expect(sum(counts) == listing['examples'], f'shards hold {sum(counts)} examples')
    expect(max(counts) - min(counts) <= 1, f'shard counts {counts} differ by more than one')
    expect(counts == sorted(counts, reverse=True), f'shard counts {counts}: larger ones not first')
    expect(len(counts) % ranks == 0, f'{len(counts)} shards for {ranks} ranks')
    shares = [sum(counts[rank::ranks]) for rank in range(ranks)]
    expect(max(shares) - min(shares) <= 1, f'rank shares {shares} differ by more than one')
    for index, shard in enumerate(listing['shards']):
        expect(shard['rank'] == index % ranks, f'shard {index} given to rank {shard["rank"]}')


def file_check(directory, shard):
    path = os.path.join(directory, shard['name'])
    with open(path, 'rb') as file:
        data = file.read()
    expect(len(data) == shard['bytes'], f'{shard["name"]}: {len(data)} bytes, listed {shard["bytes"]}')
    expect(hashlib.sha256(data).hexdigest() == shard['sha256'], f'{shard["name"]}: sha256 differs')
    return data


def class_names(source_file, name):
    """The file's names of label source NAME's classes, [] when it has none."""
    if f'{name}_classes' in source_file:
        return [value.decode() for value in source_file[f'{name}_classes'][()]]
    card = source_file.attrs.get('fuel_card')
    if card is None:
        return []
    card = json.loads(card.decode() if isinstance(card, bytes) else card)
    return card.get('classes', {}).get(name, [])


def classes_check(listing, source_file):
    for source in listing['sources']:
        names = class_names(source_file, source['name']) if source['role'] == 'label' else []
        expect(source.get('classes', []) == names,
               f'{source["name"]}: classes {source.get("classes")}, not {names}')
        if names:
            source['names'] = names


def source_roles(listing):
    return {source['name']: source for source in listing['sources']}


def ustar_check(data, member, mtime):
    header = data[member.offset:member.offset + 512]
    expect(header[257:263] == b'ustar\0' and header[263:265] == b'00',
           f'{member.name}: not a POSIX ustar header')
    expect(member.isreg() and member.uid == 0 and member.gid == 0 and member.mode == 0o644,
           f'{member.name}: not a regular file of 0:0 mode 0644')
    expect(member.mtime == mtime, f'{member.name}: mtime {member.mtime}, not {mtime}')


def groups(data, mtime):
    """(key, {extension: bytes}) per example, as tariterators groups consecutive members."""
    current, found = None, []
    with tarfile.open(fileobj=io.BytesIO(data), mode='r:') as archive:
        for member in archive:
            ustar_check(data, member, mtime)
            base = os.path.basename(member.name)
            key, extension = base.split('.', 1)
            if current is None or current[0] != key:
                current = (key, {})
                found.append(current)
            expect(extension not in current[1], f'{member.name} twice in its group')
            current[1][extension] = archive.extractfile(member).read()
    return found


def member_value(extension, data, source, example, source_file, what):
    role = source['role']
    if role == 'image':
        image_matches(data, example, what)
    elif role == 'encoded image':
        expect(data == np.asarray(example).tobytes(), f'{what}: not the stored JPEG bytes')
    elif role == 'label':
        expect(data == str(int(np.asarray(example).reshape(-1)[0])).encode(), f'{what}: label {data}')
    else:
        array = np.load(io.BytesIO(data))
        stored = source_file[source['name']]
        expect(array.dtype == stored.dtype and array.shape == stored.shape[1:],
               f'{what}: {array.dtype} {array.shape}')
        expect(np.array_equal(array, example), f'{what}: values differ')


def webdataset(directory, listing, source_file, values, mtime):
    roles = source_roles(listing)
    members = {source['member'][len('KEY.'):]: name for name, source in roles.items()}
    order = []
    for shard in listing['shards']:
        found = groups(file_check(directory, shard), mtime)
        expect(len(found) == shard['examples'], f'{shard["name"]}: {len(found)} groups')
        for key, group in found:
            expect(len(key) == 8 and key.isdigit(), f'key {key} is not %08d')
            index = int(key)
            order.append(index)
            expect(set(group) == set(members), f'{key}: members {sorted(group)}')
            for extension, data in group.items():
                name = members[extension]
                member_value(extension, data, roles[name], values[name][index], source_file,
                             f'{shard["name"]}: {key}.{extension}')
    return order


def feature(decoded, key, kind):
    expect(key in decoded and kind in decoded[key], f'no {kind} {key}')
    return decoded[key][kind]


def image_features(decoded, source, example, index, what):
    encoded = bytes.fromhex(feature(decoded, 'image/encoded', 'bytes_list')[0])
    form = bytes.fromhex(feature(decoded, 'image/format', 'bytes_list')[0]).decode()
    name = bytes.fromhex(feature(decoded, 'image/filename', 'bytes_list')[0]).decode()
    if source['role'] == 'image':
        image = image_matches(encoded, example, what)
        shape = (image.height, image.width, len(image.getbands()))
        expect(form == 'PNG' and name == f'{index:08d}.png', f'{what}: {form} {name}')
    else:
        expect(encoded == np.asarray(example).tobytes(), f'{what}: not the stored JPEG bytes')
        image = Image.open(io.BytesIO(encoded))
        shape = (image.height, image.width, len(image.getbands()))
        expect(form == 'JPEG' and name == f'{index:08d}.jpg', f'{what}: {form} {name}')
    found = tuple(feature(decoded, f'image/{key}', 'int64_list')[0]
                  for key in ('height', 'width', 'channels'))
    expect(found == shape, f'{what}: height, width, channels {found}, not {shape}')


def array_feature(decoded, source, example, what):
    flat = np.asarray(example).reshape(-1)
    if flat.dtype.kind == 'S':
        strings = [bytes.fromhex(value) for value in feature(decoded, source['name'], 'bytes_list')]
        expect(strings == [value.rstrip(b'\0') for value in flat], f'{what}: strings differ')
    elif flat.dtype.kind == 'f':
        bits = [struct.pack('>f', value).hex() for value in flat.astype(np.float32)]
        expect(feature(decoded, source['name'], 'float_list') == bits, f'{what}: floats differ')
    else:
        integers = [int(value) for value in flat.astype(np.int64)]
        expect(feature(decoded, source['name'], 'int64_list') == integers, f'{what}: ints differ')


def tfrecords(directory, listing, source_file, values):
    roles = source_roles(listing)
    example_type = tfrecord.example_class()
    order = []
    for shard in listing['shards']:
        file_check(directory, shard)
        records = tfrecord.read_records(os.path.join(directory, shard['name']))
        expect(len(records) == shard['examples'], f'{shard["name"]}: {len(records)} records')
        for record in records:
            decoded = tfrecord.decode_with_protobuf(example_type, record)
            images = [name for name, source in roles.items() if source['feature'] == 'image/encoded']
            if images:
                name = bytes.fromhex(feature(decoded, 'image/filename', 'bytes_list')[0]).decode()
                index = int(name.split('.')[0])
            else:
                index = len(order) if 'seed' not in listing['order'] else None
                # Without an image there is no image/filename: only the split's order is checked.
                expect(index is not None, 'no key to find a shuffled example by')
            order.append(index)
            what = f'{shard["name"]}: example {index}'
            for name, source in roles.items():
                example = values[name][index]
                if source['role'] == 'label':
                    label = int(np.asarray(example).reshape(-1)[0])
                    expect(feature(decoded, 'image/class/label', 'int64_list') == [label],
                           f'{what}: label')
                    names = source.get('names', [])
                    if names:
                        text = bytes.fromhex(feature(decoded, 'image/class/text', 'bytes_list')[0])
                        wanted = names[label] if 0 <= label < len(names) else ''
                        expect(text.decode() == wanted, f'{what}: class text {text}, not {wanted}')
                elif source['feature'] == 'image/encoded':
                    image_features(decoded, source, example, index, what)
                else:
                    array_feature(decoded, source, example, what)
            expected_keys = {source['feature'] for source in roles.values()}
            expected_keys |= {source['name_feature'] for source in roles.values() if 'names' in source}
            if images:
                expected_keys |= {f'image/{key}' for key in
                                  ('format', 'height', 'width', 'channels', 'colorspace', 'filename')}
            expect(set(decoded) == expected_keys, f'{what}: features {sorted(decoded)}')
    return order


def main(arguments):
    form, directory, split, source_path = arguments[:4]
    options = dict(zip(arguments[4::2], arguments[5::2]))
    seed = int(options['--seed']) if '--seed' in options else None
    ranks = int(options.get('--ranks', 1))
    with open(os.path.join(directory, f'{split}.json')) as file:
        listing = json.load(file)
    expect(listing['form'] == form and listing['split'] == split, 'listing of another set')
    mtime = int(options.get('--mtime', listing['mtime']))
    with h5py.File(source_path, 'r') as source_file:
        values = split_examples(source_file, split)
        expect(all(len(values[name]) == listing['examples'] for name in source_roles(listing)),
               'the listing\'s example count is not the split\'s')
        balance_check(listing, ranks)
        classes_check(listing, source_file)
        if form == 'webdataset':
            order = webdataset(directory, listing, source_file, values, mtime)
        else:
            order = tfrecords(directory, listing, source_file, values)
    order_check(listing, order, seed)
    print(f'ok {listing["examples"]} examples in {len(listing["shards"])} shards')


if __name__ == '__main__':
    try:
        words = sys.argv[1:]
        while words:
            end = words.index('--') if '--' in words else len(words)
            main(words[:end])
            words = words[end + 1:]
    except (Mismatch, ValueError, KeyError) as error:
        print(f'shard_check.py: {error}', file=sys.stderr)
        sys.exit(1)
