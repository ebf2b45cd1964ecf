"""counting_proxy.py PORT_FILE COUNT_FILE BACKEND_PORT: a plain TCP relay on 127.0.0.1 in front of
   the test store that counts what it moves: the bytes relayed from the store to the clients and
   the connections, written as "BYTES CONNECTIONS" into COUNT_FILE (replaced whole) after every
   chunk. Writes its port into PORT_FILE once it listens; runs until killed."""
import os
import socket
import sys
import threading

port_file, count_file, backend = sys.argv[1], sys.argv[2], int(sys.argv[3])
listener = socket.socket()
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind(("127.0.0.1", 0))
listener.listen(16)
lock = threading.Lock()
counts = [0, 0]


def record(received, connections):
    with lock:
        counts[0] += received
        counts[1] += connections
        with open(count_file + ".tmp", "w") as out:
            out.write("%d %d\n" % tuple(counts))
        os.replace(count_file + ".tmp", count_file)


def relay(source, target, counted):
    try:
        while True:
            data = source.recv(65536)
            if not data:
                break
            target.sendall(data)
            if counted:
                record(len(data), 0)
    except OSError:
        pass
    finally:
        for end in (source, target):
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def serve(connection):
    record(0, 1)
    upstream = socket.create_connection(("127.0.0.1", backend))
    threading.Thread(target=relay, args=(upstream, connection, True), daemon=True).start()
    relay(connection, upstream, False)


record(0, 0)
with open(port_file + ".tmp", "w") as out:
    out.write("%d\n" % listener.getsockname()[1])
os.rename(port_file + ".tmp", port_file)
while True:
    accepted, _ = listener.accept()
    threading.Thread(target=serve, args=(accepted,), daemon=True).start()
