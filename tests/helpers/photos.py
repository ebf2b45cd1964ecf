"""Pixels that deflate compresses as it does photographs (for benchmark inputs: random pixels
would make stored blocks and measure no inflate at all).

Each image is a smooth scene (a level, a tint per channel, a gradient, a blob) plus Gaussian noise;
the noise's sigma sets the compression: at zlib's default level about 0.81 for sigma 1.7 (SVHN's
train_32x32.mat: 182 MB for 225 MB of pixels) and 0.885 for sigma 3.3 at level 9
(cifar-10-python.tar.gz: 163 MB for 184 MB of pickles).
"""
import numpy


def scenes(generator, count, sigma):
    """COUNT images as a uint8 array (count, 3, 32, 32): channel, row, column."""
    y, x = numpy.mgrid[0:32, 0:32].astype(numpy.float32)
    shape = (count, 1, 1, 1)
    level = generator.uniform(30, 220, shape)
    tint = generator.normal(0, 20, (count, 3, 1, 1))
    slope_x, slope_y = generator.normal(0, 2.5, shape), generator.normal(0, 2.5, shape)
    centre_x, centre_y = generator.uniform(0, 32, shape), generator.uniform(0, 32, shape)
    height, radius = generator.normal(0, 50, shape), generator.uniform(4, 12, shape)
    blob = height * numpy.exp(-((x - centre_x) ** 2 + (y - centre_y) ** 2) / (2 * radius ** 2))
    scene = level + tint + slope_x * (x - 16) + slope_y * (y - 16) + blob
    scene += generator.normal(0, sigma, (count, 3, 32, 32))
    return numpy.clip(scene, 0, 255).astype(numpy.uint8)



def texture(generator, height, width):
    """Noise with a natural image's 1/f amplitude spectrum and unit deviation (height, width)."""
    frequency_y = numpy.fft.fftfreq(height)[:, None]
    frequency_x = numpy.fft.rfftfreq(width)[None, :]
    radius = numpy.sqrt(frequency_y ** 2 + frequency_x ** 2)
    radius[0, 0] = 1.0
    spectrum = numpy.fft.rfft2(generator.normal(0, 1, (height, width))) / radius
    spectrum[0, 0] = 0
    noise = numpy.fft.irfft2(spectrum, (height, width))
    return noise / max(noise.std(), 1e-9)


def picture(generator, height, width, detail=18.0, sigma=2.0):
    """One photo-like image as a uint8 array (height, width, 3): a lit gradient, soft blobs, a few
    hard-edged shapes, 1/f texture of deviation DETAIL and sensor noise of deviation SIGMA, so that
    JPEG spends its bits as it does on photographs (PIL at quality 90: about 2.4 bits a pixel for
    DETAIL 12, 3 for 18, 4 for 30)."""
    y, x = numpy.mgrid[0:height, 0:width].astype(numpy.float32)
    y, x = y / max(height, 1), x / max(width, 1)
    scene = generator.uniform(60, 190) + generator.normal(0, 25, 3)
    scene = scene + (generator.normal(0, 60) * x + generator.normal(0, 60) * y)[..., None]
    for _ in range(6):
        centre_y, centre_x = generator.uniform(0, 1, 2)
        radius = generator.uniform(0.05, 0.3)
        blob = numpy.exp(-((x - centre_x) ** 2 + (y - centre_y) ** 2) / (2 * radius ** 2))
        scene = scene + blob[..., None] * generator.normal(0, 45, 3)
    for _ in range(4):
        top, left = generator.uniform(0, 1, 2)
        tall, wide = generator.uniform(0.05, 0.4, 2)
        inside = (y > top) & (y < top + tall) & (x > left) & (x < left + wide)
        scene = scene + inside[..., None] * generator.normal(0, 40, 3)
    shade = texture(generator, height, width)[..., None] * (1 + generator.normal(0, 0.15, 3))
    scene = scene + detail * shade + generator.normal(0, sigma, (height, width, 3))
    return numpy.clip(scene, 0, 255).astype(numpy.uint8)
