"""JPEG files written by PIL, and the pixels PIL decodes from them, for tests/unit/test_jpeg_read.c.

    jpeg_cases.py make DIR      writes DIR/NAME.jpg and DIR/NAME.raw (numpy.asarray(PIL image):
                                height x width x channels bytes) for each case, and DIR/manifest
                                with one line "NAME HEIGHT WIDTH CHANNELS" per case
    jpeg_cases.py decode FILE OUT
                                writes PIL's pixels of FILE to OUT and prints "HEIGHT WIDTH
                                CHANNELS"; prints "refused: WHY" and exits 1 when PIL raises
"""
import io
import os
import sys

import numpy
import PIL.Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import photos  # noqa: E402


def encode(pixels, mode, **options):
    output = io.BytesIO()
    PIL.Image.fromarray(pixels, mode).save(output, 'JPEG', **options)
    return output.getvalue()


def damaged(data, how):
    """Damage PIL decodes without complaint (libjpeg warns): junk between two header markers
    (PIL's own marker parser skips it too), junk before the end marker, or 24 one bits (stuffed
    0xff bytes) in the middle of the entropy-coded data, longer than any Huffman code (JPEG has
    no all-ones code)."""
    if how == 'header_junk':
        after_app0 = 4 + int.from_bytes(data[4:6], 'big')
        return data[:after_app0] + b'abc' + data[after_app0:]
    if how == 'extraneous':
        return data[:-2] + b'\x00' * 10 + data[-2:]
    middle = len(data) // 2
    while data[middle - 1] == 0xff:
        middle += 1
    return data[:middle] + b'\xff\x00' * 3 + data[middle + 6:]


def cases(generator):
    """(name, JPEG bytes) for each case."""
    def photo(height, width):
        return photos.picture(generator, height, width)

    def noise(height, width, channels):
        return generator.integers(0, 256, (height, width, channels), dtype=numpy.uint8)

    gray = photo(77, 123).mean(axis=2).astype(numpy.uint8)
    yield 'rgb420_celeba', encode(photo(218, 178), 'RGB', quality=90)
    yield 'rgb420_odd', encode(photo(251, 333), 'RGB', quality=90)
    yield 'rgb444', encode(photo(67, 101), 'RGB', quality=90, subsampling=0)
    yield 'rgb422', encode(photo(41, 99), 'RGB', quality=75, subsampling=1)
    yield 'rgb420_noise', encode(noise(9, 17, 3), 'RGB', quality=95)
    yield 'rgb_1x1', encode(noise(1, 1, 3), 'RGB', quality=20)
    yield 'rgb_optimized', encode(photo(64, 48), 'RGB', quality=100, optimize=True)
    yield 'rgb_progressive', encode(photo(161, 213), 'RGB', quality=90, progressive=True)
    yield 'rgb444_progressive', encode(photo(33, 31), 'RGB', quality=85, progressive=True,
                                       subsampling=0)
    yield 'gray', encode(gray, 'L', quality=90)
    yield 'gray_2x3', encode(noise(2, 3, 1)[..., 0].copy(), 'L', quality=90)
    yield 'gray_progressive', encode(gray, 'L', quality=90, progressive=True)
    yield 'cmyk', encode(noise(37, 45, 4), 'CMYK', quality=90)
    yield 'cmyk_progressive', encode(noise(20, 21, 4), 'CMYK', quality=90, progressive=True)
    yield 'imagenet', encode(photo(375, 500), 'RGB', quality=90)
    good = encode(photo(96, 128), 'RGB', quality=90)
    yield 'damaged_extraneous', damaged(good, 'extraneous')
    yield 'damaged_header_junk', damaged(good, 'header_junk')
    yield 'damaged_ones', damaged(good, 'ones')
    yield 'damaged_ones_progressive', damaged(encode(photo(96, 128), 'RGB', quality=90,
                                                       progressive=True), 'ones')


def decoded(data):
    return numpy.asarray(PIL.Image.open(io.BytesIO(data)))


def make(directory):
    generator = numpy.random.default_rng(20240)
    lines = []
    for name, data in cases(generator):
        pixels = decoded(data)
        pixels = pixels if pixels.ndim == 3 else pixels[..., None]
        with open(os.path.join(directory, name + '.jpg'), 'wb') as output:
            output.write(data)
        with open(os.path.join(directory, name + '.raw'), 'wb') as output:
            output.write(pixels.tobytes())
        lines.append(f'{name} {pixels.shape[0]} {pixels.shape[1]} {pixels.shape[2]}\n')
    with open(os.path.join(directory, 'manifest'), 'w') as output:
        output.writelines(lines)


def decode(path, output_path):
    with open(path, 'rb') as source:
        data = source.read()
    try:
        pixels = decoded(data)
    except (OSError, SyntaxError, ValueError) as error:
        print(f'refused: {error}')
        return 1
    pixels = pixels if pixels.ndim == 3 else pixels[..., None]
    with open(output_path, 'wb') as output:
        output.write(pixels.tobytes())
    print(*pixels.shape)
    return 0


if __name__ == '__main__':
    if sys.argv[1] == 'make':
        sys.exit(make(sys.argv[2]))
    sys.exit(decode(sys.argv[2], sys.argv[3]))
