#!/usr/bin/env bash
# The touch prediction's error on the bundled real recordings (docs/performance.md, "Touch
# prediction"): `touchctl replay --prediction-error` over every touchscreen recording of
# ../shared/recordings (the evemu files beside the repository; touchpads are not touchscreens and
# are left out). Prints one JSON line per recording, then one over all of them ("recording":null),
# each with the mean and p95 distance (points of a 1920x1080 window) between the predicted and the
# later actual position at 8 and 16 ms, beside not predicting.
#
#   scripts/prediction-error.sh [RECORDINGS_DIR]
#
# Uses the debug build of `swift build` (built here if touchctl is missing).
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${1:-../shared/recordings}"
touchctl=".build/debug/touchctl"
[ -x "$touchctl" ] || swift build --product touchctl
shopt -s nullglob
recordings=("$dir"/*.evemu)
if [ ${#recordings[@]} -eq 0 ]; then
  echo "prediction-error: no .evemu recordings in $dir" >&2
  exit 1
fi
exec "$touchctl" replay --prediction-error "${recordings[@]}"
