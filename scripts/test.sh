#!/usr/bin/env bash
# The test command of the README and of CI: installs the build dependencies when missing,
# runs every test, then checks formatting with `swift format lint --strict`.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh
swift build --build-tests
swift test --skip-build 2>&1 | tee /tmp/touchd-test.log
echo "lint: swift format lint --strict"
swift format lint --strict --recursive Package.swift Sources Tests
echo "lint: clean"
