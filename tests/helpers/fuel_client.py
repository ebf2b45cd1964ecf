#!/usr/bin/python3
"""A client of `fuel serve` that decodes each message exactly as Python Fuel's recv_arrays does
(fuel/server.py): the JSON header, `{"stop": true}` as StopIteration, numpy.frombuffer per frame.
Also makes H5PYDataset files whose values say which example they are.

Every receive waits at most FUEL_TEST_RECEIVE_SECONDS (default 10) and then raises, so a client
of a server that died or hangs fails its test in seconds instead of blocking it.

usage: fuel_client.py free-port
       fuel_client.py make FILE EXAMPLES [COLUMNS]
           features (N, 2, COLUMNS (3)) uint16 = 7 * index + position (modulo 2 ** 16),
           targets (N, 1) int32 = -index; splits train (the first N - 10), test (the last 10)
           and picked (an index list: 7 examples of train, shuffled)
"""
import json
import os
import socket
import sys

import numpy
import zmq

RECEIVE_SECONDS = float(os.environ.get("FUEL_TEST_RECEIVE_SECONDS", "10"))


class ReceiveTimeout(Exception):
    """No message came within RECEIVE_SECONDS."""


def timeout():
    return ReceiveTimeout("nothing received in %g s: did the server fail?" % RECEIVE_SECONDS)


def recv_arrays(sock):
    """Fuel's recv_arrays: a list of arrays, StopIteration at an epoch's end; ReceiveTimeout when
    a frame does not come within the socket's RCVTIMEO."""
    try:
        return fuel_recv_arrays(sock)
    except zmq.Again:
        raise timeout() from None


def fuel_recv_arrays(sock):
    headers = sock.recv_json()
    if "stop" in headers:
        raise StopIteration
    arrays = []
    for header in headers:
        data = sock.recv(copy=False)
        array = numpy.frombuffer(memoryview(data), dtype=numpy.dtype(header["descr"]))
        array.shape = header["shape"]
        if header["fortran_order"]:
            array.shape = header["shape"][::-1]
            array = array.transpose()
        arrays.append(array)
    assert not sock.getsockopt(zmq.RCVMORE), "more frames than the header describes"
    return arrays


def receive_multipart(sock):
    """sock.recv_multipart, raising ReceiveTimeout when nothing came within its RCVTIMEO."""
    try:
        return sock.recv_multipart()
    except zmq.Again:
        raise timeout() from None


def connect(endpoint, hwm=10, receive_buffer=None):
    """A PULL socket connected to ENDPOINT whose receives time out after RECEIVE_SECONDS; hwm None
    keeps ZeroMQ's default high-water mark."""
    sock = zmq.Context.instance().socket(zmq.PULL)
    if hwm is not None:
        sock.set_hwm(hwm)
    if receive_buffer is not None:
        sock.setsockopt(zmq.RCVBUF, receive_buffer)
    sock.setsockopt(zmq.RCVTIMEO, int(RECEIVE_SECONDS * 1000))
    sock.connect(endpoint)
    return sock


def receive_epoch(sock):
    """The batches of one epoch, each a list of arrays, until the stop message."""
    batches = []
    while True:
        try:
            batches.append(recv_arrays(sock))
        except StopIteration:
            return batches


def receive_epochs(endpoint, epochs, hwm=10):
    sock = connect(endpoint, hwm)
    received = [receive_epoch(sock) for _ in range(epochs)]
    sock.close(linger=0)
    return received


def example_indices(batches):
    """The example indices a file made by `make` sent, in order, checking every value."""
    indices = []
    for features, targets in batches:
        assert features.dtype == numpy.dtype("<u2") and targets.dtype == numpy.dtype("<i4")
        for feature, target in zip(features, targets):
            index = int(-target[0])
            assert (feature == expected_features(index, feature.shape)).all()
            indices.append(index)
    return indices


def expected_features(index, shape):
    positions = numpy.arange(numpy.prod(shape), dtype=numpy.int64).reshape(shape)
    return ((7 * index + positions) % 65536).astype("<u2")


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def make(path, examples, columns):
    import h5py
    with h5py.File(path, "w") as handle:
        handle["features"] = numpy.stack([expected_features(index, (2, columns))
                                          for index in range(examples)])
        handle["targets"] = -numpy.arange(examples, dtype="<i4").reshape(-1, 1)
        picked = handle.create_dataset("picked_indices", data=numpy.array([5, 1, 9, 2, 3, 0, 8]))
        row = numpy.dtype([("split", "S6"), ("source", "S8"), ("start", "<i8"),
                           ("stop", "<i8"), ("indices", h5py.ref_dtype), ("available", "?"),
                           ("comment", "S1")])
        rows = []
        for source in (b"features", b"targets"):
            rows.append((b"train", source, 0, examples - 10, h5py.Reference(), True, b"."))
            rows.append((b"test", source, examples - 10, examples, h5py.Reference(), True, b"."))
            rows.append((b"picked", source, 0, 0, picked.ref, True, b"."))
        handle.attrs["split"] = numpy.array(rows, dtype=row)
        handle.attrs["h5py_interface_version"] = "0.3"


if __name__ == "__main__":
    if sys.argv[1] == "free-port":
        print(free_port())
    elif sys.argv[1] == "make":
        make(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]) if len(sys.argv) > 4 else 3)
    else:
        sys.exit(__doc__)
