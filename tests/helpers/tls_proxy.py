"""tls_proxy.py CERTIFICATE KEY PORT_FILE BACKEND_PORT: an https endpoint on 127.0.0.1 in front of
   the test store: TLS (the self-signed CERTIFICATE) ended here, the bytes relayed both ways to
   127.0.0.1:BACKEND_PORT unchanged (the Host header too, so signatures still check). Writes its
   port into PORT_FILE once it listens; runs until killed."""
import os
import socket
import ssl
import sys
import threading

certificate, key, port_file, backend = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(certificate, key)
listener = socket.socket()
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind(("127.0.0.1", 0))
listener.listen(16)
with open(port_file + ".tmp", "w") as out:
    out.write("%d\n" % listener.getsockname()[1])
os.rename(port_file + ".tmp", port_file)


def relay(source, target):
    try:
        while True:
            data = source.recv(65536)
            if not data:
                break
            target.sendall(data)
    except OSError:
        pass
    finally:
        for end in (source, target):
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def serve(connection):
    try:
        secured = context.wrap_socket(connection, server_side=True)
    except (ssl.SSLError, OSError):
        connection.close()
        return
    upstream = socket.create_connection(("127.0.0.1", backend))
    threading.Thread(target=relay, args=(upstream, secured), daemon=True).start()
    relay(secured, upstream)


while True:
    accepted, _ = listener.accept()
    threading.Thread(target=serve, args=(accepted,), daemon=True).start()
