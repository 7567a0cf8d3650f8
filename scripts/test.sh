#!/usr/bin/env bash
# The test command of the README and of CI:
#   1. installs the build dependencies when missing (scripts/setup.sh),
#   2. builds and runs every unit and integration test (swift test), then the Python client's
#      tests against the daemon just built (pytest clients/python/tests), then the JavaScript
#      client's tests against it over its WebSocket endpoint and the web kiosk example in headless
#      Chromium (node --test, on Node 18 with the ws package or Node 20.10+; each part skips,
#      saying why, without a node that has a WebSocket or without Chromium), and
#      tsc on the client's TypeScript declarations (when tsc is there),
#   3. checks formatting (swift format lint --strict),
#   4. runs every fuzz target for 20 s (scripts/fuzz.sh --time 20: any crash, hang or memory
#      blow-up fails it),
#   5. runs the real-kernel VM suite (scripts/vm-test.sh; it says why when it skips: it needs root
#      or its packages installed, and qemu); before its systemd boot it builds the Debian package
#      (scripts/package-deb.sh) and runs lintian on it (check deb-package-lintian),
#   6. runs the benchmarks in smoke mode (scripts/bench.sh --smoke: they must build and run; no
#      timing can fail it).
#   scripts/test.sh [--quick]    --quick stops after step 3
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh
swift build --build-tests
# The async client's daemon tests run on their own after the others, whose blocking tests would
# starve them of the cooperative thread pool (Tests/TouchdClientTests/ClientDaemonTests.swift).
TOUCHD_CLIENT_DAEMON_TESTS=separately swift test --skip-build
swift test --skip-build --filter ClientDaemonTests
# The Python client against the real daemon (clients/python/README.md). scripts/setup.sh made sure
# one of these interpreters has pytest.
python=python3
if ! python3 -c 'import pytest' 2>/dev/null; then python=/usr/bin/python3; fi
echo "python client: $($python --version) with pytest, against .build/debug/touchd"
TOUCHD_BIN="$PWD/.build/debug/touchd" "$python" -m pytest -q -p no:cacheprovider clients/python/tests
# The JavaScript client against the real daemon over WebSocket, and the web kiosk page in headless
# Chromium (clients/js/README.md; its screenshot: .build/artifacts/web-kiosk.png). The client takes
# the global WebSocket (Node 22; Node 20 with --experimental-websocket, which is tried first), else
# the ws package (Debian 12's Node 18 with node-ws, which scripts/setup.sh installs): the tests run
# on whichever this node has, and skip only when it has none.
client_has_websocket='import("./clients/js/touchd.js").then((m) => process.exit(m.defaultWebSocket() ? 0 : 1), () => process.exit(1))'
if ! command -v node >/dev/null; then
  echo "js client: SKIPPED: no node on the PATH (Debian 12's nodejs with node-ws, or Node 20.10 or later, runs these tests)"
else
  node_flags=()
  if ! node -e 'if (typeof WebSocket !== "function") process.exit(1)' 2>/dev/null &&
    node --experimental-websocket -e 'if (typeof WebSocket !== "function") process.exit(1)' 2>/dev/null; then
    node_flags=(--experimental-websocket)
  fi
  if node "${node_flags[@]}" -e "$client_has_websocket" 2>/dev/null; then
    websocket=$(node "${node_flags[@]}" -e 'console.log(typeof WebSocket === "function" ? "its WebSocket" : "the ws package")')
    echo "js client: node $(node --version)${node_flags[*]:+ ${node_flags[*]}} with $websocket, against .build/debug/touchd"
    TOUCHD_BIN="$PWD/.build/debug/touchd" node "${node_flags[@]}" --test \
      clients/js/test/*.test.mjs examples/web-kiosk/test/*.test.mjs
  else
    echo "js client: SKIPPED: node $(node --version) has no WebSocket and no ws package (apt install node-ws)"
  fi
fi
if command -v tsc >/dev/null; then
  echo "js client: tsc $(tsc --version | cut -d' ' -f2) on touchd.d.ts and a TypeScript use of it"
  tsc --noEmit --strict --target es2022 --module es2022 --moduleResolution node --lib es2022,dom \
    clients/js/touchd.d.ts clients/js/test/types-check.ts
else
  echo "js client: tsc SKIPPED: no tsc (Debian's node-typescript)"
fi
echo "lint: swift format lint --strict"
swift format lint --strict --recursive Package.swift Sources Tests Benchmarks Fuzz
echo "lint: clean"
[[ "${1:-}" == "--quick" ]] && exit 0

# Every fuzz target for 20 s, on top of a debug build with the sanitizers (about 3.5 min in all;
# scripts/fuzz.sh, docs/reliability.md "Fuzzing").
scripts/fuzz.sh --time 20

scripts/vm-test.sh
scripts/bench.sh --smoke
