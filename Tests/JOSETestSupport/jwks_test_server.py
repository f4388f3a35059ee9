#!/usr/bin/env python3
"""A small, real HTTP server for the JWKS tests (Python 3 standard library only).

Started by the Swift tests as a subprocess. It listens on 127.0.0.1 (port 0 unless a port is
given as the first argument), prints the port on the first line of stdout, and serves routes that
the tests configure over the same server:

  POST /_control/route   JSON body, every member but "path" optional:
                           {"path": "/jwks.json", "status": 200, "headers": {"Name": "value"},
                            "body": "text" | "body_size": 5000000, "delay_seconds": 0.0,
                            "etag": "\"v1\"", "omit_content_length": false, "hold": false}
                         When "etag" is set it is sent as the ETag header, and a request whose
                         If-None-Match contains it (or "*") gets 304 with no body.
                         "omit_content_length" sends the body without Content-Length and closes
                         the connection to end it. "delay_seconds" stalls before the status line.
                         "hold" keeps every request for the path waiting (counted, unanswered)
                         until /_control/release names the path (at most 60 s, then 503).
                         "hold_body" sends the head and the first half of the body at once,
                         and the rest only on that release (or after 60 s).
  POST /_control/release JSON body {"path": "/jwks.json"}: answers the held requests for the path
  GET  /_control/count?path=/jwks.json   -> {"count": n} requests seen for that path
  GET  /_control/count                    -> {"count": n} requests seen for every path but /_control
  GET  /_control/last_request?path=/p     -> {"headers": {...lowercased...}, "client_port": n} of the last
                                             request (the port tells connections apart), or 404
  POST /_control/reset   forget all routes, counts and recorded requests

Any other path is a route: its count is incremented (even if no route is configured, in which
case the answer is 404). The server exits when its stdin closes (so it never outlives the test
process) and after a hard lifetime cap (600 s, or the second argument).
"""

import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

