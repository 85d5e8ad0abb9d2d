#!/usr/bin/env python3
"""Sends one brief case through the proxy at 127.0.0.1:PORT the way SessionKit would.
Only for making trace fixtures: run by capture.sh."""
import json
import sys
import threading
import time
import urllib.error
import urllib.request

from backend import ACCESS_BLOCKED, ACCESS_INACTIVE, ACCESS_NEW, ACCESS_OLD, REFRESH_OLD

base = "http://127.0.0.1:%s" % sys.argv[1]
case = sys.argv[2]


def send(method, path, token=None, body=None):
    headers = {"Accept": "application/json"}
    data = None
    if token:
        headers["Authorization"] = "Bearer " + token
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


if case == "concurrent-403s":
    threads = [threading.Thread(target=send, args=("GET", "/feed", ACCESS_BLOCKED)) for _ in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
elif case == "rate-limit-429":
    send("POST", "/auth/password/forgot", body={"email": "ana.lima@example.com"})
    time.sleep(61.5)  # the Retry-After the server asked for (past the app's own 60 s reset cooldown)
    send("POST", "/auth/password/forgot", body={"email": "ana.lima@example.com"})
elif case == "expired-token-refresh":
    status, _ = send("GET", "/feed", ACCESS_OLD)
    assert status == 401
    status, answer = send("POST", "/auth/refresh", body={"refresh_token": REFRESH_OLD})
    assert answer["data"]["access_token"] == ACCESS_NEW
    send("GET", "/feed", answer["data"]["access_token"])
elif case == "binary-answers":
    for path in ["/binary/login", "/binary/feed", "/binary/blob"]:
        request = urllib.request.Request(base + path, headers={"Accept": "*/*"})
        with urllib.request.urlopen(request, timeout=10) as response:
            response.read()
elif case == "inactive-user-at-startup":
    send("GET", "/health")
    send("GET", "/users/me", ACCESS_INACTIVE)
else:
    sys.exit("unknown case " + case)
