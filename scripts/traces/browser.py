#!/usr/bin/env python3
"""Sends one brief case from a page in Chromium (the system's, driven by Playwright) and saves the
browser's own HAR: a full-page export, with the page, its favicon, compressed answers and a
followed redirect. Only for making trace fixtures: run by capture-tools.sh, never by tests.

    browser.py PORT CASE OUT.har
"""
import sys

from playwright.sync_api import sync_playwright

from backend import ACCESS_BLOCKED, ACCESS_INACTIVE, ACCESS_OLD, REFRESH_OLD

base = "http://127.0.0.1:%s" % sys.argv[1]
case, out = sys.argv[2], sys.argv[3]
chromium = "/usr/bin/chromium"

SEND = """async ([method, path, token, body]) => {
  const headers = {Accept: "application/json"};
  if (token) headers.Authorization = "Bearer " + token;
  if (body) headers["Content-Type"] = "application/json";
  const response = await fetch(path, {method, headers, body: body ? JSON.stringify(body) : undefined});
  return [response.status, await response.json().catch(() => ({}))];
}"""

with sync_playwright() as playwright:
    browser = playwright.chromium.launch(executable_path=chromium, args=["--no-proxy-server"])
    context = browser.new_context(record_har_path=out, record_har_content="embed")
    page = context.new_page()
    page.goto(base + "/")
    page.wait_for_timeout(300)  # the favicon
    send = lambda *call: page.evaluate(SEND, list(call))
    if case == "concurrent-403s":
        page.evaluate("""async (token) => Promise.all(Array.from({length: 10}, () =>
            fetch("/feed", {headers: {Accept: "application/json", Authorization: "Bearer " + token}})))""", ACCESS_BLOCKED)
    elif case == "rate-limit-429":
        send("POST", "/auth/password/forgot", None, {"email": "ana.lima@example.com"})
        page.wait_for_timeout(61_500)  # the Retry-After the server asked for
        send("POST", "/auth/password/forgot", None, {"email": "ana.lima@example.com"})
    elif case == "expired-token-refresh":
        status, _ = send("GET", "/feed", ACCESS_OLD, None)
        assert status == 401
        status, answer = send("POST", "/auth/refresh", None, {"refresh_token": REFRESH_OLD})
        send("GET", "/feed", answer["data"]["access_token"], None)
    elif case == "binary-answers":
        page.evaluate("""async () => { for (const path of ["/binary/login", "/binary/feed", "/binary/blob"])
            await (await fetch(path, {headers: {Accept: "*/*"}})).arrayBuffer(); }""")
    elif case == "inactive-user-at-startup":
        send("GET", "/health", None, None)
        send("GET", "/users/me", ACCESS_INACTIVE, None)
    elif case == "redirected-user":
        send("GET", "/health", None, None)
        send("GET", "/me", ACCESS_INACTIVE, None)  # 302 to /users/me, followed by the browser
    else:
        sys.exit("unknown case " + case)
    context.close()
    browser.close()
