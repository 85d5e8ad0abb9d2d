#!/usr/bin/env python3
"""Sends one brief case with Python's requests and saves the HAR its recorder (requests-har) writes:
`time` in seconds, `startedDateTime` when the response came, gzip answers. Only for making trace
fixtures: run by capture-tools.sh, never by tests.

    requests_client.py PORT CASE OUT.har
"""
import sys
import threading
import time

from requests_har import Session

from backend import ACCESS_BLOCKED, ACCESS_INACTIVE, ACCESS_OLD, REFRESH_OLD

base = "http://127.0.0.1:%s" % sys.argv[1]
case, out = sys.argv[2], sys.argv[3]
session = Session()
session.trust_env = False  # loopback only, never a proxy from the environment


def send(method, path, token=None, body=None):
    headers = {"Accept": "application/json"}
    if token:
        headers["Authorization"] = "Bearer " + token
    response = session.request(method, base + path, headers=headers, json=body, timeout=10)
    return response.status_code, (response.json() if response.content else {})


if case == "concurrent-403s":
    threads = [threading.Thread(target=send, args=("GET", "/feed", ACCESS_BLOCKED)) for _ in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
elif case == "rate-limit-429":
    send("POST", "/auth/password/forgot", body={"email": "ana.lima@example.com"})
    time.sleep(61.5)
    send("POST", "/auth/password/forgot", body={"email": "ana.lima@example.com"})
elif case == "expired-token-refresh":
    status, _ = send("GET", "/feed", ACCESS_OLD)
    assert status == 401
    status, answer = send("POST", "/auth/refresh", body={"refresh_token": REFRESH_OLD})
    send("GET", "/feed", answer["data"]["access_token"])
elif case == "binary-answers":
    for path in ["/binary/login", "/binary/feed", "/binary/blob"]:
        session.get(base + path, headers={"Accept": "*/*"}, timeout=10)
elif case == "inactive-user-at-startup":
    send("GET", "/health")
    send("GET", "/users/me", ACCESS_INACTIVE)
elif case == "redirected-user":
    send("GET", "/health")
    send("GET", "/me", ACCESS_INACTIVE)  # 302 to /users/me, followed by requests
else:
    sys.exit("unknown case " + case)
session.har_dict.save(out)
