#!/usr/bin/env bash
# The test command of the README and of CI:
#   1. installs the build dependencies when missing (scripts/setup.sh),
#   2. builds and runs every unit and integration test (swift test),
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
swift test --skip-build
echo "lint: swift format lint --strict"
swift format lint --strict --recursive Package.swift Sources Tests Benchmarks Fuzz
echo "lint: clean"
[[ "${1:-}" == "--quick" ]] && exit 0

# Every fuzz target for 20 s, on top of a debug build with the sanitizers (about 3.5 min in all;
# scripts/fuzz.sh, docs/reliability.md "Fuzzing").
scripts/fuzz.sh --time 20

scripts/vm-test.sh
scripts/bench.sh --smoke
