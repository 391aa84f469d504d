#!/usr/bin/env bash
# The webhook loop in CI: start QR Sandbox, forward its deliveries to the app under test, play a
# scenario, wait until it has been delivered, check the app accepted every delivery, stop.
#
#   APP_URL=http://127.0.0.1:3000/webhooks docs/examples/ci-webhooks.sh
#
# APP_URL     your app's webhook endpoint (required); the app must be running
# SCENARIO    built-in scenario or scenario file to play (default: visit)
# QR_SANDBOX  how to run qr-sandbox (default: node bin/qr-sandbox.mjs of this checkout)
# Exit status: 0 when every delivery arrived and the app answered each with 2xx; non-zero otherwise.
set -euo pipefail

APP_URL="${APP_URL:?Set APP_URL to the webhook endpoint of your app, e.g. http://127.0.0.1:3000/webhooks}"
SCENARIO="${SCENARIO:-visit}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# Unquoted below on purpose: it may be a command with arguments (and must be: a function would hide the pids).
QR_SANDBOX="${QR_SANDBOX:-node $ROOT/bin/qr-sandbox.mjs}"

DATA_DIR="$(mktemp -d)"
SERVE_PID=""
LISTEN_PID=""
stop() {
  # listen removes its webhook and inbox on SIGTERM (or Ctrl+C; a script's background jobs ignore SIGINT), then the server stops.
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
    if ! kill -0 "$pid" 2>/dev/null; then cat "$file" >&2; return 1; fi
    sleep 0.2
  done
  echo "Timed out waiting for $pattern in $file" >&2
  return 1
}

# 1. A fresh sandbox on a free port; it writes its URL into the data dir, where every command finds it.
$QR_SANDBOX serve --port 0 --data-dir "$DATA_DIR" >"$DATA_DIR/serve.log" 2>&1 &
SERVE_PID=$!
wait_for_line "$DATA_DIR/serve.log" "is running at" "$SERVE_PID"

# 2. A webhook to a local inbox that forwards every delivery to the app, byte for byte.
$QR_SANDBOX listen --forward-to "$APP_URL" --json --data-dir "$DATA_DIR" >"$DATA_DIR/listen.jsonl" &
LISTEN_PID=$!
wait_for_line "$DATA_DIR/listen.jsonl" '"ready":true' "$LISTEN_PID"

# 3. The scenario; each line it prints is one event (jq -r .event_id would list their ids).
$QR_SANDBOX scenario run "$SCENARIO" --json --data-dir "$DATA_DIR" >"$DATA_DIR/events.jsonl"
EVENTS=$(grep -c '"event_id"' "$DATA_DIR/events.jsonl" || true)
echo "Sent $EVENTS events of scenario $SCENARIO."

# 4. Wait until all of them have arrived with a valid signature (exit 1 on timeout, saying what came).
$QR_SANDBOX wait --count "$EVENTS" --signature valid --timeout 60 --data-dir "$DATA_DIR"

# 5. Each delivery was forwarded to the app: every answer must be 2xx.
forwards() { grep -c '"type":"forward"' "$DATA_DIR/listen.jsonl" || true; }
for _ in $(seq 1 300); do
  [ "$(forwards)" -ge "$EVENTS" ] && break
  sleep 0.2
done
if [ "$(forwards)" -lt "$EVENTS" ]; then
  echo "Only $(forwards) of $EVENTS deliveries were forwarded to $APP_URL within 60 s." >&2
  exit 1
fi
if grep '"type":"forward"' "$DATA_DIR/listen.jsonl" | grep -v '"status_code":2[0-9][0-9]'; then
  echo "The app at $APP_URL did not accept every delivery (above: its answers)." >&2
  exit 1
fi
echo "The app accepted all $EVENTS deliveries."
