"""Checks fuel stats --json against h5py + numpy float64:
stats_check.py FILE.hdf5 REPORT.json [FILE.hdf5 REPORT.json ...], a line of what was compared for
each pair.

For each split and source of the report: the examples read with h5py (the split's rows, or its
indices), count, NaN and Inf counts, minimum, maximum, mean and std (ddof 0) of the finite values
as numpy computes them, per channel where an axis is labelled `channel`; class counts; for
variable-length sources each axis' min, median (numpy's) and max length and the bytes, and their
values per channel where a shape label is `channel`; stored JPEG and PNG files the report says it
decoded (--decode) opened with PIL and made RGB as torchvision's loader does
(Image.open(file).convert("RGB")), each channel's float64 statistics; the Normalize values (uint8
scaled by 255); with --plot, each histogram: numpy.bincount of 8-bit values, else
numpy.histogram(values in float64, 64). Relative tolerance 1e-12. Prints what was compared."""
import io
import json
import sys

import h5py
import numpy
from PIL import Image

TOLERANCE = 1e-12


def close(name, got, expected):
    if got is None or expected is None:
        assert got is None and expected is None, (name, got, expected)
        return
    assert abs(got - expected) <= TOLERANCE * max(abs(expected), 1e-300) or got == expected, \
        (name, repr(got), repr(expected))


def selection(f, split, source):
    for row in f.attrs["split"]:
        if row["split"].decode() == split and row["source"].decode() == source:
            if row["indices"]:
                return numpy.asarray(f[row["indices"]][()], dtype=numpy.int64)
            return numpy.arange(row["start"], row["stop"])
    raise AssertionError((split, source))


def summary_check(name, summary, values):
    values = numpy.asarray(values, dtype=numpy.float64).ravel()
    finite = values[numpy.isfinite(values)]
    assert summary["count"] == finite.size, (name, summary["count"], finite.size)
    assert summary["nan"] == int(numpy.isnan(values).sum()), name
    assert summary["infinity"] == int(numpy.isinf(values).sum()), name
    some = finite.size > 0
    close(name + " min", summary["minimum"], finite.min() if some else None)
    close(name + " max", summary["maximum"], finite.max() if some else None)
    close(name + " mean", summary["mean"], finite.mean() if some else None)
    close(name + " std", summary["std"], finite.std() if some else None)


def histograms_check(name, entry, value_sets):
    if "histograms" not in entry:
        return
    assert len(entry["histograms"]) == len(value_sets), (name, len(entry["histograms"]))
    for number, (histogram, values) in enumerate(zip(entry["histograms"], value_sets)):
        values = numpy.asarray(values, dtype=numpy.float64).ravel()
        values = values[numpy.isfinite(values)]
        label = "%s histogram %d" % (name, number)
        if histogram["ranged"]:
            counts, edges = numpy.histogram(values, 64)
            close(label + " low", histogram["low"], edges[0])
            close(label + " high", histogram["high"], edges[-1])
        else:
            bins = len(histogram["counts"])
            counts = numpy.bincount((values - histogram["low"]).astype(numpy.int64),
                                    minlength=bins)
        assert histogram["counts"] == [int(count) for count in counts], label


def channel_values(f, source, data):
    labels = [dimension.label for dimension in f[source].dims]
    if "channel" not in labels:
        return None
    axis = labels.index("channel")
    return numpy.moveaxis(data, axis, 0).reshape(data.shape[axis], -1)


def fixed_check(f, split, entry, name, normalize):
    source = entry["source"]
    data = f[source][numpy.sort(selection(f, split, source))]
    assert entry["examples"] == data.shape[0], name
    if data.dtype.kind == "S":
        return
    summary_check(name, entry["values"], data)
    channels = channel_values(f, source, data)
    histograms_check(name, entry, [data] if channels is None else list(channels))
    if channels is not None:
        assert len(entry["channels"]) == channels.shape[0], name
        for index, values in enumerate(channels):
            summary_check("%s channel %d" % (name, index), entry["channels"][index], values)
        scale = 255.0 if data.dtype == numpy.uint8 else 1.0
        normalize_check(normalize, split, source, channels, scale)
    if "attributes" in entry:
        got = [a["examples"] for a in entry["attributes"]]
        assert got == [int(n) for n in (data != 0).sum(axis=0)], (name, got)
        assert [a["attribute"] for a in entry["attributes"]] == list(range(data.shape[1])), name
    if "classes" in entry:
        classes, counts = numpy.unique(data.ravel(), return_counts=True)
        got = {c["class"]: c["examples"] for c in entry["classes"] if c["examples"] > 0}
        assert got == {int(c): int(n) for c, n in zip(classes, counts)}, (name, got)


