#!/usr/bin/env python3
"""A provider of the session backend, written from Scenarios/openapi.yaml (never from a pact).

Serves the document's operations on 127.0.0.1 for `pact verifier`:

- a request is checked against the document by openapi-core (path, method, parameters, the
  request body's media type and schema, the security requirement); one it refuses is answered
  400 (or 401 for missing credentials), as a real backend would;
- credentials must be ones the state handler issued: `Authorization: Bearer <accessToken>`, and
  every body member the state's `values` name (a refresh token, a password); one not issued, or
  one the state lists as `spent`, is answered 401;
- the answer's status is the one the provider state sets the backend up for (`params.status`),
  its media type the state's `mediaType` when the document lists it for that status (a gateway's
  page under `*/*`), and its headers and body are made from the document's schemas: every
  property of the schema with a value of its type (`const`, the first `enum` value, a `minimum`),
  `Retry-After` as delta-seconds.

POST /_pact/state takes the verifier's state change ({"state", "params", "action"}) and answers
the values the interaction's generators name (`params.values`), fresh for each interaction.

    provider.py DOCUMENT --port N [--seconds S]    stops by itself after S seconds (default 600)
"""
import argparse, http.server, json, re, secrets, sys, threading, urllib.parse

import yaml
from openapi_core import OpenAPI

from shared import Request, merge


class Backend:
    def __init__(self, document):
        self.document = document
        self.openapi = OpenAPI.from_dict(document)
        self.lock = threading.Lock()
        self.state = {}
        self.issued = {}  # value -> name
        self.spent = set()

    # The state handler.

    def change_state(self, change):
        params = change.get("params") or {}
        with self.lock:
            if change.get("action") == "teardown":
                self.state, self.issued, self.spent = {}, {}, set()
                return {}
            self.state = params
            self.issued, self.spent = {}, set()
            values = {}
            for name in params.get("values") or []:
                value = f"{name}-{secrets.token_hex(6)}"
                values[name] = value
                self.issued[value] = name
                if name in (params.get("spent") or []):
                    self.spent.add(value)
            return values

    # Requests.

    def operation(self, method, path):
        for template, item in (self.document.get("paths") or {}).items():
            pattern = "^" + re.sub(r"\\\{[^/]+?\\\}", "[^/]+", re.escape(template)) + "$"
            if re.match(pattern, path):
                return template, item.get(method.lower())
        return None, None

    def answer(self, method, raw_path, headers, body):
        parsed = urllib.parse.urlsplit(raw_path)
        template, operation = self.operation(method, parsed.path)
        if template is None:
            return 404, {"Content-Type": "application/json"}, error("NOT_FOUND")
        if operation is None:
            return 405, {}, b""
        request = Request("https://api.example.com", method, parsed.path, parsed.query, headers, body)
        try:
            self.openapi.validate_request(request)
        except Exception as refusal:  # openapi-core's errors say what the document refused
            missing_credentials = "security" in type(refusal).__name__.lower() or "Security" in str(refusal)
            return (401 if missing_credentials else 400), {"Content-Type": "application/json"}, error(
                "VALIDATION_FAILED", str(refusal)[:300])
        with self.lock:
            state, issued, spent = dict(self.state), dict(self.issued), set(self.spent)
        if not self.credentials_hold(operation, headers, body, issued, spent, state):
            return 401, {"Content-Type": "application/json"}, error("TOKEN_INVALID")
        return self.documented_answer(operation, state)

    def credentials_hold(self, operation, headers, body, issued, spent, state):
        security = operation.get("security", self.document.get("security"))
        if security and any(requirement for requirement in security):
            authorization = headers.get("Authorization") or ""
            token = authorization[len("Bearer "):] if authorization.startswith("Bearer ") else None
            if token not in issued or token in spent:
                return False
        names = set(state.get("values") or []) - {"accessToken"}
        sent = json_members(body) if body else {}
        for key, value in sent.items():
            if camel(key) in names and (value not in issued or value in spent):
                return False
        return True

    def documented_answer(self, operation, state):
        status = int(state.get("status") or 200)
        responses = operation.get("responses") or {}
        entry = responses.get(str(status)) or responses.get(f"{str(status)[0]}XX") or responses.get("default")
        if entry is None:
            return 500, {}, b"the document lists no answer for this state"
        entry = self.resolve(entry)
        headers = {}
        for name, header in (entry.get("headers") or {}).items():
            header = self.resolve(header)
            headers[name] = str(example(self, header.get("schema") or {}, prefer="integer"))
        content = entry.get("content") or {}
        if not content:
            return status, headers, b""
        if "mediaType" in state and state["mediaType"] is None and "*/*" in content:
            # A body that says no media type: what `*/*` lets a gateway answer.
            kind = state.get("bodyKind")
            if kind == "html":
                return status, headers, b"<html><body>Service Unavailable</body></html>"
            return status, headers, b'{"status": "unavailable"}' if kind == "json" else b"Service Unavailable"
        wanted = state.get("mediaType") or "application/json"
        media = content.get(wanted) or content.get(wanted.split("/")[0] + "/*") or content.get("*/*") or next(iter(content.values()))
        chosen = wanted if wanted in content or "*/*" in content or wanted.split("/")[0] + "/*" in content else next(iter(content))
        schema = (media or {}).get("schema")
        if schema is None:
            headers["Content-Type"] = chosen if chosen != "*/*" else "text/plain"
            return status, headers, b"<p>The backend is busy.</p>" if "html" in chosen else b"busy"
        headers["Content-Type"] = chosen
        return status, headers, json.dumps(example(self, schema)).encode()

    def resolve(self, node):
        while isinstance(node, dict) and "$ref" in node:
            target = self.document
            for part in node["$ref"].lstrip("#/").split("/"):
                target = target[part.replace("~1", "/").replace("~0", "~")]
            node = target
        return node


