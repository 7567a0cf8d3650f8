#!/usr/bin/env bash
# Builds the release binaries touchd and touchctl the way they are installed and measured, and
# prints the folder that holds them (the last line of output).
#
#   scripts/build-release.sh [--quiet]     --quiet: only the folder, build output to stderr
#   scripts/build-release.sh --bin-path    only the folder, without building
#
# - The Swift runtime and Foundation are linked statically (--static-swift-stdlib): a kiosk image
#   needs no Swift toolchain, and the daemon maps one executable instead of a dozen shared
#   libraries whose symbol look-ups and relocations it would page in at start (docs/performance.md:
#   28 MB → under 20 MB resident).
# - The executables stay position-independent (ASLR), linked by the toolchain's lld with packed
#   relative relocations (DT_RELR, glibc ≥ 2.36): 89,000 relocation entries (2 MB read at every
#   start) become a 17 kB bitmap. gold, the default linker here, cannot pack them.
# - No RUNPATH (--disable-local-rpath): SwiftPM otherwise adds $ORIGIN, which a statically linked
#   runtime never uses, and which Debian forbids in /usr/bin (lintian: custom-library-search-path).
# - The executable exports no symbols (--no-export-dynamic; the Swift toolchain's static link
#   otherwise exports all 12,600 of touchd's): the dynamic loader searches the executable first
#   for every symbol of libc, libudev and libevdev, paging in ~1 MB of symbol tables. The symbols
#   stay in the file's own symbol table (.symtab), for debuggers.
# - A build folder of its own (.build/static), so that debug builds and this one never rebuild
#   each other.
set -euo pipefail
cd "$(dirname "$0")/.."

flags=(-c release --static-swift-stdlib --disable-local-rpath --scratch-path .build/static
  -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld -Xlinker -z -Xlinker pack-relative-relocs -Xlinker --no-export-dynamic)
quiet=0
case "${1:-}" in
  --quiet) quiet=1 ;;
  --bin-path) exec swift build "${flags[@]}" --show-bin-path ;;
esac
if ((quiet)); then
  swift build "${flags[@]}" --product touchd >&2
  swift build "${flags[@]}" --product touchctl >&2
else
  swift build "${flags[@]}" --product touchd
  swift build "${flags[@]}" --product touchctl
fi
swift build "${flags[@]}" --show-bin-path
