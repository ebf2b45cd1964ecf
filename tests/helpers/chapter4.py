#!/usr/bin/python3
"""Fuel's chapter 4 ("Getting your data in Fuel") by hand, as the chapter writes it with numpy and
h5py, and a comparison of two HDF5 files value for value and attribute for attribute.

    chapter4.py inputs DIR SEED          the chapter's bogus inputs (4.1) in DIR, plus 4.7's images
                                         as one .npy per example under DIR/train_images, test_images
    chapter4.py toy DIR OUT              4.3: OUT from DIR's .npy files
    chapter4.py indices DIR OUT          4.6: 4.3's file with even/odd indices splits
    chapter4.py ragged DIR OUT           4.7: variable-length image_features
    chapter4.py compare EXPECTED ACTUAL  exit 1, printing each difference, unless they agree

The split array is built as H5PYDataset.create_split_array builds it (the chapter's last word on
it): splits in the dictionary's order, sources sorted, '.' comments, null references. The compared
files may differ only in fuel's own root attributes (fuel_convert_*, h5py_interface_version,
fuel_provenance), listed in FUEL_ATTRIBUTES.
"""
import os
import sys
import warnings

import h5py
import numpy

FUEL_ATTRIBUTES = {'h5py_interface_version', 'fuel_convert_version', 'fuel_convert_command',
                   'fuel_provenance'}
SCALE_ATTRIBUTES = {'DIMENSION_LIST', 'REFERENCE_LIST'}


def make_inputs(directory, seed):
    rng = numpy.random.RandomState(seed)
    numpy.save(os.path.join(directory, 'train_vector_features.npy'),
               rng.normal(size=(90, 10)).astype('float32'))
    numpy.save(os.path.join(directory, 'test_vector_features.npy'),
               rng.normal(size=(10, 10)).astype('float32'))
    numpy.save(os.path.join(directory, 'train_image_features.npy'),
               rng.randint(2, size=(90, 3, 5, 5)).astype('uint8'))
    numpy.save(os.path.join(directory, 'test_image_features.npy'),
               rng.randint(2, size=(10, 3, 5, 5)).astype('uint8'))
    numpy.save(os.path.join(directory, 'train_targets.npy'),
               rng.randint(10, size=(90, 1)).astype('uint8'))
    numpy.save(os.path.join(directory, 'test_targets.npy'),
               rng.randint(10, size=(10, 1)).astype('uint8'))
    numpy.save(os.path.join(directory, 'train_indices.npy'), numpy.arange(0, 100, 2))
    numpy.save(os.path.join(directory, 'test_indices.npy'), numpy.arange(1, 100, 2))
    sizes = rng.randint(3, 9, size=(100,))
    for split, chosen in (('train', sizes[:90]), ('test', sizes[90:])):
        folder = os.path.join(directory, split + '_images')
        os.makedirs(folder, exist_ok=True)
        for number, size in enumerate(chosen):
            image = rng.randint(256, size=(3, size, size)).astype('uint8')
            numpy.save(os.path.join(folder, '%03d.npy' % number), image)


def create_split_array(split_dict):
    """H5PYDataset.create_split_array's array, from the format rules it follows."""
    sources = sorted(set(source for split in split_dict.values() for source in split))
    comment_length = max([1] + [len(value[3]) for split in split_dict.values()
                                for value in split.values() if len(value) == 4])
    array = numpy.empty(len(split_dict) * len(sources), dtype=numpy.dtype([
        ('split', 'a', max(len(split) for split in split_dict)),
        ('source', 'a', max(len(source) for source in sources)),
        ('start', numpy.int64), ('stop', numpy.int64),
        ('indices', h5py.special_dtype(ref=h5py.Reference)),
        ('available', numpy.bool_), ('comment', 'a', comment_length)]))
    row = 0
    for split in split_dict:
        for source in sources:
            value = split_dict[split].get(source)
            if value is None:
                array[row] = (split.encode(), source.encode(), 0, 0, h5py.Reference(), False, b'.')
            else:
                indices = value[2] if len(value) > 2 else h5py.Reference()
                comment = value[3] if len(value) > 3 and value[3] else '.'
                array[row] = (split.encode(), source.encode(), value[0], value[1], indices, True,
                              comment.encode())
            row += 1
    return array


