#!/usr/bin/python3
"""bench/serve.sh's Python server doing Fuel's work: one shuffled epoch of a split, each batch
read with h5py at sorted indices (as Fuel's H5PYDataset needs), put back in permutation order,
then sent with Fuel's send_arrays protocol through pyzmq.

usage: serve_python.py FILE BATCH_SIZE ENDPOINT
"""
import sys

import h5py
import numpy
import zmq
from numpy.lib.format import header_data_from_array_1_0


def send_arrays(sock, arrays):
    arrays = [numpy.ascontiguousarray(array) for array in arrays]
    sock.send_json([header_data_from_array_1_0(array) for array in arrays], zmq.SNDMORE)
    for array in arrays[:-1]:
        sock.send(array, zmq.SNDMORE)
    sock.send(arrays[-1])


def main(path, endpoint, batch_size):
    sock = zmq.Context().socket(zmq.PUSH)
    sock.set_hwm(10)
    sock.bind(endpoint)
    with h5py.File(path, "r") as handle:
        split = {row["source"].decode(): (int(row["start"]), int(row["stop"]))
                 for row in handle.attrs["split"] if row["split"] == b"train"}
        start, stop = split["features"]
        order = numpy.random.RandomState(1).permutation(stop - start) + start
        sources = [handle["features"], handle["targets"]]
        print("serve_python: ready", file=sys.stderr, flush=True)
        for first in range(0, len(order), batch_size):
            indices = order[first:first + batch_size]
            ranks = numpy.argsort(indices)
            inverse = numpy.empty_like(ranks)
            inverse[ranks] = numpy.arange(len(ranks))
            sorted_indices = indices[ranks]
            send_arrays(sock, [source[sorted_indices][inverse] for source in sources])
    sock.send_json({"stop": True})
    sock.close(linger=-1)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[3], int(sys.argv[2]))
