#!/usr/bin/python3
"""The VM suite's scripted uinput devices (python3-libevdev; /usr/bin/python3, not a pyenv shim).

    uinput.py touchscreen [NAME [PHYS]]
                                   a 10-slot protocol-B touchscreen, 1920x1080 units (with the
                                   physical path PHYS when given), then commands
    uinput.py touchscreen:SLOTS [NAME [PHYS]]
                                   the same with SLOTS slots (20: ten fingers and more)
    uinput.py keyboard             a keyboard (touchd must ignore it), then commands
    uinput.py keypad [NAME]        a USB kiosk keypad (default "Kiosk Keypad", 1234:5678) with
                                   KEY_ENTER, KEY_F1, KEY_UP and KEY_ESC and the kernel's
                                   autorepeat (EV_REP), then commands

Prints "created NODE" once the node exists, then reads one command per line on stdin and answers
"ok COMMAND" when it is done, so a shell script can drive it as a coprocess:

    tap X Y                 one finger down, held 50 ms, up
    pan X0 Y0 X1 Y1 N       one finger down, N moves 16 ms apart, up
    down X Y | move X Y     finger 0 down / moved (no lift: for unplugging mid-gesture)
    drag X0 Y0 X1 Y1 N      finger 0 down, N moves 16 ms apart, no lift (a pan to unplug under)
    up                      finger 0 up
    palm                    finger 0 (down, from an earlier command) becomes a palm: its slot's
                            ABS_MT_TOOL_TYPE turns MT_TOOL_PALM in one frame, and it lifts in the
                            next (libinput cancels the touch: LIBINPUT_EVENT_TOUCH_CANCEL); the
                            slot's next touch is a finger again
    fingers N X Y GAP M DY  N fingers down in one frame in a row from (X, Y), GAP apart (slots 0 to
                            N-1), M frames 16 ms apart each moving all of them DY down, then all
                            lift in one frame
    hold N X Y GAP S        N fingers down in one frame as `fingers` places them, held still S
                            seconds, then all lift in one frame (a multi-finger long press)
    flood N                 N frames of two moving fingers as fast as possible, then both lift
                            (overflows the evdev client buffer of a reader that is stopped)
    stream N MS             finger down, N moves MS milliseconds apart, up (the latency run); prints
                            "times T0 T1 ...": each frame's CLOCK_MONOTONIC time when its write
                            returned (the kernel stamped the frame a little before)
    key NAME VALUE          keypad: one frame, MSC_SCAN and key NAME (KEY_ENTER ...) VALUE (1 down,
                            0 up), as a USB keyboard reports it
    press NAME S            keypad: key NAME down, held S seconds, up
    sleep S                 wait S seconds
    quit                    remove the device and exit (so does end of input)
"""
import fcntl
import sys
import time

import libevdev
from libevdev import EV_ABS, EV_KEY, EV_MSC, EV_REP, EV_SYN, INPUT_PROP_DIRECT, InputAbsInfo, InputEvent

WIDTH, HEIGHT = 1920, 1080
MT_TOOL_FINGER, MT_TOOL_PALM = 0, 2  # <linux/input.h>


# UI_SET_PHYS = _IOW('U', 108, char *) from <linux/uinput.h>.
UI_SET_PHYS = (1 << 30) | (8 << 16) | (ord("U") << 8) | 108


def uinput_file(phys):
    """/dev/uinput opened with the physical path set. libevdev's uinput creation does not copy the
    phys of the description (libevdev-uinput.c), so it is set on the fd before the device exists.
    The file must stay open as long as the device lives."""
    f = open("/dev/uinput", "rb+", buffering=0)
    fcntl.ioctl(f.fileno(), UI_SET_PHYS, phys.encode() + b"\0")
    return f