def load(directory, name):
    return numpy.load(os.path.join(directory, name))


def make_toy(directory, out):
    """4.3: three sources, train the first 90 examples, test the last 10."""
    f = h5py.File(out, mode='w')
    vector_features = f.create_dataset('vector_features', (100, 10), dtype='float32')
    image_features = f.create_dataset('image_features', (100, 3, 5, 5), dtype='uint8')
    targets = f.create_dataset('targets', (100, 1), dtype='uint8')
    vector_features[...] = numpy.vstack([load(directory, 'train_vector_features.npy'),
                                         load(directory, 'test_vector_features.npy')])
    image_features[...] = numpy.vstack([load(directory, 'train_image_features.npy'),
                                        load(directory, 'test_image_features.npy')])
    targets[...] = numpy.vstack([load(directory, 'train_targets.npy'),
                                 load(directory, 'test_targets.npy')])
    for dataset, labels in ((vector_features, ('batch', 'feature')),
                            (image_features, ('batch', 'channel', 'height', 'width')),
                            (targets, ('batch', 'index'))):
        for axis, label in enumerate(labels):
            dataset.dims[axis].label = label
    split_dict = {
        'train': {'vector_features': (0, 90), 'image_features': (0, 90), 'targets': (0, 90)},
        'test': {'vector_features': (90, 100), 'image_features': (90, 100),
                 'targets': (90, 100)}}
    f.attrs['split'] = create_split_array(split_dict)
    f.flush()
    f.close()


def make_indices(directory, out):
    """4.6: the toy file, its splits the even and the odd examples."""
    make_toy(directory, out)
    f = h5py.File(out, mode='a')
    f['train_indices'] = numpy.arange(0, 100, 2)
    train_ref = f['train_indices'].ref
    f['test_indices'] = numpy.arange(1, 100, 2)
    test_ref = f['test_indices'].ref
    split_dict = {
        'train': {'vector_features': (-1, -1, train_ref), 'image_features': (-1, -1, train_ref),
                  'targets': (-1, -1, train_ref)},
        'test': {'vector_features': (-1, -1, test_ref), 'image_features': (-1, -1, test_ref),
                 'targets': (-1, -1, test_ref)}}
    f.attrs['split'] = create_split_array(split_dict)
    f.flush()
    f.close()


def make_ragged(directory, out):
    """4.7: image_features of varying sizes, flattened, with shapes and shape_labels scales."""
    images = []
    for split in ('train', 'test'):
        folder = os.path.join(directory, split + '_images')
        images += [numpy.load(os.path.join(folder, name)) for name in sorted(os.listdir(folder))]
    f = h5py.File(out, mode='w')
    f['vector_features'] = numpy.vstack([load(directory, 'train_vector_features.npy'),
                                         load(directory, 'test_vector_features.npy')])
    f['targets'] = numpy.vstack([load(directory, 'train_targets.npy'),
                                 load(directory, 'test_targets.npy')])
    f['vector_features'].dims[0].label = 'batch'
    f['vector_features'].dims[1].label = 'feature'
    f['targets'].dims[0].label = 'batch'
    f['targets'].dims[1].label = 'index'
    dtype = h5py.special_dtype(vlen=numpy.dtype('uint8'))
    image_features = f.create_dataset('image_features', (100,), dtype=dtype)
    image_features[...] = [image.flatten() for image in images]
    image_features.dims[0].label = 'batch'
    shapes = f.create_dataset('image_features_shapes', (100, 3), dtype='int32')
    shapes[...] = numpy.array([image.shape for image in images])
    # The chapter's own calls, which h5py 3 still runs but calls deprecated.
    warnings.filterwarnings('ignore', message='.*create_scale')
    image_features.dims.create_scale(shapes, 'shapes')
    image_features.dims[0].attach_scale(shapes)
    labels = f.create_dataset('image_features_shape_labels', (3,), dtype='S7')
    labels[...] = [b'channel', b'height', b'width']
    image_features.dims.create_scale(labels, 'shape_labels')
    image_features.dims[0].attach_scale(labels)
    split_dict = {
        'train': {'vector_features': (0, 90), 'image_features': (0, 90), 'targets': (0, 90)},
        'test': {'vector_features': (90, 100), 'image_features': (90, 100),
                 'targets': (90, 100)}}
    f.attrs['split'] = create_split_array(split_dict)
    f.flush()
    f.close()


