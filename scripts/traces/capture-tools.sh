#!/usr/bin/env bash
# Regenerates Tests/Fixtures/traces/{chromium,requests-har}/*.har: backend.py on 127.0.0.1, and
# each brief case sent by a page in the system's Chromium driven by Playwright (its own HAR: a
# full-page export) and by Python's requests with the requests-har recorder.
# Needs: apt-get install chromium; pip install playwright requests-har (no browser download:
# the system Chromium is used). Loopback only. Tests never run this; they read the committed files.
# CASES="..." limits the cases (rate-limit-429 waits 61.5 s per tool).
set -euo pipefail
cd "$(dirname "$0")"
fixtures=../../Tests/Fixtures/traces
mkdir -p "$fixtures/chromium" "$fixtures/requests-har"
port=18767
export NO_PROXY='*' no_proxy='*'
for case in ${CASES:-concurrent-403s expired-token-refresh inactive-user-at-startup redirected-user binary-answers rate-limit-429}; do
  python3 backend.py "$port" & backend=$!
  sleep 1
  python3 browser.py "$port" "$case" "$fixtures/chromium/$case.har"
  kill "$backend"; wait "$backend" 2>/dev/null || true
  python3 backend.py "$port" & backend=$!
  sleep 1
  python3 requests_client.py "$port" "$case" "$fixtures/requests-har/$case.har"
  kill "$backend"; wait "$backend" 2>/dev/null || true
done
ls -l "$fixtures/chromium" "$fixtures/requests-har"