def touchscreen(name, slots=10):
    d = libevdev.Device()
    d.name = name
    d.id = {"bustype": 0x18, "vendor": 0x1234, "product": 0x5678, "version": 1}
    d.enable(INPUT_PROP_DIRECT)
    d.enable(EV_KEY.BTN_TOUCH)
    axis = {"X": InputAbsInfo(minimum=0, maximum=WIDTH - 1, resolution=10),
            "Y": InputAbsInfo(minimum=0, maximum=HEIGHT - 1, resolution=10)}
    d.enable(EV_ABS.ABS_X, axis["X"])
    d.enable(EV_ABS.ABS_Y, axis["Y"])
    d.enable(EV_ABS.ABS_MT_SLOT, InputAbsInfo(minimum=0, maximum=slots - 1))
    d.enable(EV_ABS.ABS_MT_TRACKING_ID, InputAbsInfo(minimum=0, maximum=65535))
    d.enable(EV_ABS.ABS_MT_POSITION_X, axis["X"])
    d.enable(EV_ABS.ABS_MT_POSITION_Y, axis["Y"])
    # MT_TOOL_FINGER (0) to MT_TOOL_PALM (2): the palm command. A finger's frames never carry it
    # (every slot starts at 0, MT_TOOL_FINGER) unless its slot was a palm's.
    d.enable(EV_ABS.ABS_MT_TOOL_TYPE, InputAbsInfo(minimum=0, maximum=MT_TOOL_PALM))
    return d


def keyboard():
    d = libevdev.Device()
    d.name = "touchd VM keyboard"
    d.id = {"bustype": 0x3, "vendor": 0x1234, "product": 0x0001, "version": 1}
    for key in (EV_KEY.KEY_A, EV_KEY.KEY_B, EV_KEY.KEY_ENTER, EV_KEY.KEY_SPACE, EV_KEY.KEY_ESC):
        d.enable(key)
    return d


# The keypad's keys and the USB HID usages its MSC_SCAN reports (page 7, as keypad.evemu's).
KEYPAD_KEYS = {"KEY_ENTER": 0x70028, "KEY_F1": 0x7003A, "KEY_UP": 0x70052, "KEY_ESC": 0x70029}


def keypad(name):
    d = libevdev.Device()
    d.name = name
    d.id = {"bustype": 0x3, "vendor": 0x1234, "product": 0x5678, "version": 1}
    for key in KEYPAD_KEYS:
        d.enable(libevdev.evbit(key))
    d.enable(EV_MSC.MSC_SCAN)
    # EV_REP: the input core repeats a held key (value 2) as on a real keypad; repeats make no press.
    d.enable(EV_REP.REP_DELAY, 250)
    d.enable(EV_REP.REP_PERIOD, 33)
    return d


class Keys:
    """Writes a keypad's frames: MSC_SCAN, the key, SYN_REPORT."""

    def __init__(self, uinput):
        self.u = uinput

    def key(self, name, value):
        if name not in KEYPAD_KEYS:
            raise ValueError(f"{name}: not a key of the keypad ({', '.join(KEYPAD_KEYS)})")
        self.u.send_events([InputEvent(EV_MSC.MSC_SCAN, KEYPAD_KEYS[name]), InputEvent(libevdev.evbit(name), value),
                            InputEvent(EV_SYN.SYN_REPORT, 0)])


