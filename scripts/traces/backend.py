#!/usr/bin/env python3
"""A tiny stand-in for the backend on 127.0.0.1, answering like ../shared/specs/api-contract.md
for the four brief cases. Only for making trace fixtures: run by capture.sh, never by tests."""
import gzip
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# Secrets the captured traces must not leak once imported; tests list them too.
ACCESS_BLOCKED = "acc-live-9f3Kq7Wz2LmN"
ACCESS_INACTIVE = "acc-live-4Hs8Tq1VxPe0"
ACCESS_OLD = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1LTEwMCIsImV4cCI6MTc3MjQ0MDAwMH0.b2xkLXNpZ25hdHVyZS1aUTk4"
ACCESS_NEW = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1LTEwMCIsImV4cCI6MTc3MjQ0MzYwMH0.bmV3LXNpZ25hdHVyZS1YcDQ0"
REFRESH_OLD = "ref-live-Qm82nVb5Tz"
REFRESH_NEW = "ref-live-Lk30pWd7Ry"

# Canaries that stand only inside answers that are not text (binary-answers): the tests check
# that none survives redact, import or export in any form.
BINARY_ACCESS = "acc-bin-Wq83Lz0Pd5Kx2Ms7Nf4Rt9Vb1Hy6Jc3"  # 39 bytes: a str8 whose length byte is "'"
BINARY_REFRESH = "ref-bin-Tg62Yh5Qk0Zx"
BINARY_SESSION = "ses-bin-Pl47Ow2Ik9Uj6Yh3Tg8Rf5Ed1W"  # 34 bytes: its protobuf length byte is '"'
BINARY_JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1LWJpbiJ9.YmluYXJ5LWp3dC1zaWduYXR1cmUtUTcy"
BINARY_OPAQUE = "opq-bin-Vc58Bn3Mx1Za"


def msgpack_string(text):
    data = text.encode()
    return (bytes([0xA0 | len(data)]) if len(data) < 32 else bytes([0xD9, len(data)])) + data


def msgpack_map(members):
    return bytes([0x80 | len(members)]) + b"".join(msgpack_string(key) + value for key, value in members)


def varint(value):
    out = bytearray()
    while True:
        out.append((value & 0x7F) | (0x80 if value > 0x7F else 0))
        value >>= 7
        if not value:
            return bytes(out)


def proto_field(number, data):
    return varint(number << 3 | 2) + varint(len(data)) + data


BINARY_LOGIN = msgpack_map([
    ("access_token", msgpack_string(BINARY_ACCESS)), ("refresh_token", msgpack_string(BINARY_REFRESH)),
    ("expires_in", bytes([0xCD, 0x0E, 0x10])),
    ("user", msgpack_map([("id", msgpack_string("u-1")), ("name", msgpack_string("Ana"))])),
])
BINARY_FEED = (proto_field(1, "Bom dia".encode())
               + proto_field(2, proto_field(1, b"session_token") + proto_field(2, BINARY_SESSION.encode()))
               + proto_field(3, BINARY_JWT.encode()) + varint(4 << 3) + varint(1))
BINARY_BLOB = bytes([0x07, 0xFF, 0xC1, 0x00]) + b"device_token" + bytes([0x00, 0x12]) + BINARY_OPAQUE.encode() + bytes([0xFE, 0x9C])

lock = threading.Lock()
forgot_calls = {"count": 0}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, body, headers=()):
        data = json.dumps(body).encode()
        self.send_response(status)
        if "gzip" in (self.headers.get("Accept-Encoding") or ""):
            # Clients that ask for it (a browser, requests) get it compressed, as from a real server.
            data = gzip.compress(data)
            self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def body(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            return json.loads(raw or b"{}")
        except ValueError:
            return {}

    def raw(self, status, content_type, data, headers=()):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        auth = self.headers.get("Authorization", "")
        if self.path == "/":  # the page a browser capture starts with
            return self.raw(200, "text/html; charset=utf-8", b"<!doctype html><title>app</title><p>app</p>")
        if self.path == "/favicon.ico":
            return self.raw(200, "image/x-icon", bytes(range(64)))
        if self.path == "/me":  # an old route, moved: the client follows the redirect
            return self.raw(302, "text/plain", b"", headers=[("Location", "/users/me")])
        if self.path == "/binary/login":
            return self.raw(200, "application/x-msgpack", BINARY_LOGIN)
        if self.path == "/binary/feed":
            return self.raw(200, "application/x-protobuf", BINARY_FEED)
        if self.path == "/binary/blob":
            return self.raw(200, "application/octet-stream", BINARY_BLOB)
        if self.path == "/health":
            return self.answer(200, {"status": "ok"})
        if self.path == "/users/me":
            if auth == "Bearer " + ACCESS_INACTIVE:
                return self.answer(200, {"success": True, "data": {"id": "u-812", "name": "Gabriela Rocha",
                                                                   "email": "gabriela.rocha@example.com", "active": False, "is_deleted": False}})
            return self.answer(401, {"success": False, "error_code": "TOKEN_INVALID"})
        if self.path == "/feed":
            if auth == "Bearer " + ACCESS_BLOCKED:
                time.sleep(0.2)  # so the burst's requests are in flight together, as in the field
                return self.answer(403, {"success": False, "error_code": "USER_BLOCKED"})
            if auth == "Bearer " + ACCESS_OLD:
                return self.answer(401, {"success": False, "error_code": "TOKEN_EXPIRED"})
            if auth == "Bearer " + ACCESS_NEW:
                return self.answer(200, {"success": True, "data": {"posts": [{"id": "p-1", "author_id": "u-7", "text": "Bom dia"}]}})
            return self.answer(401, {"success": False, "error_code": "TOKEN_INVALID"})
        self.answer(404, {"success": False, "error_code": "NOT_FOUND"})

    def do_POST(self):
        body = self.body()
        if self.path == "/auth/refresh":
            if body.get("refresh_token") == REFRESH_OLD:
                return self.answer(200, {"success": True, "data": {"access_token": ACCESS_NEW, "refresh_token": REFRESH_NEW, "expires_in": 3600}})
            return self.answer(401, {"success": False, "error_code": "TOKEN_INVALID"})
        if self.path == "/auth/password/forgot":
            with lock:
                forgot_calls["count"] += 1
                first = forgot_calls["count"] == 1
            if first:
                return self.answer(429, {"success": False, "error_code": "RATE_LIMITED", "errors": [
                    {"field": "email", "message": "Demasiadas solicitudes. Inténtalo de nuevo en 61 segundos."}]},
                    headers=[("Retry-After", "61")])
            return self.answer(200, {"success": True, "data": {"message": "Te enviamos un enlace.", "reset_method": "email",
                                                               "reset_link_sent": True, "link_expires_in": 3600}})
        self.answer(404, {"success": False, "error_code": "NOT_FOUND"})


if __name__ == "__main__":
    port = int(sys.argv[1])
    ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()
