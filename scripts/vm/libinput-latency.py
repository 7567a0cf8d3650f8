#!/usr/bin/python3
"""libinput-latency.py NODE TIMES_FILE OUT -- libinput's side of the latency check.

Runs `libinput debug-events --device NODE` with its standard output line-buffered (stdbuf -oL, as
on a terminal: piped, stdio would hold lines in a 4 KiB buffer) and records the CLOCK_MONOTONIC
receipt time of each TOUCH_FRAME line, one per evdev frame. Prints "READY" on stderr once libinput
has opened the device. When its standard input closes, it stops libinput, reads the injector's
"times T0 T1 ..." line from TIMES_FILE (each frame's time when its write returned: the kernel
stamped it a little earlier, so libinput's figure is if anything flattered) and matches the k-th
TOUCH_FRAME to the k-th frame. Writes {"samples":N,"median_ms":..,"p90_ms":..,"max_ms":..} to OUT.
"""
import json
import os
import selectors
import signal
import statistics
import subprocess
import sys
import time

node, times_file, out = sys.argv[1], sys.argv[2], sys.argv[3]
proc = subprocess.Popen(["stdbuf", "-oL", "libinput", "debug-events", "--device", node],
                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, bufsize=0)
selector = selectors.DefaultSelector()
selector.register(proc.stdout, selectors.EVENT_READ, "libinput")
selector.register(sys.stdin, selectors.EVENT_READ, "stdin")
pending, frames, ready, running = b"", [], False, True
while running:
    for key, _ in selector.select(timeout=60):
        if key.data == "stdin":
            if not os.read(sys.stdin.fileno(), 4096):
                running = False
            continue
        chunk = os.read(proc.stdout.fileno(), 1 << 16)
        received = time.clock_gettime(time.CLOCK_MONOTONIC)
        if not chunk:
            running = False
            break
        pending += chunk
        *lines, pending = pending.split(b"\n")
        for line in lines:
            if b"DEVICE_ADDED" in line and not ready:
                ready = True
                print("READY", file=sys.stderr, flush=True)
            if b"TOUCH_FRAME" in line:
                frames.append(received)
proc.send_signal(signal.SIGINT)
proc.wait(timeout=10)
written = []
for line in open(times_file):
    if line.startswith("times "):
        written = [float(t) for t in line.split()[1:]]
result = {"samples": 0, "frames_written": len(written), "frames_read": len(frames)}
if written and len(frames) == len(written):
    samples = sorted((r - w) * 1000 for r, w in zip(frames, written))
    result.update({"samples": len(samples), "median_ms": round(statistics.median(samples), 3),
                   "p90_ms": round(samples[int(0.9 * (len(samples) - 1))], 3),
                   "max_ms": round(samples[-1], 3)})
json.dump(result, open(out, "w"))
print(json.dumps(result))
sys.exit(0 if result["samples"] else 1)