class Fingers:
    """Writes protocol-B frames; tracking ids grow like a real controller's."""

    def __init__(self, uinput):
        self.u = uinput
        self.next_id = 100
        self.times = None  # a list while the stream command records its frames' write times
        self.palms = set()  # slots whose ABS_MT_TOOL_TYPE is still MT_TOOL_PALM

    def frame(self, *events, pause=0.016):
        self.u.send_events(list(events) + [InputEvent(EV_SYN.SYN_REPORT, 0)])
        if self.times is not None:
            self.times.append(time.clock_gettime(time.CLOCK_MONOTONIC))
        if pause:
            time.sleep(pause)

    def down(self, x, y, slot=0, pause=0.016):
        self.next_id += 1
        # A finger again where a palm lifted (only then: the frames are unchanged otherwise), before
        # the tracking id: libinput reads the slot's tool type when the touch begins.
        tool = [InputEvent(EV_ABS.ABS_MT_TOOL_TYPE, MT_TOOL_FINGER)] if slot in self.palms else []
        self.palms.discard(slot)
        self.frame(InputEvent(EV_ABS.ABS_MT_SLOT, slot), *tool, InputEvent(EV_ABS.ABS_MT_TRACKING_ID, self.next_id),
                   InputEvent(EV_ABS.ABS_MT_POSITION_X, x), InputEvent(EV_ABS.ABS_MT_POSITION_Y, y),
                   InputEvent(EV_KEY.BTN_TOUCH, 1), InputEvent(EV_ABS.ABS_X, x), InputEvent(EV_ABS.ABS_Y, y),
                   pause=pause)

    def palm(self, pause=0.016):
        """Finger 0 turns into a palm, then lifts in the next frame."""
        self.palms.add(0)
        self.frame(InputEvent(EV_ABS.ABS_MT_SLOT, 0), InputEvent(EV_ABS.ABS_MT_TOOL_TYPE, MT_TOOL_PALM), pause=pause)
        self.up(pause=pause)

    def move(self, x, y, pause=0.016):
        self.frame(InputEvent(EV_ABS.ABS_MT_SLOT, 0), InputEvent(EV_ABS.ABS_MT_POSITION_X, x),
                   InputEvent(EV_ABS.ABS_MT_POSITION_Y, y), InputEvent(EV_ABS.ABS_X, x),
                   InputEvent(EV_ABS.ABS_Y, y), pause=pause)

    def up(self, pause=0.016):
        self.frame(InputEvent(EV_ABS.ABS_MT_SLOT, 0), InputEvent(EV_ABS.ABS_MT_TRACKING_ID, -1),
                   InputEvent(EV_KEY.BTN_TOUCH, 0), pause=pause)

    def fingers(self, n, x, y, gap, moves, dy, hold=0.0):
        """n fingers in slots 0..n-1: down together, moved together, held `hold` seconds, lifted
        together."""
        down = []
        for i in range(n):
            self.next_id += 1
            down.append(InputEvent(EV_ABS.ABS_MT_SLOT, i))
            if i in self.palms:  # a finger again, before the tracking id (see down)
                down.append(InputEvent(EV_ABS.ABS_MT_TOOL_TYPE, MT_TOOL_FINGER))
                self.palms.discard(i)
            down += [InputEvent(EV_ABS.ABS_MT_TRACKING_ID, self.next_id),
                     InputEvent(EV_ABS.ABS_MT_POSITION_X, x + i * gap), InputEvent(EV_ABS.ABS_MT_POSITION_Y, y)]
        self.frame(*down, InputEvent(EV_KEY.BTN_TOUCH, 1), InputEvent(EV_ABS.ABS_X, x), InputEvent(EV_ABS.ABS_Y, y))
        for step in range(1, moves + 1):
            moved = []
            for i in range(n):
                moved += [InputEvent(EV_ABS.ABS_MT_SLOT, i), InputEvent(EV_ABS.ABS_MT_POSITION_Y, y + step * dy)]
            self.frame(*moved, InputEvent(EV_ABS.ABS_Y, y + step * dy))
        time.sleep(hold)
        up = []
        for i in range(n):
            up += [InputEvent(EV_ABS.ABS_MT_SLOT, i), InputEvent(EV_ABS.ABS_MT_TRACKING_ID, -1)]
        self.frame(*up, InputEvent(EV_KEY.BTN_TOUCH, 0))

    def flood(self, n):
        self.down(400, 400, slot=0, pause=0)
        self.next_id += 1
        self.frame(InputEvent(EV_ABS.ABS_MT_SLOT, 1), InputEvent(EV_ABS.ABS_MT_TRACKING_ID, self.next_id),
                   InputEvent(EV_ABS.ABS_MT_POSITION_X, 800), InputEvent(EV_ABS.ABS_MT_POSITION_Y, 400), pause=0)
        for i in range(n):
            dx = i % 200  # stay on screen; every frame changes both fingers, so nothing is redundant
            self.frame(InputEvent(EV_ABS.ABS_MT_SLOT, 0), InputEvent(EV_ABS.ABS_MT_POSITION_X, 400 + dx),
                       InputEvent(EV_ABS.ABS_MT_SLOT, 1), InputEvent(EV_ABS.ABS_MT_POSITION_X, 800 + dx),
                       InputEvent(EV_ABS.ABS_X, 400 + dx), pause=0)
        self.frame(InputEvent(EV_ABS.ABS_MT_SLOT, 1), InputEvent(EV_ABS.ABS_MT_TRACKING_ID, -1), pause=0)
        self.frame(InputEvent(EV_ABS.ABS_MT_SLOT, 0), InputEvent(EV_ABS.ABS_MT_TRACKING_ID, -1),
                   InputEvent(EV_KEY.BTN_TOUCH, 0), pause=0)


