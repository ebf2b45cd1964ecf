"""Conditional creates (If-None-Match: *) for the tests' Swift store, in the buckets its
conditional_buckets names: Swift 2.30's s3api answers such a PUT 501 "Conditional object PUTs are
not supported", and a proxy in front of Swift cannot take the header out, because libcurl's
SigV4 signs every header it sends (SignedHeaders=host;if-none-match;x-amz-date). So two filters in
Swift's own pipeline, the request still signed as sent and its signature still checked by s3api:

  hide (before s3api)   takes If-None-Match: * out of the headers s3api validates, leaving it in
                        eventlet's headers_raw, from which s3api computes the signature; holds a
                        lock per object path for the whole request, so check and create are one
                        step (workers = 0: one process);
  create (after auth)   puts If-None-Match: * back on Swift's own PUT of the object, which
                        Swift honours: 412, that s3api answers PreconditionFailed.

In a bucket not listed, nothing changes (the 501). Loaded by paste.filter_factory with this
directory on PYTHONPATH (tests/helpers/s3_store).
"""
import eventlet.semaphore

MARK = "fuel.tests.if_none_match"
LOCKS = {}


class Hide:
    def __init__(self, app, conf):
        self.app = app
        self.buckets = set(conf.get("conditional_buckets", "").split())

    def __call__(self, environ, start_response):
        path = environ.get("PATH_INFO", "")
        if (environ.get("REQUEST_METHOD") != "PUT" or environ.get("HTTP_IF_NONE_MATCH") != "*"
                or path.lstrip("/").split("/", 1)[0] not in self.buckets):
            return self.app(environ, start_response)
        del environ["HTTP_IF_NONE_MATCH"]
        environ[MARK] = True
        with LOCKS.setdefault(path, eventlet.semaphore.Semaphore()):
            return [b"".join(self.app(environ, start_response))]


class Create:
    def __init__(self, app, conf):
        self.app = app

    def __call__(self, environ, start_response):
        parts = environ.get("PATH_INFO", "").split("/", 4)
        if environ.get(MARK) and environ.get("REQUEST_METHOD") == "PUT" and len(parts) == 5:
            environ["HTTP_IF_NONE_MATCH"] = "*"
        return self.app(environ, start_response)


def hide_factory(global_conf, **local_conf):
    return lambda app: Hide(app, local_conf)


def create_factory(global_conf, **local_conf):
    return lambda app: Create(app, local_conf)
