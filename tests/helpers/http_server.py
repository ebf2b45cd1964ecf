#!/usr/bin/python3
"""HTTP server for fuel-download's tests: serves a directory on 127.0.0.1 with byte ranges and
If-Range, injects faults listed per path, and logs each request as one JSON line.

usage: http_server.py ROOT PORT_FILE LOG_FILE [FAULTS_JSON]

FAULTS_JSON maps a URL path to a list of faults consumed one per request, in order; requests
beyond the list are served normally. A fault is an object with one of:
  {"status": 503, "retry_after": "1"}   answer with that status (and Retry-After) and a text body
  {"drop_after": N}                     announce the whole answer, send N bytes, close
  {"stall_after": N, "seconds": S}      send N bytes, pause S seconds, then the rest
  {"body": "TEXT"}                      serve TEXT instead of the file
  {"redirect": "/PATH"}                 answer 302 to /PATH
  {"serve": true}                       serve normally (to place faults later in the list)
"""
import email.utils
import http.server
import json
import os
import re
import sys
import threading
import time
import urllib.parse

ROOT, PORT_FILE, LOG_FILE = sys.argv[1:4]
FAULTS = json.load(open(sys.argv[4])) if len(sys.argv) > 4 else {}
LOCK = threading.Lock()


def next_fault(path):
    with LOCK:
        queue = FAULTS.get(path, [])
        return queue.pop(0) if queue else {}


def log(entry):
    with LOCK, open(LOG_FILE, "a") as stream:
        stream.write(json.dumps(entry) + "\n")


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *arguments):
        pass

    def record(self, status, sent, start=0):
        log({"path": self.path, "status": status, "range": self.headers.get("Range"),
             "if_range": self.headers.get("If-Range"), "start": start, "sent": sent,
             "user_agent": self.headers.get("User-Agent"), "time": time.time()})

    def answer_status(self, status, fault):
        body = ("error %d: not the file\n" % status).encode()
        self.send_response(status)
        if "retry_after" in fault:
            self.send_header("Retry-After", fault["retry_after"])
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        self.record(status, 0)

    def do_GET(self):
        # a proxy request names the whole URL; the file is its path
        self.file_path = urllib.parse.urlsplit(self.path).path
        fault = next_fault(self.file_path)
        if "status" in fault:
            return self.answer_status(fault["status"], fault)
        if "redirect" in fault:
            self.send_response(302)
            self.send_header("Location", fault["redirect"])
            self.send_header("Content-Length", "0")
            self.end_headers()
            return self.record(302, 0)
        path = os.path.join(ROOT, self.file_path.lstrip("/"))
        if not os.path.isfile(path):
            return self.answer_status(404, {})
        data = fault["body"].encode() if "body" in fault else open(path, "rb").read()
        self.serve(data, os.stat(path), fault)

    def range_start(self, etag, modified):
        match = re.fullmatch(r"bytes=(\d+)-", self.headers.get("Range") or "")
        if match is None:
            return None
        validator = self.headers.get("If-Range")
        if validator is not None and validator not in (etag, modified):
            return None
        return int(match.group(1))

    def serve(self, data, status, fault):
        etag = '"%x-%x"' % (status.st_size, int(status.st_mtime))
        modified = email.utils.formatdate(status.st_mtime, usegmt=True)
        start = self.range_start(etag, modified)
        if start is not None and start >= len(data):
            self.send_response(416)
            self.send_header("Content-Range", "bytes */%d" % len(data))
            self.send_header("Content-Length", "0")
            self.end_headers()
            return self.record(416, 0)
        self.send_response(200 if start is None else 206)
        if start is not None:
            self.send_header("Content-Range", "bytes %d-%d/%d" % (start, len(data) - 1, len(data)))
        body = data[start or 0:]
        self.send_header("Content-Length", str(len(body)))
        self.send_header("ETag", etag)
        self.send_header("Last-Modified", modified)
        self.end_headers()
        self.send_body(body, fault, 200 if start is None else 206, start or 0)

    def send_body(self, body, fault, status, start):
        sent = 0
        try:
            if "drop_after" in fault:
                sent = fault["drop_after"]
                self.wfile.write(body[:sent])
                self.wfile.flush()
                self.close_connection = True
                return
            if "stall_after" in fault:
                sent = fault["stall_after"]
                self.wfile.write(body[:sent])
                self.wfile.flush()
                time.sleep(fault["seconds"])
                self.wfile.write(body[sent:])
                sent = len(body)
                return
            self.wfile.write(body)
            sent = len(body)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True
        finally:
            self.record(status, sent, start)


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
with open(PORT_FILE + ".tmp", "w") as stream:
    stream.write(str(server.server_address[1]))
os.rename(PORT_FILE + ".tmp", PORT_FILE)
server.serve_forever()
