"""Synthesized evemu recordings for the tests, in the format of touchd's own test kit.

A Python port of the parts of ``Sources/TouchdTestKit/FingerScript.swift`` the tests need: a
synthetic multitouch touchscreen (protocol B, 0...4095 on both axes, 10 slots, INPUT_PROP_DIRECT)
and scripted fingers placed in window points, written as evemu text (the device description,
then one ``E: sec.usec type code value`` line per event).
"""

from __future__ import annotations

import math
from typing import List, Optional, Sequence, Tuple

AXIS_MAXIMUM = 4095
SLOTS = 10

EV_SYN, EV_KEY, EV_ABS = 0x00, 0x01, 0x03
SYN_REPORT = 0x00
BTN_TOUCH = 0x14A
ABS_X, ABS_Y = 0x00, 0x01
ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID = 0x2F, 0x35, 0x36, 0x39

_CODE_NAMES = {
    (EV_SYN, SYN_REPORT): "SYN_REPORT",
    (EV_KEY, BTN_TOUCH): "BTN_TOUCH",
    (EV_ABS, ABS_X): "ABS_X",
    (EV_ABS, ABS_Y): "ABS_Y",
    (EV_ABS, ABS_MT_SLOT): "ABS_MT_SLOT",
    (EV_ABS, ABS_MT_POSITION_X): "ABS_MT_POSITION_X",
    (EV_ABS, ABS_MT_POSITION_Y): "ABS_MT_POSITION_Y",
    (EV_ABS, ABS_MT_TRACKING_ID): "ABS_MT_TRACKING_ID",
}
_TYPE_NAMES = {EV_SYN: "EV_SYN", EV_KEY: "EV_KEY", EV_ABS: "EV_ABS"}


def _axis_block(code: int, name: str, maximum: int, resolution: int) -> str:
    return (
        f"#     Event code {code} ({name})\n"
        f"#       Value   {0:6d}\n"
        f"#       Min     {0:6d}\n"
        f"#       Max     {maximum:6d}\n"
        f"#       Fuzz    {0:6d}\n"
        f"#       Flat    {0:6d}\n"
        f"#       Resolution {resolution:3d}\n"
    )


HEADER = (
    "# EVEMU 1.3\n"
    '# Input device name: "touchd synthetic touchscreen"\n'
    "# Input device ID: bus 0x03 vendor 0x1d6b product 0x7a11 version 0x01\n"
    "# Size in mm: 255x255\n"
    "# Supported events:\n"
    "#   Event type 0 (EV_SYN)\n"
    "#     Event code 0 (SYN_REPORT)\n"
    "#   Event type 1 (EV_KEY)\n"
    "#     Event code 330 (BTN_TOUCH)\n"
    "#   Event type 3 (EV_ABS)\n"
    + _axis_block(0, "ABS_X", AXIS_MAXIMUM, 16)
    + _axis_block(1, "ABS_Y", AXIS_MAXIMUM, 16)
    + _axis_block(47, "ABS_MT_SLOT", SLOTS - 1, 0)
    + _axis_block(53, "ABS_MT_POSITION_X", AXIS_MAXIMUM, 16)
    + _axis_block(54, "ABS_MT_POSITION_Y", AXIS_MAXIMUM, 16)
    + _axis_block(57, "ABS_MT_TRACKING_ID", 65535, 0)
    + "# Properties:\n"
    "#   Property  type 1 (INPUT_PROP_DIRECT)\n"
    "N: touchd synthetic touchscreen\n"
    "I: 0003 1d6b 7a11 0001\n"
    "P: 02 00 00 00 00 00 00 00\n"
    "B: 00 01 00 00 00 00 00 00 00\n"
    + "B: 01 00 00 00 00 00 00 00 00\n" * 5
    + "B: 01 00 04 00 00 00 00 00 00\n"
    + "B: 01 00 00 00 00 00 00 00 00\n" * 6
    + "B: 02 00 00 00 00 00 00 00 00\n"
    "B: 03 03 00 00 00 00 80 60 02\n"
    "B: 04 00 00 00 00 00 00 00 00\n"
    "B: 05 00 00 00 00 00 00 00 00\n"
    "B: 11 00 00 00 00 00 00 00 00\n"
    "B: 12 00 00 00 00 00 00 00 00\n"
    "B: 14 00 00 00 00 00 00 00 00\n"
    "B: 15 00 00 00 00 00 00 00 00\n"
    "B: 15 00 00 00 00 00 00 00 00\n"
    "A: 00 0 4095 0 0 16\n"
    "A: 01 0 4095 0 0 16\n"
    "A: 2f 0 9 0 0 0\n"
    "A: 35 0 4095 0 0 16\n"
    "A: 36 0 4095 0 0 16\n"
    "A: 39 0 65535 0 0 0\n"
    "################################\n"
    "#      Waiting for events      #\n"
    "################################\n"
)

Point = Tuple[float, float]


