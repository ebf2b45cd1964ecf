"""Images and what PIL's resize with LANCZOS (ANTIALIAS) makes of them, for
tests/unit/test_pillow_resample.c.

    resize_cases.py DIR   writes DIR/NAME.in (the image, height x width x channels bytes),
                          DIR/NAME.out (PIL's result) and DIR/manifest, one line per case:
                          "NAME WIDTH HEIGHT CHANNELS RESIZED_WIDTH RESIZED_HEIGHT TOP BOTTOM",
                          where NAME.out holds rows TOP to BOTTOM of the resized image (CelebA's
                          converter crops (0, 7, 64, 71) after resizing to 64 x 78)
"""
import os
import sys

import numpy
import PIL.Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import photos  # noqa: E402

MODES = {1: 'L', 3: 'RGB', 4: 'CMYK'}


def images(generator):
    """(name, pixels (height, width, channels), resized size, crop rows or None) for each case."""
    for index in range(40):
        yield f'celeba_photo{index}', photos.picture(generator, 218, 178), (64, 78), (7, 71)
    for index in range(10):
        noise = generator.integers(0, 256, (218, 178, 3), dtype=numpy.uint8)
        yield f'celeba_noise{index}', noise, (64, 78), (7, 71)
    # Hard edges overshoot most: the sums leave 0..255 and are clipped.
    checker = (numpy.indices((218, 178)).sum(axis=0) // 3 % 2 * 255).astype(numpy.uint8)
    yield 'celeba_checker', numpy.repeat(checker[..., None], 3, axis=2), (64, 78), (7, 71)
    yield 'celeba_black', numpy.zeros((218, 178, 3), numpy.uint8), (64, 78), None
    yield 'celeba_white', numpy.full((218, 178, 3), 255, numpy.uint8), (64, 78), None
    yield 'imagenet_down', photos.picture(generator, 375, 500), (224, 168), None
    yield 'odd_ratio', photos.picture(generator, 97, 131), (45, 61), None
    yield 'upscale', photos.picture(generator, 17, 31), (100, 50), None
    yield 'upscale_noise', generator.integers(0, 256, (5, 7, 3), dtype=numpy.uint8), (23, 9), None
    yield 'to_one_pixel', generator.integers(0, 256, (5, 7, 3), dtype=numpy.uint8), (1, 1), None
    yield 'from_one_pixel', generator.integers(0, 256, (1, 1, 3), dtype=numpy.uint8), (5, 3), None
    yield 'rows_only', photos.picture(generator, 100, 64), (64, 30), None
    yield 'columns_only', photos.picture(generator, 64, 100), (30, 64), None
    yield 'same_size', photos.picture(generator, 20, 30), (30, 20), None
    gray = photos.picture(generator, 218, 178).mean(axis=2).astype(numpy.uint8)[..., None]
    yield 'gray_celeba', gray, (64, 78), (7, 71)
    yield 'gray_noise', generator.integers(0, 256, (33, 40, 1), dtype=numpy.uint8), (17, 71), None
    yield 'cmyk', generator.integers(0, 256, (40, 50, 4), dtype=numpy.uint8), (21, 13), None


def main(directory):
    generator = numpy.random.default_rng(78)
    lines = []
    for name, pixels, size, crop in images(generator):
        height, width, channels = pixels.shape
        image = PIL.Image.fromarray(pixels[..., 0] if channels == 1 else pixels, MODES[channels])
        resized = image.resize(size, PIL.Image.LANCZOS)
        top, bottom = crop if crop is not None else (0, size[1])
        result = numpy.asarray(resized.crop((0, top, size[0], bottom)))
        with open(os.path.join(directory, name + '.in'), 'wb') as output:
            output.write(pixels.tobytes())
        with open(os.path.join(directory, name + '.out'), 'wb') as output:
            output.write(result.tobytes())
        lines.append(f'{name} {width} {height} {channels} {size[0]} {size[1]} {top} {bottom}\n')
    with open(os.path.join(directory, 'manifest'), 'w') as output:
        output.writelines(lines)


if __name__ == '__main__':
    main(sys.argv[1])
