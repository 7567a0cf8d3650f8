#!/usr/bin/env bash
# The README's demo: builds touchd, starts the real daemon replaying a bundled recording against
# the bundled kiosk scene (a tap, a double tap, a signature stroke, a language tap and the hidden
# five-finger admin gesture), and prints what a kiosk app subscribed to its socket receives.
#   scripts/demo.sh [RECORDING [SCENE]]
set -euo pipefail
cd "$(dirname "$0")/.."

recording=${1:-config/recordings/kiosk-demo.evemu}
scene=${2:-config/kiosk.yaml}

scripts/setup.sh
swift build --product touchd
swift build --product touchctl
bin=$(swift build --show-bin-path)

daemon=""
work=$(mktemp -d /tmp/touchd-demo.XXXXXX)
trap '[[ -n "$daemon" ]] && kill "$daemon" 2>/dev/null || true; rm -rf "$work"' EXIT
socket="$work/touchd.sock"
"$bin/touchctl" check "$scene"

echo "demo: the recording's first frames (touchctl replay: touches with stable ids, normalized 0..1):"
"$bin/touchctl" replay "$recording" > "$work/frames.jsonl"
head -4 "$work/frames.jsonl"
echo "demo: the same recording through the scene on virtual time (touchctl replay --scene), actions only:"
"$bin/touchctl" replay --scene "$scene" "$recording" > "$work/messages.jsonl"
grep '"type":"action"' "$work/messages.jsonl" | cut -c1-110
echo "demo: starting touchd on $socket, replaying $recording"
# The replay waits for the subscription below, so the client misses none of it.
"$bin/touchd" --scene "$scene" --socket "$socket" --replay "$recording" --wait-for-subscriber \
  --exit-after-replay 2> "$work/touchd.log" &
daemon=$!
for _ in $(seq 100); do [[ -S "$socket" ]] && break; sleep 0.05; done

echo "demo: a client subscribed to actions receives:"
"$bin/touchctl" subscribe --socket "$socket" --type action --verbose
wait "$daemon"
echo "demo: touchd's log:"
sed 's/^/  /' "$work/touchd.log"