def normalize_check(normalize, split, source, channels, scale):
    if not normalize or normalize["split"] != split or normalize["source"] != source:
        return
    for index, values in enumerate(channels):
        values = numpy.asarray(values, dtype=numpy.float64)
        values = values[numpy.isfinite(values)]
        some = values.size > 0
        close("normalize mean", normalize["mean"][index], values.mean() / scale if some else None)
        close("normalize std", normalize["std"][index], values.std() / scale if some else None)


def decoded_check(entry, examples, name, split, normalize):
    pixels = [numpy.asarray(Image.open(io.BytesIO(example.tobytes())).convert("RGB"),
                            dtype=numpy.float64).reshape(-1, 3) for example in examples]
    pixels = numpy.concatenate(pixels) if pixels else numpy.zeros((0, 3))
    summary_check(name + " pixels", entry["values"], pixels)
    for channel in range(3):
        summary_check("%s %s" % (name, "RGB"[channel]), entry["channels"][channel],
                      pixels[:, channel])
    normalize_check(normalize, split, entry["source"], pixels.T, 255.0)
    histograms_check(name, entry, list(pixels.T))


def vlen_channels_check(f, entry, examples, shapes, name, split, normalize):
    source = entry["source"]
    scales = f[source].dims[0]
    labels = [label.decode() if isinstance(label, bytes) else str(label)
              for label in scales["shape_labels"][()]] if "shape_labels" in scales.keys() else []
    if "channel" not in labels:
        assert "channels" not in entry, name
        histograms_check(name, entry, [numpy.concatenate(examples)])
        return
    axis = labels.index("channel")
    channels = [[] for _ in range(len(entry["channels"]))]
    for example, shape in zip(examples, shapes):
        values = numpy.moveaxis(example.reshape(shape), axis, 0)
        for index, plane in enumerate(values):
            channels[index].append(plane.ravel())
    assert len(channels) == max(shape[axis] for shape in shapes), name
    channels = [numpy.concatenate(planes) for planes in channels]
    for index, values in enumerate(channels):
        summary_check("%s channel %d" % (name, index), entry["channels"][index], values)
    scale = 255.0 if examples[0].dtype == numpy.uint8 else 1.0
    normalize_check(normalize, split, source, channels, scale)
    histograms_check(name, entry, channels)


def vlen_check(f, split, entry, name, normalize):
    source = entry["source"]
    rows = selection(f, split, source)
    examples = [f[source][index] for index in rows]
    assert entry["examples"] == len(examples), name
    total = sum(example.nbytes for example in examples)
    assert entry["bytes"] == total, (name, entry["bytes"], total)
    shapes_name = source + "_shapes"
    if shapes_name in f:
        shapes = f[shapes_name][()][rows]
    else:
        shapes = numpy.array([[example.size] for example in examples]).reshape(len(examples), 1)
    for axis, lengths in enumerate(entry["lengths"]):
        if len(examples) == 0:
            assert lengths["median"] is None, name
            continue
        column = shapes[:, axis]
        assert lengths["minimum"] == column.min() and lengths["maximum"] == column.max(), name
        close(name + " median", lengths["median"], float(numpy.median(column)))
    if entry.get("decoded"):
        decoded_check(entry, examples, name, split, normalize)
    elif not entry["jpeg"] and len(examples) > 0:
        summary_check(name, entry["values"], numpy.concatenate(examples))
        vlen_channels_check(f, entry, examples, shapes, name, split, normalize)


def file_check(path, report_path):
    f = h5py.File(path, "r")
    report = json.load(open(report_path))
    compared = []
    for split_entry in report["splits"]:
        split = split_entry["split"]
        for entry in split_entry["sources"]:
            name = "%s/%s" % (split, entry["source"])
            if h5py.check_dtype(vlen=f[entry["source"]].dtype) is not None:
                vlen_check(f, split, entry, name, report.get("normalize"))
            else:
                fixed_check(f, split, entry, name, report.get("normalize"))
            compared.append(name)
    print(" ".join(compared))


def main():
    arguments = sys.argv[1:]
    for index in range(0, len(arguments), 2):
        try:
            file_check(arguments[index], arguments[index + 1])
        except AssertionError:
            print(arguments[index])
            raise


main()
