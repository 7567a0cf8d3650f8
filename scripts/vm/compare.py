#!/usr/bin/python3
"""compare.py [--times] [--scroll] EXPECTED LIVE -- compares touchd's live messages with `touchctl replay --scene`.

Both files hold JSON lines. Compared: every action, touches, presses and accessibility message, in order, with
every key except those that depend on wall-clock timing rather than on the frames:
  - `time`, `seq`: when and how many (seq counts messages of all clients' types);
  - `velocity` (pan, pinch, rotation): a rate over the frames' kernel timestamps, which the live run
    re-creates with evemu-play's sleeps, not the recording's timestamps.
Touch ids and press ids are numbered by first appearance on each side, so ids from a daemon that
saw other touches or presses before still compare.

--scroll: scroll messages are compared too, all but the phases the display timer publishes
(`didScroll`, which an animation or deceleration publishes per display frame, and the
`didEndDecelerating` and `didEndScrollingAnimation` that end one): a live daemon's display frames
fall at other times than replay's. What an input frame makes (zooming, dragging, the start of a
deceleration, with the offset and the scale) is compared; the motion in between is evaluated at
the touch's own time on both sides (ScrollView.stopMotion), so a touch that stops it finds the
same offset.

--times: EXPECTED is the replay of a recording of the live device itself (its kernel timestamps),
so `time` is compared too: each message's time after the first message's, to the microsecond
(2 us of slack: the recorder may read another clock than touchd's CLOCK_MONOTONIC, and each clock
is truncated to microseconds on its own).

Prints a unified diff of the normalized streams when they differ; exit 1.
"""
import difflib
import json
import sys

TYPES = ("action", "touches", "presses", "accessibility")
DISPLAY_TIMER_PHASES = {"didScroll", "didEndDecelerating", "didEndScrollingAnimation"}
TIMING_KEYS = {"time", "seq", "velocity"}


def normalize(path, times, scroll):
    ids = {"touches": {}, "presses": {}}
    out, stamps = [], []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            message = json.loads(line)
            kind = message.get("type")
            if kind not in TYPES and not (
                scroll and kind == "scroll" and message.get("phase") not in DISPLAY_TIMER_PHASES
            ):
                continue
            stamps.append(message.get("time"))
            for key in TIMING_KEYS:
                message.pop(key, None)
            for item in message.get(kind, []) if kind in ids else []:
                item["id"] = ids[kind].setdefault(item["id"], len(ids[kind]) + 1)
            out.append(message)
    if times and stamps:
        for message, stamp in zip(out, stamps):
            message["time+us"] = round((stamp - stamps[0]) * 1_000_000)
    return out


def lines(messages):
    return [json.dumps(m, sort_keys=True) for m in messages]


def equal(expected, live, times):
    if len(expected) != len(live):
        return False
    for e, l in zip(expected, live):
        if times and abs(e.get("time+us", 0) - l.get("time+us", 0)) > 2:
            return False
        e, l = dict(e), dict(l)
        e.pop("time+us", None)
        l.pop("time+us", None)
        if e != l:
            return False
    return True


args = sys.argv[1:]
times = "--times" in args
scroll = "--scroll" in args
args = [a for a in args if a not in ("--times", "--scroll")]
expected, live = normalize(args[0], times, scroll), normalize(args[1], times, scroll)
if equal(expected, live, times):
    actions = sum(m.get("type") == "action" for m in expected)
    presses = sum(m.get("type") == "presses" for m in expected)
    scrolls = sum(m.get("type") == "scroll" for m in expected)
    detail = f"{actions} actions" + (f", {presses} presses" if presses else "") + (
        f", {scrolls} scroll messages" if scrolls else "")
    span = f"; times equal, over {expected[-1]['time+us'] / 1e6:.3f} s" if times and expected else ""
    print(f"equal: {len(expected)} messages ({detail}){span}")
    sys.exit(0)
print(f"DIFFERENT: expected {len(expected)} messages, live {len(live)}" + (" (times compared)" if times else ""))
sys.stdout.writelines(line + "\n" for line in difflib.unified_diff(
    lines(expected), lines(live), "replay", "live (guest)", n=2, lineterm=""))
sys.exit(1)