def example(backend, schema, prefer=None, depth=0):
    """A value of `schema`: every property, each of its type."""
    schema = backend.resolve(schema)
    if depth > 20 or not isinstance(schema, dict):
        return None
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return schema["enum"][0]
    if "allOf" in schema:
        merged = {}
        for part in schema["allOf"]:
            value = example(backend, part, prefer, depth + 1)
            if isinstance(value, dict):
                for key, inner in value.items():
                    merged[key] = merge(merged.get(key), inner)
        own = {key: value for key, value in schema.items() if key != "allOf"}
        if own.get("properties") or own.get("type"):
            value = example(backend, own, prefer, depth + 1)
            if isinstance(value, dict):
                for key, inner in value.items():
                    merged[key] = merge(merged.get(key), inner)
        return merged
    for key in ("oneOf", "anyOf"):
        if key in schema:
            branches = schema[key]
            chosen = next((b for b in branches if backend.resolve(b).get("type") == prefer), branches[0])
            return example(backend, chosen, prefer, depth + 1)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind == "object" or "properties" in schema:
        return {name: example(backend, inner, None, depth + 1) for name, inner in (schema.get("properties") or {}).items()}
    if kind == "array":
        return [example(backend, schema.get("items") or {}, None, depth + 1)]
    if kind == "integer":
        return int(schema.get("minimum", 0)) + 60
    if kind == "number":
        return float(schema.get("minimum", 0)) + 1.5
    if kind == "boolean":
        return True
    if kind == "string":
        if schema.get("format") == "date-time":
            return "2026-10-21T07:28:00Z"
        if "pattern" in schema and "[A-Z]{2}" in schema["pattern"]:
            return "US"
        return "from-the-document"
    return {}


def camel(name):
    words = [w for w in re.split(r"[^A-Za-z0-9]+", name) if w]
    return (words[0][:1].lower() + words[0][1:] + "".join(w[:1].upper() + w[1:] for w in words[1:])) if words else ""


def json_members(body):
    try:
        value = json.loads(body)
    except ValueError:
        return {}
    found = {}

    def walk(node):
        if isinstance(node, dict):
            for key, inner in node.items():
                if isinstance(inner, str):
                    found[key] = inner
                walk(inner)
        elif isinstance(node, list):
            for inner in node:
                walk(inner)

    walk(value)
    return found


def error(code, message=None):
    body = {"success": False, "error_code": code}
    if message:
        body["errors"] = [{"field": "request", "message": message}]
    return json.dumps(body).encode()


def serve(backend, port, seconds):
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def handle_any(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            if self.path == "/_pact/state":
                status, headers, out = 200, {"Content-Type": "application/json"}, json.dumps(
                    backend.change_state(json.loads(body or b"{}"))).encode()
            else:
                status, headers, out = backend.answer(self.command, self.path, self.headers, body)
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(out)))
            self.end_headers()
            self.wfile.write(out)

        do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = handle_any

        def log_message(self, *arguments):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
    # Bounded: it stops by itself, whatever happens to the script that started it.
    threading.Timer(seconds, server.shutdown).start()
    server.serve_forever()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("document")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--seconds", type=float, default=600)
    arguments = parser.parse_args()
    with open(arguments.document, encoding="utf-8") as handle:
        document = yaml.safe_load(handle)
    serve(Backend(document), arguments.port, arguments.seconds)


if __name__ == "__main__":
    sys.exit(main())
