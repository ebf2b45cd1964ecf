#!/usr/bin/python3
"""Writes an H5PYDataset file in the layout of Python Fuel's ILSVRC2010/2012 converters, holding
photo-like JPEGs (tests/helpers/photos.py) as their encoded bytes:

  jpeg_hdf5.py OUT TRAIN VALID TEST [--size HEIGHTxWIDTH] [--distinct N] [--seed S]

encoded_images: a variable-length uint8 source, each example the bytes of one JPEG (PIL, quality
90), its shapes scale (examples, 1) of uint32 byte counts (fuel's checks want one; Fuel's own
converters write none); targets: int16 (examples, 1), train and valid only; filenames: S32
(examples, 1). Splits train, valid, test, in that order. With --distinct N only N pictures are
made and repeated (for large benchmark files); sizes vary around HEIGHTxWIDTH (default 48x64)."""
import io
import os
import sys

import h5py
import numpy
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import photos  # noqa: E402


def jpegs(generator, count, height, width):
    made = []
    for index in range(count):
        tall = max(8, height + int(generator.integers(-height // 4, height // 4 + 1)))
        wide = max(8, width + int(generator.integers(-width // 4, width // 4 + 1)))
        pixels = photos.picture(generator, tall, wide)
        image = Image.fromarray(pixels if index % 5 else pixels[:, :, 0])
        buffer = io.BytesIO()
        image.save(buffer, format='JPEG', quality=90)
        made.append(numpy.frombuffer(buffer.getvalue(), dtype=numpy.uint8))
    return made


def main(arguments):
    out, train, valid, test = arguments[0], int(arguments[1]), int(arguments[2]), int(arguments[3])
    options = dict(zip(arguments[4::2], arguments[5::2]))
    height, width = (int(side) for side in options.get('--size', '48x64').split('x'))
    total = train + valid + test
    generator = numpy.random.default_rng(int(options.get('--seed', 7)))
    distinct = jpegs(generator, min(total, int(options.get('--distinct', total))), height, width)
    splits = (('train', 0, train), ('valid', train, train + valid),
              ('test', train + valid, total))
    rows = []
    with h5py.File(out, 'w') as f:
        images = f.create_dataset('encoded_images', (total,),
                                  dtype=h5py.special_dtype(vlen=numpy.dtype('uint8')))
        for index in range(total):
            images[index] = distinct[index % len(distinct)]
        images.dims[0].label = 'batch'
        shapes = f.create_dataset('encoded_images_shapes', data=numpy.array(
            [[len(distinct[index % len(distinct)])] for index in range(total)], dtype=numpy.uint32))
        labels = f.create_dataset('encoded_images_shape_labels', data=numpy.array([b'bytes']))
        shapes.make_scale('shapes')
        labels.make_scale('shape_labels')
        images.dims[0].attach_scale(shapes)
        images.dims[0].attach_scale(labels)
        f['targets'] = (numpy.arange(train + valid, dtype=numpy.int16) * 7 % 1000)[:, None]
        f['filenames'] = numpy.array([b'n%08d_%d.JPEG' % (index * 13, index)
                                      for index in range(total)], dtype='S32')[:, None]
        for name in ('targets', 'filenames'):
            f[name].dims[0].label = 'batch'
            f[name].dims[1].label = 'index'
        for split, start, stop in splits:
            for source in ('encoded_images', 'targets', 'filenames'):
                available = source != 'targets' or split != 'test'
                rows.append((split.encode(), source.encode(), start if available else 0,
                             stop if available else 0, None, available, b'.'))
        f.attrs['split'] = numpy.array(rows, dtype=[
            ('split', 'S5'), ('source', 'S14'), ('start', '<i8'), ('stop', '<i8'),
            ('indices', h5py.special_dtype(ref=h5py.Reference)), ('available', bool),
            ('comment', 'S1')])


if __name__ == '__main__':
    main(sys.argv[1:])
