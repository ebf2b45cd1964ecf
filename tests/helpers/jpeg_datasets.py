#!/usr/bin/python3
"""Checks a converted CelebA or Dogs vs Cats file against values derived from its raw files by
Fuel 0.2's rules, with PIL's pixels, numpy's shuffle and numpy.loadtxt (no Fuel code needed):

    jpeg_datasets.py dogs_vs_cats RAW FILE
        image_features: each member of RAW/dogs_vs_cats.train.zip (directories passed over) in the
        order numpy.random.RandomState(123522).shuffle gives them, then RAW/dogs_vs_cats.test1.zip
        sorted by number; each PIL's pixels transposed to channel x height x width (a grayscale
        image: one channel), shapes int32 in image_features_shapes, shape labels in
        image_features_shapes_labels; targets uint8 (train, 1), cat 0 dog 1; splits train (both
        sources) and test (image_features only)
    jpeg_datasets.py celeba 64|aligned_cropped RAW FILE
        features uint8 (N, 3, H, W): PIL's pixels, for 64 PIL's resize((64, 78), LANCZOS) then
        crop((0, 7, 64, 71)); targets uint8 (N, 40) = (numpy.loadtxt(...) + 1) / 2 of the first N
        rows; splits at N * 162770 // 202599 and N * 182637 // 202599
Prints the shuffled training names (dogs_vs_cats) or the split stops (celeba); exits 1 naming the
first difference.
"""
import io
import sys
import zipfile

import h5py
import numpy
from PIL import Image


def fail(message):
    print(message)
    sys.exit(1)


def expect(condition, message):
    if not condition:
        fail(message)


def split_rows(handle):
    return sorted((bytes(row['split']).rstrip(b'\0').decode(), bytes(row['source']).rstrip(b'\0').decode(),
                   int(row['start']), int(row['stop']), bool(row['available']))
                  for row in handle.attrs['split'])


def members(path):
    archive = zipfile.ZipFile(path)
    return archive, [name for name in archive.namelist() if not name.endswith('/')]


def pixels(archive, name):
    image = numpy.asarray(Image.open(io.BytesIO(archive.read(name))))
    return (image[:, :, None] if image.ndim == 2 else image).transpose(2, 0, 1)


def dogs_vs_cats(raw, path):
    train_archive, train = members(f'{raw}/dogs_vs_cats.train.zip')
    test_archive, test = members(f'{raw}/dogs_vs_cats.test1.zip')
    numpy.random.RandomState(123522).shuffle(train)
    test.sort(key=lambda name: int(name.rsplit('/', 1)[-1].split('.')[0]))
    handle = h5py.File(path, 'r')
    features, shapes = handle['image_features'], handle['image_features_shapes']
    expect(shapes.dtype == numpy.int32 and shapes.shape == (len(train) + len(test), 3),
           f'image_features_shapes {shapes.dtype} {shapes.shape}')
    labels = handle['image_features_shapes_labels']
    expect(list(labels[...]) == [b'channel', b'height', b'width'] and labels.dtype == 'S7',
           f'shape labels {labels[...]!r} {labels.dtype}')
    expect([dimension.label for dimension in features.dims] == ['batch'], 'image_features labels')
    for row, (archive, name) in enumerate([(train_archive, n) for n in train] +
                                          [(test_archive, n) for n in test]):
        expected = pixels(archive, name)
        expect(tuple(shapes[row]) == expected.shape, f'{name}: shape {shapes[row]}, expected {expected.shape}')
        expect(numpy.array_equal(features[row], expected.flatten()), f'{name}: pixels differ (row {row})')
    targets = handle['targets']
    expect(targets.dtype == numpy.uint8 and targets.shape == (len(train), 1), 'targets shape')
    expect([dimension.label for dimension in targets.dims] == ['batch', 'index'], 'targets labels')
    expected = [0 if 'cat' in name else 1 for name in train]
    expect(targets[:, 0].tolist() == expected, f'targets {targets[:, 0].tolist()}, expected {expected}')
    total = len(train) + len(test)
    expect(split_rows(handle) == [('test', 'image_features', len(train), total, True),
                                  ('test', 'targets', 0, 0, False),
                                  ('train', 'image_features', 0, len(train), True),
                                  ('train', 'targets', 0, len(train), True)],
           f'splits {split_rows(handle)}')
    print(' '.join(name.rsplit('/', 1)[-1] for name in train))


def face(archive, name, which):
    image = Image.open(io.BytesIO(archive.read(name)))
    if which == '64':
        image = image.resize((64, 78), Image.LANCZOS).crop((0, 7, 64, 71))
    return numpy.asarray(image).transpose(2, 0, 1)


def celeba(which, raw, path):
    archive, names = members(f'{raw}/img_align_celeba.zip')
    count = len(names)
    handle = h5py.File(path, 'r')
    features, targets = handle['features'], handle['targets']
    side = (3, 64, 64) if which == '64' else (3, 218, 178)
    expect(features.dtype == numpy.uint8 and features.shape == (count,) + side,
           f'features {features.dtype} {features.shape}')
    expect([d.label for d in features.dims] == ['batch', 'channel', 'height', 'width'], 'features labels')
    for number in range(1, count + 1):
        expected = face(archive, f'img_align_celeba/{number:06d}.jpg', which)
        expect(numpy.array_equal(features[number - 1], expected), f'face {number:06d}: pixels differ')
    values = numpy.loadtxt(f'{raw}/list_attr_celeba.txt', dtype='int32', skiprows=2,
                           usecols=tuple(range(1, 41)), ndmin=2)[:count]
    expect(targets.dtype == numpy.uint8 and targets.shape == (count, 40), 'targets shape')
    expect([d.label for d in targets.dims] == ['batch', 'target'], 'targets labels')
    expect(numpy.array_equal(targets[...], ((values + 1) / 2).astype(numpy.uint8)), 'targets differ')
    train, valid = count * 162770 // 202599, count * 182637 // 202599
    rows = [(split, source, start, stop, True) for split, start, stop in
            (('test', valid, count), ('train', 0, train), ('valid', train, valid))
            for source in ('features', 'targets')]
    expect(split_rows(handle) == rows, f'splits {split_rows(handle)}')
    print(train, valid, count)


if __name__ == '__main__':
    if sys.argv[1] == 'dogs_vs_cats':
        dogs_vs_cats(sys.argv[2], sys.argv[3])
    else:
        celeba(sys.argv[2], sys.argv[3], sys.argv[4])