LOCK = threading.Lock()
ROUTES = {}
COUNTS = {}
LAST_HEADERS = {}
LAST_CLIENT_PORTS = {}
HOLDS = {}
# A held request is answered when the test releases it; the limit only keeps a test that never
# does from holding a thread for ever. It is far past any timeout a test expects to fire first,
# so that a busy machine, on which a 2-second timeout may fire a minute late, still sees it fire.
HOLD_LIMIT_SECONDS = 600
CHUNK = 64 * 1024


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "jwks-test-server/1"

    def log_message(self, format, *args):  # noqa: A002 - quiet: tests read stdout
        pass

    # --- helpers ---------------------------------------------------------------------------

    def send_json(self, status, value):
        data = json.dumps(value).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length > 0 else b""

    # --- dispatch ----------------------------------------------------------------------------

    def do_GET(self):
        self.dispatch(head=False)

    def do_HEAD(self):
        self.dispatch(head=True)

    def do_POST(self):
        parts = urlsplit(self.path)
        try:
            if parts.path == "/_control/route":
                spec = json.loads(self.read_body() or b"{}")
                path = spec.get("path")
                if not isinstance(path, str) or not path.startswith("/"):
                    self.send_json(400, {"error": "path must be a string starting with /"})
                    return
                with LOCK:
                    ROUTES[path] = spec
                self.send_json(200, {"ok": True})
            elif parts.path == "/_control/release":
                spec = json.loads(self.read_body() or b"{}")
                with LOCK:
                    event = HOLDS.setdefault(spec.get("path"), threading.Event())
                event.set()
                self.send_json(200, {"ok": True})
            elif parts.path == "/_control/reset":
                self.read_body()
                with LOCK:
                    for event in HOLDS.values():
                        event.set()
                    HOLDS.clear()
                    ROUTES.clear()
                    COUNTS.clear()
                    LAST_HEADERS.clear()
                    LAST_CLIENT_PORTS.clear()
                self.send_json(200, {"ok": True})
            else:
                self.read_body()
                self.dispatch(head=False)
        except (ValueError, TypeError) as error:
            self.send_json(400, {"error": str(error)})

    def dispatch(self, head):
        parts = urlsplit(self.path)
        if parts.path == "/_control/count":
            paths = parse_qs(parts.query).get("path")
            with LOCK:
                count = COUNTS.get(paths[0], 0) if paths else sum(COUNTS.values())
            self.send_json(200, {"count": count})
            return
        if parts.path == "/_control/last_request":
            path = parse_qs(parts.query).get("path", [""])[0]
            with LOCK:
                headers = LAST_HEADERS.get(path)
                client_port = LAST_CLIENT_PORTS.get(path)
            if headers is None:
                self.send_json(404, {"error": "no request seen"})
            else:
                self.send_json(200, {"headers": headers, "client_port": client_port})
            return
        with LOCK:
            COUNTS[parts.path] = COUNTS.get(parts.path, 0) + 1
            LAST_HEADERS[parts.path] = {k.lower(): v for k, v in self.headers.items()}
            LAST_CLIENT_PORTS[parts.path] = self.client_address[1]
            spec = ROUTES.get(parts.path)
        if spec is None:
            self.send_json(404, {"error": "no route"})
            return
        self.serve_route(spec, head)

    def serve_route(self, spec, head):
        if spec.get("hold"):
            with LOCK:
                event = HOLDS.setdefault(spec["path"], threading.Event())
            if not event.wait(HOLD_LIMIT_SECONDS):
                self.send_json(503, {"error": "held past the limit"})
                return
        delay = float(spec.get("delay_seconds") or 0)
        if delay > 0:
            time.sleep(delay)
        status = int(spec.get("status", 200))
        headers = dict(spec.get("headers") or {})
        etag = spec.get("etag")
        if etag is not None:
            headers["ETag"] = etag
            match = self.headers.get("If-None-Match")
            if match is not None:
                candidates = [c.strip() for c in match.split(",")]
                if etag in candidates or "*" in candidates:
                    self.send_response(304)
                    for name, value in headers.items():
                        self.send_header(name, value)
                    self.end_headers()
                    return
        if "body_size" in spec:
            size = int(spec["body_size"])
            body = None
        else:
            body = str(spec.get("body", "")).encode("utf-8")
            size = len(body)
        omit_length = bool(spec.get("omit_content_length"))
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, str(value))
        if omit_length:
            self.send_header("Connection", "close")
            self.close_connection = True
        else:
            self.send_header("Content-Length", str(size))
        self.end_headers()
        if head or status in (204, 304):
            return
        if body is not None and spec.get("hold_body"):
            half = len(body) // 2
            self.wfile.write(body[:half])
            self.wfile.flush()
            with LOCK:
                event = HOLDS.setdefault(spec["path"], threading.Event())
            event.wait(HOLD_LIMIT_SECONDS)
            self.wfile.write(body[half:])
            return
        if body is not None:
            self.wfile.write(body)
            return
        remaining = size
        filler = b"x" * CHUNK
        while remaining > 0:
            piece = filler if remaining >= CHUNK else filler[:remaining]
            self.wfile.write(piece)
            remaining -= len(piece)


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request, client_address):
        # Clients cut connections on purpose (timeouts, size limits): stay quiet.
        pass


def exit_when_stdin_closes():
    try:
        while sys.stdin.buffer.read(4096):
            pass
    finally:
        os._exit(0)


def main():
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    lifetime = float(sys.argv[2]) if len(sys.argv) > 2 else 600.0
    server = Server(("127.0.0.1", port), Handler)
    threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
    killer = threading.Timer(lifetime, lambda: os._exit(0))
    killer.daemon = True
    killer.start()
    print(server.server_address[1], flush=True)
    server.serve_forever(poll_interval=0.2)


if __name__ == "__main__":
    main()
