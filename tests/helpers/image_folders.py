#!/usr/bin/python3
"""Image folders for fuel pack's tests, and what PIL and torchvision's ImageFolder make of them.

    image_folders.py make DIR SEED [ragged]   DIR/train and DIR/test as ImageFolder trees: classes
                                              cat, dog, 'dog-2' (after dog, as ImageFolder sorts),
                                              nested folders, PNG (gray, gray+alpha, RGB, RGBA,
                                              palette, 1-bit) and JPEG (RGB, gray); every image
                                              24x32 unless 'ragged'
    image_folders.py check FILE DIR SOURCE CLASSES
                                              exit 1 unless FILE's SOURCE holds DIR/train then
                                              DIR/test's images as PIL decodes them, in
                                              ImageFolder's order, and CLASSES their classes

ImageFolder's order is torchvision's make_dataset, restated from its rules (torchvision itself is
not needed): classes are the sorted subfolders; for each, sorted(os.walk(folder,
followlinks=True)), each folder's files sorted, kept when their names end in one of its
extensions.
"""
import io
import os
import sys

import h5py
import numpy
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import photos  # noqa: E402

EXTENSIONS = ('.jpg', '.jpeg', '.png', '.ppm', '.bmp', '.pgm', '.tif', '.tiff', '.webp')


def image_folder_order(root):
    classes = sorted(entry.name for entry in os.scandir(root) if entry.is_dir())
    samples = []
    for index, name in enumerate(classes):
        for folder, _, files in sorted(os.walk(os.path.join(root, name), followlinks=True)):
            for file in sorted(files):
                if file.lower().endswith(EXTENSIONS):
                    samples.append((os.path.join(folder, file), index))
    return classes, samples


def pixels(path):
    """PIL's pixels, channel x height x width: palettes as RGB, 1-bit as 0 and 255."""
    image = Image.open(path)
    if image.mode == 'P':
        image = image.convert('RGB')
    elif image.mode == '1':
        image = image.convert('L')
    array = numpy.asarray(image)
    return array[None] if array.ndim == 2 else array.transpose(2, 0, 1)


def save(path, array, mode, format, **options):
    if mode == '1':
        image = Image.fromarray(array > 127).convert('1')
    elif mode == 'P':
        image = Image.fromarray(array, 'RGB').quantize(16)
    else:
        image = Image.fromarray(array, mode)
    buffer = io.BytesIO()
    image.save(buffer, format, **options)
    with open(path, 'wb') as f:
        f.write(buffer.getvalue())


KINDS = [('RGB', 'PNG', '.png'), ('L', 'PNG', '.png'), ('RGBA', 'PNG', '.PNG'),
         ('LA', 'PNG', '.png'), ('P', 'PNG', '.png'), ('1', 'PNG', '.png'),
         ('RGB', 'JPEG', '.jpg'), ('L', 'JPEG', '.jpeg')]


def make(directory, seed, ragged):
    generator = numpy.random.RandomState(seed)
    layout = {'cat': ['', 'indoor', 'indoor/sofa'], 'dog': ['', 'park'], 'dog-2': ['']}
    number = 0
    for split in ('train', 'test'):
        for name, folders in layout.items():
            for folder in folders:
                path = os.path.join(directory, split, name, folder)
                os.makedirs(path, exist_ok=True)
                for _ in range(2):
                    mode, format, extension = KINDS[number % len(KINDS)]
                    height, width = (24 + number % 3, 32 - number % 5) if ragged else (24, 32)
                    base = photos.picture(generator, height, width)
                    array = {'L': base[..., 0], '1': base[..., 0], 'LA': base[..., :2],
                             'RGBA': numpy.concatenate([base, base[..., :1]], axis=2)}.get(mode, base)
                    save(os.path.join(path, 'image%02d%s' % (number, extension)), array, mode,
                         format, **({'quality': 90} if format == 'JPEG' else {}))
                    number += 1
        with open(os.path.join(directory, split, 'cat', 'notes.txt'), 'w') as f:
            f.write('not an image\n')


def check(file, directory, source, classes_source):
    expected_images, expected_classes, names = [], [], None
    for split in ('train', 'test'):
        names, samples = image_folder_order(os.path.join(directory, split))
        expected_images += [pixels(path) for path, _ in samples]
        expected_classes += [index for _, index in samples]
    problems = []
    with h5py.File(file, 'r') as f:
        data = f[source]
        if h5py.check_dtype(vlen=data.dtype) is not None:
            shapes = f[source + '_shapes'][...]
            images = [row.reshape(shape) for row, shape in zip(data[...], shapes)]
        else:
            images = list(data[...])
        if len(images) != len(expected_images):
            problems.append('%d images, expected %d' % (len(images), len(expected_images)))
        for number, (image, expected) in enumerate(zip(images, expected_images)):
            if image.shape != expected.shape or not numpy.array_equal(image, expected):
                problems.append('image %d: %s differs from PIL\'s %s' % (
                    number, image.shape, expected.shape))
        classes = f[classes_source][...]
        if classes.dtype != numpy.int64 or classes.shape != (len(expected_classes), 1) or \
                list(classes[:, 0]) != expected_classes:
            problems.append('classes %s %s %s, expected %s' % (
                classes.dtype, classes.shape, list(classes.ravel()), expected_classes))
        stored = [name.decode() for name in f[classes_source + '_classes'][...]]
        if stored != names:
            problems.append('class names %s, expected %s' % (stored, names))
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == '__main__':
    if sys.argv[1] == 'make':
        make(sys.argv[2], int(sys.argv[3]), len(sys.argv) > 4 and sys.argv[4] == 'ragged')
    else:
        sys.exit(check(*sys.argv[2:6]))
