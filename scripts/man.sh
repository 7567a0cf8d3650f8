#!/bin/bash
# Regenerates docs/man/touchctl.1 from touchctl's own command-line definition (swift-argument-parser's
# generate-manual plugin), after a change to touchctl's commands, options or help. touchd.8 and
# touchd.scene.5 are written by hand (DaemonOptionsTests checks that touchd.8 documents every option).
set -euo pipefail
cd "$(dirname "$0")/.."
date=$(git log -1 --format=%cs 2>/dev/null || date +%F)
swift package --disable-sandbox plugin generate-manual --date "$date" >&2
# Blank lines separate paragraphs in touchctl's help; mdoc wants .Pp for them.
sed 's/^$/.Pp/' .build/plugins/GenerateManual/outputs/touchctl/touchctl.1 >docs/man/touchctl.1
groff -mdoc -Tutf8 -ww -z docs/man/touchctl.1
echo "docs/man/touchctl.1 regenerated" >&2
