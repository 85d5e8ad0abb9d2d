#!/usr/bin/env bash
# Regenerates Tests/Fixtures/traces/mitmproxy/*.har: mitmdump (pip install mitmproxy) in reverse-proxy
# mode in front of backend.py, both on 127.0.0.1, with client.py sending each brief case.
# Tests never run this; they read the committed files.
set -euo pipefail
cd "$(dirname "$0")"
out=../../Tests/Fixtures/traces/mitmproxy
mkdir -p "$out"
MITMDUMP=${MITMDUMP:-mitmdump}
backend_port=18765
proxy_port=18766
for case in ${CASES:-concurrent-403s rate-limit-429 expired-token-refresh inactive-user-at-startup binary-answers}; do
  python3 backend.py "$backend_port" & backend=$!
  "$MITMDUMP" --quiet --listen-host 127.0.0.1 -p "$proxy_port" --mode "reverse:http://127.0.0.1:$backend_port" \
    --set hardump="$out/$case.har" & proxy=$!
  sleep 3
  python3 client.py "$proxy_port" "$case"
  sleep 0.5
  kill -INT "$proxy"; wait "$proxy" || true
  kill "$backend"; wait "$backend" 2>/dev/null || true
done
ls -l "$out"
