#!/usr/bin/env bash
# The webhook loop in CI: start QR Sandbox, deliver its webhooks to the app under test (the app's
# answer is each delivery's answer), play a scenario, check the app accepted every delivery, stop.
#
#   QR_SANDBOX_WEBHOOK_SECRET=ci-secret-0123456789 APP_URL=http://127.0.0.1:3000/webhooks docs/examples/ci-webhooks.sh
#
# APP_URL                    your app's webhook endpoint (required); the app must be running
# QR_SANDBOX_WEBHOOK_SECRET  the webhook secret your app verifies signatures with: give the app and this
#                            script the same value (8 to 512 printable characters). Unset, each run signs
#                            with a new secret (in listen.jsonl), which only an app that does not verify accepts
# SCENARIO                   built-in scenario or scenario file to play (default: visit)
# QR_SANDBOX                 how to run qr-sandbox (default: node bin/qr-sandbox.mjs of this checkout; any
#                            Node works, it runs itself with the Node 22 that npm ci installed)
# Exit status: 0 when the app answered every delivery with 2xx at the first attempt; 1 when it did not
# (the failed attempts are printed); 2 when the sandbox could not be started.
set -euo pipefail

APP_URL="${APP_URL:?Set APP_URL to the webhook endpoint of your app, e.g. http://127.0.0.1:3000/webhooks}"
SCENARIO="${SCENARIO:-visit}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# Unquoted below on purpose: it may be a command with arguments (and must be: a function would hide the pids).
QR_SANDBOX="${QR_SANDBOX:-node $ROOT/bin/qr-sandbox.mjs}"
# listen signs with $QR_SANDBOX_WEBHOOK_SECRET when it is set.
export QR_SANDBOX_WEBHOOK_SECRET="${QR_SANDBOX_WEBHOOK_SECRET:-}"

DATA_DIR="$(mktemp -d)"
SERVE_PID=""
LISTEN_PID=""
stop() {
  # listen pauses its webhook on SIGTERM (or Ctrl+C; a script's background jobs ignore SIGINT), then the server stops.
  if [ -n "$LISTEN_PID" ]; then kill -TERM "$LISTEN_PID" 2>/dev/null || true; wait "$LISTEN_PID" 2>/dev/null || true; fi
  if [ -n "$SERVE_PID" ]; then kill -TERM "$SERVE_PID" 2>/dev/null || true; wait "$SERVE_PID" 2>/dev/null || true; fi
  rm -rf "$DATA_DIR"
}
trap stop EXIT

# Waits (up to 60 s) until FILE contains PATTERN; fails early when process PID has ended.
wait_for_line() {
  local file="$1" pattern="$2" pid="$3"
  for _ in $(seq 1 300); do
    if grep -q "$pattern" "$file" 2>/dev/null; then return 0; fi
    if ! kill -0 "$pid" 2>/dev/null; then cat "$file" >&2; exit 2; fi
    sleep 0.2
  done
  echo "Timed out waiting for $pattern in $file" >&2
  exit 2
}

# 1. A fresh sandbox on a free port; it writes its URL into the data dir, where every command finds it.
$QR_SANDBOX serve --port 0 --data-dir "$DATA_DIR" >"$DATA_DIR/serve.log" 2>&1 &
SERVE_PID=$!
wait_for_line "$DATA_DIR/serve.log" "is running at" "$SERVE_PID"

# 2. A webhook to a local inbox that forwards every delivery to the app, byte for byte, and answers
#    with the app's answer; one JSON line per attempt in listen.jsonl.
$QR_SANDBOX listen --forward-to "$APP_URL" --json --data-dir "$DATA_DIR" >"$DATA_DIR/listen.jsonl" &
LISTEN_PID=$!
wait_for_line "$DATA_DIR/listen.jsonl" '"ready":true' "$LISTEN_PID"

# 3. The scenario; each line it prints is one event (jq -r .event_id would list their ids).
$QR_SANDBOX scenario run "$SCENARIO" --json --data-dir "$DATA_DIR" >"$DATA_DIR/events.jsonl"
EVENTS=$(grep -c '"event_id"' "$DATA_DIR/events.jsonl" || true)
echo "Sent $EVENTS events of scenario $SCENARIO."

# 4. Every attempt must be delivered (the app answered 2xx); the first that is not fails the job.
attempts() { grep '"type":"attempt"' "$DATA_DIR/listen.jsonl" || true; }
for _ in $(seq 1 300); do
  if attempts | grep -qv '"delivery_status":"delivered"'; then
    attempts | grep -v '"delivery_status":"delivered"' | jq -c '{event_id, attempt, status_code, error, app: .app.response_excerpt}' >&2 ||
      attempts | grep -v '"delivery_status":"delivered"' >&2
    echo "The app at $APP_URL did not accept every delivery (above: the attempts it refused)." >&2
    exit 1
  fi
  [ "$(attempts | grep -c .)" -ge "$EVENTS" ] && break
  sleep 0.2
done
DELIVERED=$(attempts | grep -c . || true)
if [ "$DELIVERED" -lt "$EVENTS" ]; then
  echo "Only $DELIVERED of $EVENTS deliveries reached $APP_URL within 60 s." >&2
  exit 1
fi
echo "The app accepted all $EVENTS deliveries."
