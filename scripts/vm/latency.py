#!/usr/bin/python3
"""latency.py SOCKET COUNT TIMEOUT_S [--subscribe] -- the subscriber side of the latency check.

Connects to SOCKET (touchd's, or evforward's), optionally subscribes to `touches` messages, and for
each message carrying `time` (the frame's kernel timestamp, CLOCK_MONOTONIC) records
clock_gettime(CLOCK_MONOTONIC) at receipt minus `time`. Stops after COUNT samples or TIMEOUT_S and
prints one JSON object: {"samples":N,"median_ms":..,"p90_ms":..,"max_ms":..}.
Prints "READY" on stderr once connected (and subscribed), so the injector can start.
"""
import json
import socket
import statistics
import sys
import time

path, count, timeout = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
deadline = time.monotonic() + timeout
while True:
    try:
        sock.connect(path)
        break
    except OSError:
        if time.monotonic() > deadline:
            sys.exit(f"latency.py: cannot connect to {path}")
        time.sleep(0.1)


def lines():
    """Yields (line, receipt time): each line with the CLOCK_MONOTONIC time the recv(2) that
    completed it returned. Reads in chunks, as a real client does: a file object iterated unbuffered
    reads one byte per system call, which under emulation took ~15 ms for a 300-byte touches line
    and made the subscriber, not the sender, the thing measured."""
    pending = b""
    while True:
        chunk = sock.recv(1 << 16)
        received = time.clock_gettime(time.CLOCK_MONOTONIC)
        if not chunk:
            return
        pending += chunk
        *complete, pending = pending.split(b"\n")
        for line in complete:
            yield line, received


stream = lines()
if "--subscribe" in sys.argv:
    sock.sendall(b'{"cmd":"subscribe","id":"lat","types":["touches"]}\n')
    for raw, _ in stream:  # wait for the reply, so no frame is sent before the filter is in place
        if json.loads(raw).get("type") in ("reply", "error"):
            break
print("READY", file=sys.stderr, flush=True)
sock.settimeout(max(0.1, deadline - time.monotonic()))
samples, wakes = [], []
try:
    for raw, received in stream:
        message = json.loads(raw)
        if message.get("type") == "touches" and "time" in message:
            samples.append((received - float(message["time"])) * 1000)
            if "wake" in message:  # evforward's: when its poll(2) returned
                wakes.append((float(message["wake"]) - float(message["time"])) * 1000)
            if len(samples) >= count:
                break
except (socket.timeout, OSError):
    pass
if not samples:
    print(json.dumps({"samples": 0}))
    sys.exit(1)
samples.sort()
result = {"samples": len(samples), "median_ms": round(statistics.median(samples), 3),
          "p90_ms": round(samples[int(0.9 * (len(samples) - 1))], 3), "max_ms": round(samples[-1], 3)}
if wakes:
    result["wake_median_ms"] = round(statistics.median(wakes), 3)
print(json.dumps(result))
