#!/usr/bin/python3
"""Valid inputs of a few large images, for the tests of memory bounded by bytes (PIL, zipfile,
tarfile; flat colours, so the files are small and quick to make).

usage: large_images.py DIRECTORY
  DIRECTORY/dogs_vs_cats/  dogs_vs_cats.train.zip: three 4096 x 4096 baseline JPEGs;
                           dogs_vs_cats.test1.zip: one 8 x 8
  DIRECTORY/ilsvrc2012/    tests/helpers/ilsvrc_archives.py's archives, the validation tar's two
                           images replaced by progressive 6144 x 6144 JPEGs (libjpeg holds
                           113 MB of coefficients for each)
  DIRECTORY/pack/          spec.yaml of one source from pictures/: three 4096 x 4096 JPEGs
"""
import io
import os
import subprocess
import sys
import tarfile
import zipfile

from PIL import Image


def jpeg(side, progressive=False):
    data = io.BytesIO()
    Image.new('RGB', (side, side), (120, 60, 200)).save(data, 'JPEG', progressive=progressive)
    return data.getvalue()


def dogs_vs_cats(directory, large):
    os.makedirs(directory)
    with zipfile.ZipFile(os.path.join(directory, 'dogs_vs_cats.train.zip'), 'w') as archive:
        for name in ('train/cat.0.jpg', 'train/dog.1.jpg', 'train/cat.2.jpg'):
            archive.writestr(name, large)
    with zipfile.ZipFile(os.path.join(directory, 'dogs_vs_cats.test1.zip'), 'w') as archive:
        archive.writestr('test1/1.jpg', jpeg(8))


def ilsvrc2012(directory):
    subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), 'ilsvrc_archives.py'),
                    'make', directory, '--train', '2', '--valid', '2', '--test', '1'], check=True)
    path = os.path.join(directory, 'ILSVRC2012_img_val.tar')
    with tarfile.open(path) as archive:
        members = [member for member in archive]
    progressive = jpeg(6144, progressive=True)
    with tarfile.open(path, 'w') as archive:
        for member in members:
            member.size = len(progressive)
            archive.addfile(member, io.BytesIO(progressive))


def pack(directory, large):
    os.makedirs(os.path.join(directory, 'pictures', 'cat'))
    for index in range(3):
        with open(os.path.join(directory, 'pictures', 'cat', '%d.jpg' % index), 'wb') as f:
            f.write(large)
    with open(os.path.join(directory, 'spec.yaml'), 'w') as f:
        f.write('splits: {all: {examples: 3}}\nsources: {x: {from: {images: pictures}}}\n')


def main():
    out = sys.argv[1]
    large = jpeg(4096)
    dogs_vs_cats(os.path.join(out, 'dogs_vs_cats'), large)
    ilsvrc2012(os.path.join(out, 'ilsvrc2012'))
    pack(os.path.join(out, 'pack'), large)


if __name__ == '__main__':
    main()
