#!/usr/bin/python3
"""Reads `fuel serve` with the real Python Fuel's ServerDataStream and checks every epoch.

usage: FUEL_PYTHON_PATH=FUEL_SOURCE:PICKLABLE_ITERTOOLS_SOURCE \
       /usr/bin/python3 tests/interop/real_fuel_client.py FUEL_BINARY FIXTURES [CIFAR10_HDF5]

Run by hand: Debian does not package Fuel, so make check cannot. FUEL_PYTHON_PATH names the
source trees of Fuel (mila-iqia/fuel) and picklable-itertools, colon-separated. FIXTURES is
tests/data (its expected/*.hdf5 files, written by Fuel); CIFAR10_HDF5, a full-size file
from `fuel convert cifar10`, adds five cases. For each case it starts
`fuel serve FILE --bind tcp://127.0.0.1:PORT --epochs 2 ...`, reads 2 epochs with
`ServerDataStream(sources, produces_examples=False, host='127.0.0.1', port=PORT)`,
and checks against h5py reading the file directly:
  - every example of the split is received exactly once per epoch, with the right values
    (each received example is matched to its index by a digest of its bytes over all sources,
    then compared exactly with the file's row);
  - batch sizes (all full but the last, which holds N % B);
  - dtypes and shapes; with --dtype float32 --scale X, features are float32 and equal
    float32(raw) * float32(X), other sources keep the file's dtype;
  - without --shuffle, the order is the file's order; with --shuffle, the two epochs are
    permutations that differ from each other and from the file's order;
  - the server exits 0 after its 2 epochs.
"""
import collections
import hashlib
import os
import subprocess
import sys
import tempfile
import time

if len(sys.argv) not in (3, 4) or not os.environ.get("FUEL_PYTHON_PATH"):
    print(__doc__.split("\n\n")[1], file=sys.stderr)
    sys.exit(2)
sys.path[:0] = os.environ["FUEL_PYTHON_PATH"].split(":")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "helpers"))

import h5py  # noqa: E402
import numpy  # noqa: E402
import zmq  # noqa: E402
import fuel  # noqa: E402
from fuel.streams import ServerDataStream  # noqa: E402
from fuel_client import free_port  # noqa: E402

FUEL = sys.argv[1]
FIXTURES = os.path.join(sys.argv[2], "expected")
BENCH = sys.argv[3] if len(sys.argv) > 3 else None
SCALE = "0.00390625"
RECEIVE_TIMEOUT_MS = 30000

# (file, split, sources in message order or None for the file's, batch size, extra options)
CASES = [
    (BENCH, "train", None, 128, []),
    (BENCH, "train", None, 128, ["--shuffle"]),
    (BENCH, "train", None, 128, ["--shuffle", "--dtype", "float32", "--scale", SCALE]),
    (BENCH, "test", None, 128, ["--shuffle", "--seed", "7"]),
    (BENCH, "test", None, 1000, ["--dtype", "float32", "--scale", SCALE]),
] * (BENCH is not None) + [
    (FIXTURES + "/cifar10.hdf5", "train", None, 7, []),
    (FIXTURES + "/cifar10.hdf5", "train", None, 7, ["--shuffle"]),
    (FIXTURES + "/cifar10.hdf5", "test", None, 7, ["--shuffle"]),
    (FIXTURES + "/cifar10.hdf5", "train", ("targets", "features"), 8,
     ["--shuffle", "--dtype", "float32", "--scale", SCALE]),
    (FIXTURES + "/mnist.hdf5", "train", None, 5, ["--shuffle"]),
    (FIXTURES + "/svhn_format_2.hdf5", "extra", None, 4,
     ["--shuffle", "--dtype", "float32", "--scale", SCALE]),
    (FIXTURES + "/iris.hdf5", "all", None, 32, ["--shuffle"]),
]


def split_sources(handle, split):
    """{source: (start, stop)} for a split, in the file's source order."""
    rows = [row for row in handle.attrs["split"] if row["split"].decode() == split]
    return {row["source"].decode(): (int(row["start"]), int(row["stop"])) for row in rows}


def digest(parts):
    h = hashlib.blake2b(digest_size=16)
    for part in parts:
        h.update(numpy.ascontiguousarray(part).tobytes())
    return h.digest()