def scale_names(dataset):
    """Per dimension: its label and the sorted names of the datasets attached as its scales."""
    return [(dimension.label, sorted(scale.name for scale in dimension.values()))
            for dimension in dataset.dims]


def compare_values(name, expected, actual, differences):
    if expected.dtype != actual.dtype or expected.shape != actual.shape:
        differences.append('%s: %s %s, expected %s %s' % (name, actual.dtype, actual.shape,
                                                           expected.dtype, expected.shape))
        return
    if h5py.check_dtype(vlen=expected.dtype) is not None:
        for row, (left, right) in enumerate(zip(expected[...], actual[...])):
            if left.dtype != right.dtype or not numpy.array_equal(left, right):
                differences.append('%s: example %d differs' % (name, row))
                return
    elif not numpy.array_equal(expected[...], actual[...]):
        differences.append('%s: values differ' % name)


def compare_dataset(name, expected, actual, differences):
    compare_values(name, expected, actual, differences)
    if actual.id.get_create_plist().get_layout() != h5py.h5d.CONTIGUOUS or actual.compression:
        differences.append('%s: not contiguous and uncompressed' % name)
    if scale_names(expected) != scale_names(actual):
        differences.append('%s: dimensions %s, expected %s' % (
            name, scale_names(actual), scale_names(expected)))
    expected_keys = set(expected.attrs) - SCALE_ATTRIBUTES
    actual_keys = set(actual.attrs) - SCALE_ATTRIBUTES
    if expected_keys != actual_keys:
        differences.append('%s: attributes %s, expected %s' % (
            name, sorted(actual_keys), sorted(expected_keys)))
    for key in expected_keys & actual_keys:
        left, right = expected.attrs[key], actual.attrs[key]
        if numpy.asarray(left).dtype != numpy.asarray(right).dtype or \
                not numpy.array_equal(left, right):
            differences.append('%s: attribute %s: %r, expected %r' % (name, key, right, left))


def split_rows(f):
    """The split attribute's rows, each reference replaced by the name of what it points to."""
    rows = []
    for row in f.attrs['split']:
        values = [row[field] for field in row.dtype.names]
        index = row.dtype.names.index('indices')
        values[index] = f[values[index]].name if values[index] else None
        rows.append(tuple(values))
    return rows


def compare(expected_path, actual_path):
    differences = []
    with h5py.File(expected_path, 'r') as expected, h5py.File(actual_path, 'r') as actual:
        if set(expected) != set(actual):
            differences.append('datasets %s, expected %s' % (sorted(actual), sorted(expected)))
        for name in sorted(set(expected) & set(actual)):
            compare_dataset(name, expected[name], actual[name], differences)
        extra = set(actual.attrs) - set(expected.attrs)
        if set(expected.attrs) - set(actual.attrs) or extra - FUEL_ATTRIBUTES:
            differences.append('root attributes %s, expected %s and fuel\'s' % (
                sorted(actual.attrs), sorted(expected.attrs)))
        if expected.attrs['split'].dtype != actual.attrs['split'].dtype:
            differences.append('split dtype %s, expected %s' % (
                actual.attrs['split'].dtype, expected.attrs['split'].dtype))
        if split_rows(expected) != split_rows(actual):
            differences.append('split rows %s, expected %s' % (split_rows(actual),
                                                               split_rows(expected)))
    for difference in differences:
        print(difference)
    return 1 if differences else 0


def main(arguments):
    command = arguments[0]
    if command == 'inputs':
        make_inputs(arguments[1], int(arguments[2]))
    elif command == 'compare':
        return compare(arguments[1], arguments[2])
    else:
        {'toy': make_toy, 'indices': make_indices, 'ragged': make_ragged}[command](
            arguments[1], arguments[2])
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
