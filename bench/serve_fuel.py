#!/usr/bin/python3
"""A real Python Fuel server for bench/serve.sh: one shuffled epoch of the train split, served the
way Fuel's documentation ("Parallelizing data processing") tells users to, through Fuel's own code.

The data stream is DataStream(H5PYDataset(FILE, which_sets=('train',), load_in_memory=False),
iteration_scheme=ShuffledScheme(examples, BATCH_SIZE, rng=numpy.random.RandomState(1))); each batch
goes out with fuel.server.send_arrays on a PUSH socket with high-water mark 10. Fuel's
start_server serves forever (and binds tcp://*:PORT), so this loop mirrors it for exactly one
epoch: the batches, then the stop message, then exit once delivered.

Fuel is not part of this project: it is imported from the source trees in FUEL_PYTHON_PATH
(colon-separated, prepended to sys.path), e.g.
    FUEL_PYTHON_PATH=/work/realfuel/fuel:/work/realfuel/picklable-itertools

usage: serve_fuel.py FILE BATCH_SIZE ENDPOINT
"""
import collections
import collections.abc
import os
import sys

sys.path[:0] = [path for path in os.environ.get("FUEL_PYTHON_PATH", "").split(":") if path]

# Fuel's schemes.py does `from collections import Iterable`, removed in Python 3.10.
if not hasattr(collections, "Iterable"):
    collections.Iterable = collections.abc.Iterable

import numpy  # noqa: E402
import zmq  # noqa: E402
from fuel.datasets.hdf5 import H5PYDataset  # noqa: E402
from fuel.schemes import ShuffledScheme  # noqa: E402
from fuel.server import send_arrays  # noqa: E402
from fuel.streams import DataStream  # noqa: E402


def main(path, batch_size, endpoint):
    dataset = H5PYDataset(path, which_sets=("train",), load_in_memory=False)
    data_stream = DataStream(dataset, iteration_scheme=ShuffledScheme(
        dataset.num_examples, batch_size, rng=numpy.random.RandomState(1)))

    # As fuel.server.start_server(data_stream, hwm=10), bound to ENDPOINT.
    context = zmq.Context()
    socket = context.socket(zmq.PUSH)
    socket.set_hwm(10)
    socket.bind(endpoint)
    it = data_stream.get_epoch_iterator()
    print("serve_fuel: ready", file=sys.stderr, flush=True)
    for data in it:
        send_arrays(socket, data)
    send_arrays(socket, None, stop=True)
    socket.close(linger=-1)
    context.term()


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit("usage: serve_fuel.py FILE BATCH_SIZE ENDPOINT")
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3])
