#!/usr/bin/python3
"""compare.py EXPECTED LIVE -- compares touchd's live messages with `touchctl replay --scene`.

Both files hold JSON lines. Compared: every action and touches message, in order, with every key
except those that depend on wall-clock timing rather than on the frames:
  - `time`, `seq`: when and how many (seq counts messages of all clients' types);
  - `velocity` (pan, pinch, rotation): a rate over the frames' kernel timestamps, which the live run
    re-creates with evemu-play's sleeps, not the recording's timestamps.
Touch ids are numbered by first appearance on each side, so ids from a daemon that saw other touches
before still compare. Prints a unified diff of the normalized streams when they differ; exit 1.
"""
import difflib
import json
import sys

TIMING_KEYS = {"time", "seq", "velocity"}


def normalize(path):
    ids = {}
    out = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            message = json.loads(line)
            if message.get("type") not in ("action", "touches"):
                continue
            for key in TIMING_KEYS:
                message.pop(key, None)
            for touch in message.get("touches", []):
                touch["id"] = ids.setdefault(touch["id"], len(ids) + 1)
            out.append(json.dumps(message, sort_keys=True))
    return out


expected, live = normalize(sys.argv[1]), normalize(sys.argv[2])
if expected == live:
    actions = sum('"type": "action"' in m for m in expected)
    print(f"equal: {len(expected)} messages ({actions} actions)")
    sys.exit(0)
print(f"DIFFERENT: expected {len(expected)} messages, live {len(live)}")
sys.stdout.writelines(line + "\n" for line in
                      difflib.unified_diff(expected, live, "replay (host)", "live (guest)", n=2, lineterm=""))
sys.exit(1)