def run_keys(keys, words):
    cmd = words[0]
    if cmd == "key":
        keys.key(words[1], int(words[2]))
    elif cmd == "press":
        keys.key(words[1], 1)
        time.sleep(float(words[2]))
        keys.key(words[1], 0)
    elif cmd == "sleep":
        time.sleep(float(words[1]))
    else:
        raise ValueError(f"{cmd}: not a keypad command")


def run(fingers, words):
    if isinstance(fingers, Keys):
        return run_keys(fingers, words)
    cmd, args = words[0], [float(w) for w in words[1:]]
    if fingers is None and cmd not in ("sleep",):
        raise ValueError(f"{cmd}: not a touchscreen")
    if cmd == "tap":
        fingers.down(int(args[0]), int(args[1]), pause=0.05)
        fingers.up()
    elif cmd == "pan":
        x0, y0, x1, y1, n = args[0], args[1], args[2], args[3], int(args[4])
        fingers.down(int(x0), int(y0))
        for i in range(1, n + 1):
            fingers.move(int(x0 + (x1 - x0) * i / n), int(y0 + (y1 - y0) * i / n))
        fingers.up()
    elif cmd == "drag":
        x0, y0, x1, y1, n = args[0], args[1], args[2], args[3], int(args[4])
        fingers.down(int(x0), int(y0))
        for i in range(1, n + 1):
            fingers.move(int(x0 + (x1 - x0) * i / n), int(y0 + (y1 - y0) * i / n))
    elif cmd == "down":
        fingers.down(int(args[0]), int(args[1]))
    elif cmd == "move":
        fingers.move(int(args[0]), int(args[1]))
    elif cmd == "up":
        fingers.up()
    elif cmd == "palm":
        fingers.palm()
    elif cmd == "fingers":
        fingers.fingers(*(int(a) for a in args[:6]))
    elif cmd == "hold":
        fingers.fingers(int(args[0]), int(args[1]), int(args[2]), int(args[3]), 0, 0, hold=args[4])
    elif cmd == "flood":
        fingers.flood(int(args[0]))
    elif cmd == "stream":
        n, pause = int(args[0]), args[1] / 1000
        fingers.times = []
        fingers.down(100, 500, pause=pause)
        for i in range(1, n + 1):
            fingers.move(100 + (i * 7) % 1700, 500 + (i % 2), pause=pause)
        fingers.up()
        print("times " + " ".join(f"{t:.6f}" for t in fingers.times), flush=True)
        fingers.times = None
    elif cmd == "sleep":
        time.sleep(args[0])
    else:
        raise ValueError(f"unknown command {cmd}")


def main():
    kind = sys.argv[1] if len(sys.argv) > 1 else "touchscreen"
    slots = 10
    if kind.startswith("touchscreen:"):
        kind, slots = "touchscreen", int(kind.split(":", 1)[1])
    if kind == "touchscreen":
        device = touchscreen(sys.argv[2] if len(sys.argv) > 2 else "touchd VM touchscreen", slots)
    elif kind == "keyboard":
        device = keyboard()
    elif kind == "keypad":
        device = keypad(sys.argv[2] if len(sys.argv) > 2 else "Kiosk Keypad")
    else:
        sys.exit(f"uinput.py: unknown device kind {kind}")
    phys = sys.argv[3] if kind == "touchscreen" and len(sys.argv) > 3 else None
    uinput_fileobj = uinput_file(phys) if phys else None
    uinput = device.create_uinput_device(uinput_fileobj)
    print("created", uinput.devnode, flush=True)
    fingers = Fingers(uinput) if kind == "touchscreen" else Keys(uinput) if kind == "keypad" else None
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "quit":
            break
        try:
            run(fingers, words)
            print("ok", line.strip(), flush=True)
        except Exception as error:  # report and keep the device: the shell decides what fails
            print("error", line.strip(), error, flush=True)


if __name__ == "__main__":
    main()
