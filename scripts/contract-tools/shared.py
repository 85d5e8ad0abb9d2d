"""What the provider and the differential share: merging made values, and a request as
openapi-core reads one."""
import urllib.parse

from openapi_core.datatypes import RequestParameters
from werkzeug.datastructures import Headers, ImmutableMultiDict


def merge(left, right):
    """`right` over `left`, objects member by member (the parts of an `allOf`)."""
    if isinstance(left, dict) and isinstance(right, dict):
        out = dict(left)
        for key, inner in right.items():
            out[key] = merge(out.get(key), inner)
        return out
    return right if right is not None else left


class Request:
    """A request as openapi-core reads one (its `Request` protocol)."""

    def __init__(self, host, method, path, query="", headers=None, body=None):
        headers = headers or {}
        self.host_url = host
        self.path = path
        self.full_url_pattern = host + path
        self.method = method.lower()
        self.body = body or None
        self.content_type = (headers.get("Content-Type") or "").lower()
        self.parameters = RequestParameters(
            query=ImmutableMultiDict(urllib.parse.parse_qsl(query, keep_blank_values=True)), header=Headers(list(headers.items())),
            cookie=ImmutableMultiDict())