def run_case(path, split, sources, batch_size, options):
    label = "%s --split %s%s --batch-size %d %s" % (
        os.path.basename(path), split,
        " --sources " + ",".join(sources) if sources else "", batch_size, " ".join(options))
    with h5py.File(path, "r") as handle:
        ranges = split_sources(handle, split)
        # default: the split's sources in the file's (HDF5, alphabetical) order
        names = tuple(sources) if sources else tuple(n for n in handle if n in ranges)
        start, stop = ranges[names[0]]
        assert all(ranges[n] == (start, stop) for n in names), ranges
        raw = {n: handle[n][start:stop] for n in names}
    count = stop - start
    converting = "--dtype" in options
    scale = numpy.float32(float(options[options.index("--scale") + 1])) if converting else None

    def expected(name, rows):
        data = raw[name][rows]
        if converting and name == "features":
            data = data.astype(numpy.float32) * scale
        return data

    wants = {name: expected(name, [0]) for name in names}  # each source's dtype and shape
    # digest of every example (over all sources, in message order) -> its indices
    index_of = collections.defaultdict(list)
    for first in range(0, count, 4096):
        rows = numpy.arange(first, min(first + 4096, count))
        blocks = [expected(n, rows) for n in names]
        for i, row in enumerate(rows):
            index_of[digest([b[i] for b in blocks])].append(int(row))

    port = free_port()
    command = [FUEL, "serve", path, "--split", split, "--batch-size", str(batch_size),
               "--bind", "tcp://127.0.0.1:%d" % port, "--epochs", "2"] + options
    if sources:
        command += ["--sources", ",".join(sources)]
    err = tempfile.TemporaryFile()
    server = subprocess.Popen(command, stderr=err)
    deadline = time.time() + 10
    while time.time() < deadline:
        err.seek(0)
        if err.read() or server.poll() is not None:
            break
        time.sleep(0.02)
    err.seek(0)
    server_line = err.read().decode().strip()

    if server.poll() is not None:
        print("FAIL  fuel serve %s\n      server exited %s before serving: %s" % (
            label, server.returncode, server_line))
        return False
    stream = ServerDataStream(names, produces_examples=False, host="127.0.0.1", port=port)
    # Fuel's own connect(); only a receive timeout added so a dead server fails instead of hanging
    stream.connect()
    stream.socket.setsockopt(zmq.RCVTIMEO, RECEIVE_TIMEOUT_MS)
    orders, problems = [], []
    want_sizes = [batch_size] * (count // batch_size) + ([count % batch_size] if count % batch_size else [])
    for epoch in range(2):
        order, sizes, used = [], [], set()
        iterator = stream.get_epoch_iterator()
        while True:
            try:
                batch = next(iterator)
            except StopIteration:
                break
            except zmq.Again:
                problems.append("epoch %d: nothing received for %d s" % (epoch, RECEIVE_TIMEOUT_MS // 1000))
                break
            assert len(batch) == len(names)
            n = len(batch[0])
            sizes.append(n)
            for name, array in zip(names, batch):
                want = wants[name]
                if array.dtype != want.dtype or array.shape[1:] != want.shape[1:] or len(array) != n:
                    problems.append("epoch %d %s: dtype %s shape %s, want %s %s" % (
                        epoch, name, array.dtype, array.shape, want.dtype, want.shape[1:]))
            for i in range(n):
                candidates = index_of.get(digest([array[i] for array in batch]))
                if not candidates:
                    problems.append("epoch %d: an example not in the split" % epoch)
                    continue
                # matched by digest (identical examples: the first not yet used this epoch);
                # then confirmed exactly, value by value
                row = next((c for c in candidates if c not in used), candidates[0])
                used.add(row)
                if not all(numpy.array_equal(array[i], expected(name, [row])[0])
                           for name, array in zip(names, batch)):
                    problems.append("epoch %d: example %d differs" % (epoch, row))
                order.append(row)
        if sorted(order) != list(range(count)):
            problems.append("epoch %d: %d examples received, %d distinct, want each of %d once"
                            % (epoch, len(order), len(set(order)), count))
        if sizes != want_sizes:
            problems.append("epoch %d: batch sizes %s..%s (%d batches), want %s..%s (%d)" % (
                epoch, sizes[:2], sizes[-2:], len(sizes), want_sizes[:2], want_sizes[-2:],
                len(want_sizes)))
        orders.append(order)
    shuffled = "--shuffle" in options
    if not shuffled and any(o != list(range(count)) for o in orders):
        problems.append("unshuffled epoch not in file order")
    if shuffled and count > 2:
        if orders[0] == orders[1]:
            problems.append("the two shuffled epochs are the same order")
        if orders[0] == list(range(count)):
            problems.append("shuffled epoch 0 is in file order")
    try:
        rc = server.wait(timeout=20)
    except subprocess.TimeoutExpired:
        server.kill()
        rc = "timeout"
    if rc != 0:
        problems.append("server exit status %s" % rc)
    dtypes = ", ".join("%s %s" % (n, wants[n].dtype) for n in names)
    status = "PASS" if not problems else "FAIL"
    print("%s  fuel serve %s\n      %d examples x 2 epochs, %d batches/epoch (last %d), %s; "
          "server exit %s\n      server: %s" % (
              status, label, count, len(want_sizes), want_sizes[-1], dtypes, rc, server_line))
    for p in problems[:10]:
        print("      - " + p)
    sys.stdout.flush()
    return not problems


def main():
    print("python %s, numpy %s, h5py %s, real Fuel from %s (fuel %s)" % (
        sys.version.split()[0], numpy.__version__, h5py.__version__,
        os.path.dirname(os.path.dirname(fuel.__file__)), fuel.version.version))
    results = [run_case(*case) for case in CASES]
    print("%d/%d cases passed" % (sum(results), len(results)))
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
