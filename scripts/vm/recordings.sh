#!/usr/bin/env bash
# Prints the live == replay cases of the VM suite, one line each: NAME RECORDING DESCRIPTION ORDER
#   - every recording in SHARED_RECORDINGS (*.evemu; *.events with the .desc whose name shares
#     the longest start with theirs, as SOURCES.md pairs them) and every recording of the
#     project's scripts/vm/recordings/;
#   - DESCRIPTION is '-' for a self-contained recording;
#   - ORDER is who appears first in the guest, alternating down the list: `daemon-first` (touchd
#     running, then the device is plugged: hotplug) or `device-first` (the device exists when
#     touchd starts: enumeration). The WeTab panel (no INPUT_PROP_DIRECT) runs in both orders.
# Paths are absolute: the guest's root is the host's, so they are the same on both sides.
#
#   scripts/vm/recordings.sh SHARED_RECORDINGS
set -euo pipefail
shared=$(cd "$1" && pwd)
project=$(cd "$(dirname "$0")/recordings" && pwd)

cases() {
  local file base desc candidate
  for file in "$shared"/*.evemu "$project"/*.evemu; do
    base=$(basename "$file" .evemu)
    echo "$base $file -"
  done
  for file in "$shared"/*.events; do
    base=$(basename "$file" .events)
    desc="" best=0
    for candidate in "$shared"/*.desc; do
      local stem n=0
      stem=$(basename "$candidate" .desc)
      while ((n < ${#stem} && n < ${#base})) && [[ ${stem:n:1} == "${base:n:1}" ]]; do n=$((n + 1)); done
      if ((n > best && n >= 10)); then desc=$candidate best=$n; fi
    done
    [[ -n $desc ]] || { echo "recordings.sh: no .desc for $file" >&2; exit 1; }
    echo "$base $file $desc"
  done
}

i=0
while read -r name file desc; do
  order=daemon-first
  ((i % 2)) && order=device-first
  echo "$name $file $desc $order"
  if [[ $name == egalax-wetab-* ]]; then
    other=device-first
    [[ $order == device-first ]] && other=daemon-first
    echo "$name-$other $file $desc $other"
  fi
  i=$((i + 1))
done < <(cases | sort)
