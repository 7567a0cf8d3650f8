#!/bin/sh
# Prints touchd's version, read from its one place: Sources/TouchdInput/Version.swift.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
sed -n 's/^ *public static let current = "\([^"]*\)".*/\1/p' "$here/Sources/TouchdInput/Version.swift"