class FingerScript:
    """Scripted fingers on a window of ``width`` x ``height`` points, starting at ``start`` s."""

    def __init__(self, width: float = 1920, height: float = 1080, start: float = 1.0, sample_rate: float = 120):
        self.width = width
        self.height = height
        self.time = start
        self.sample_rate = sample_rate
        self.events: List[Tuple[int, int, int, int]] = []  # (microseconds, type, code, value)
        self._slots: List[Optional[Point]] = [None] * SLOTS
        self._next_tracking_id = 1
        self._last_slot: Optional[int] = None

    # Primitives

    def wait(self, seconds: float) -> None:
        self.time += seconds

    def down(self, points: Sequence[Point]) -> List[int]:
        fingers = []
        was_empty = not self.fingers_down
        for point in points:
            slot = self._slots.index(None)
            self._slots[slot] = point
            self._select(slot)
            self._emit(EV_ABS, ABS_MT_TRACKING_ID, self._next_tracking_id)
            self._next_tracking_id += 1
            self._emit(EV_ABS, ABS_MT_POSITION_X, self._dx(point[0]))
            self._emit(EV_ABS, ABS_MT_POSITION_Y, self._dy(point[1]))
            fingers.append(slot)
        if was_empty and points:
            self._emit(EV_KEY, BTN_TOUCH, 1)
        self._end_frame()
        return fingers

    def move(self, fingers: Sequence[int], points: Sequence[Point]) -> None:
        for finger, point in zip(fingers, points):
            old = self._slots[finger]
            if old is None:
                continue
            self._slots[finger] = point
            ox, oy, nx, ny = self._dx(old[0]), self._dy(old[1]), self._dx(point[0]), self._dy(point[1])
            if (ox, oy) == (nx, ny):
                continue
            self._select(finger)
            if nx != ox:
                self._emit(EV_ABS, ABS_MT_POSITION_X, nx)
            if ny != oy:
                self._emit(EV_ABS, ABS_MT_POSITION_Y, ny)
        self._end_frame()

    def up(self, fingers: Sequence[int]) -> None:
        for finger in fingers:
            if self._slots[finger] is None:
                continue
            self._slots[finger] = None
            self._select(finger)
            self._emit(EV_ABS, ABS_MT_TRACKING_ID, -1)
        if not self.fingers_down:
            self._emit(EV_KEY, BTN_TOUCH, 0)
        self._end_frame()

    @property
    def fingers_down(self) -> List[int]:
        return [i for i, p in enumerate(self._slots) if p is not None]

    # Gestures

    def tap(self, point: Point, duration: float = 0.05) -> None:
        fingers = self.down([point])
        self.time += duration
        self.up(fingers)

    def drag(self, start: Point, end: Point, duration: float) -> None:
        fingers = self.down([start])
        steps = max(1, round(duration * self.sample_rate))
        for step in range(1, steps + 1):
            self.time += duration / steps
            t = step / steps
            self.move(fingers, [(start[0] + (end[0] - start[0]) * t, start[1] + (end[1] - start[1]) * t)])
        self.up(fingers)

    # Encoding

    def _dx(self, x: float) -> int:
        return self._units(x / self.width)

    def _dy(self, y: float) -> int:
        return self._units(y / self.height)

    @staticmethod
    def _units(normalized: float) -> int:
        # The unit whose cell holds the fraction (AbsInfo.units(atFraction:)): touchd reads a unit
        # at its cell's centre, so the point comes back within half a unit (docs/scene.md).
        value = math.floor(min(max(normalized, 0.0), 1.0) * (AXIS_MAXIMUM + 1))
        return int(min(max(value, 0), AXIS_MAXIMUM))

    def _select(self, slot: int) -> None:
        if self._last_slot != slot:
            self._emit(EV_ABS, ABS_MT_SLOT, slot)
            self._last_slot = slot

    def _end_frame(self) -> None:
        down = self.fingers_down
        if down:
            p = self._slots[down[0]]
            assert p is not None
            self._emit(EV_ABS, ABS_X, self._dx(p[0]))
            self._emit(EV_ABS, ABS_Y, self._dy(p[1]))
        self._emit(EV_SYN, SYN_REPORT, 0)

    def _emit(self, type_: int, code: int, value: int) -> None:
        self.events.append((round(self.time * 1_000_000), type_, code, value))

    def evemu_text(self) -> str:
        lines = [HEADER]
        last_sync_ms = 0
        for micros, type_, code, value in self.events:
            digits = f"{abs(value):04d}"
            value_text = ("-" + digits[1:] if len(digits) == 4 and digits[0] == "0" else "-" + digits) if value < 0 else digits
            line = f"E: {micros // 1_000_000}.{micros % 1_000_000:06d} {type_:04x} {code:04x} {value_text}\t"
            name = _CODE_NAMES.get((type_, code), "(null)")
            if type_ == EV_SYN:
                ms = micros // 1000
                dt = ms - last_sync_ms
                last_sync_ms = ms
                line += f"# ------------ {name} ({value}) ---------- {'+' if dt >= 0 else ''}{dt}ms\n"
            else:
                line += f"# {_TYPE_NAMES[type_]} / {name:<20} {value}\n"
            lines.append(line)
        return "".join(lines)

    def write(self, path: str) -> str:
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.evemu_text())
        return path
