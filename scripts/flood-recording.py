#!/usr/bin/env python3
"""flood-recording.py [EVENTS] -- writes an evemu recording of EVENTS events (default 1,000,000)
stamped within one second, on a 10-slot protocol-B touchscreen (0...4095, INPUT_PROP_DIRECT), to
stdout: every frame moves all ten fingers (ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y each,
then SYN_REPORT; 31 events), every 100 frames they lift and land again with new tracking ids; the
last frame is cut short with the fingers down (the device vanishes). The same flood as the
`ManyTouchesTests` replay test, for measuring a release build (docs/reliability.md):

    scripts/flood-recording.py > /tmp/flood.evemu
    /usr/bin/time -v touchctl replay --scene config/scene.yaml /tmp/flood.evemu | wc -l
"""
import sys

total = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
out = sys.stdout
out.write("# EVEMU 1.3\n# touchd flood: %d events within one second (scripts/flood-recording.py)\n" % total)
out.write("N: touchd flood touchscreen\nI: 0003 1d6b 7a11 0001\nP: 02 00 00 00 00 00 00 00\n")
out.write("B: 00 0b 00 00 00 00 00 00 00\n")
for i in range(12):
    out.write("B: 01 00 04 00 00 00 00 00 00\n" if i == 5 else "B: 01 00 00 00 00 00 00 00 00\n")
out.write("B: 02 00 00 00 00 00 00 00 00\nB: 03 03 00 00 00 00 80 60 02\n")
for t in ("04", "05", "11", "12", "14", "15", "15"):
    out.write(f"B: {t} 00 00 00 00 00 00 00 00\n")
for code, maximum in ((0x00, 4095), (0x01, 4095), (0x2F, 9), (0x35, 4095), (0x36, 4095), (0x39, 65535)):
    out.write(f"A: {code:02x} 0 {maximum} 0 0 0\n")
frames = total // 31 + 1
written = 0
frame = 0
tracking_id = 1
lines = []
while written < total:
    t = "E: %.6f " % (frame / frames)
    cycle = frame % 100
    for slot in range(10):
        events = [(3, 0x2F, slot)]
        if cycle == 0:
            events.append((3, 0x39, tracking_id))
            tracking_id += 1
        if cycle == 99:
            events.append((3, 0x39, -1))
        else:
            events += [(3, 0x35, 200 + slot * 300 + cycle * 7), (3, 0x36, 1000 + cycle * 13)]
        for ev in events:
            if written < total:
                lines.append(t + "%04x %04x %d\n" % ev)
                written += 1
    if written < total:
        lines.append(t + "0000 0000 0\n")
        written += 1
    frame += 1
    if len(lines) > 100_000:
        out.writelines(lines)
        lines = []
out.writelines(lines)
