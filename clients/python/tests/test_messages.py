"""parse_message on the lines of docs/protocol.md (no daemon)."""

from __future__ import annotations

import pytest

import touchd
from touchd import Point, parse_message


def test_action_tap():
    line = (
        '{"type":"action","seq":17,"action":"open-door","gesture":"tap","state":"ended","view":"door",'
        '"window":"main","recognizer":"door-tap","time":1234.567891,"location":{"x":250,"y":180},"numberOfTouches":1}'
    )
    m = parse_message(line)
    assert m == touchd.Action(
        seq=17, action="open-door", gesture="tap", view="door", window="main", time=1234.567891, state="ended",
        recognizer="door-tap", location=Point(250, 180), number_of_touches=1,
    )  # fmt: skip
    assert m.type == "action" and m.raw["numberOfTouches"] == 1
    with pytest.raises(AttributeError):
        m.seq = 3  # frozen


def test_action_extras_per_gesture():
    pan = parse_message(
        '{"type":"action","seq":1,"action":"drag","gesture":"pan","state":"changed","view":"v","window":"w",'
        '"time":1,"translation":{"x":3,"y":-4},"velocity":{"x":10.5,"y":0}}'
    )
    assert pan.translation == Point(3, -4) and pan.velocity == Point(10.5, 0)
    pinch = parse_message('{"type":"action","seq":2,"action":"zoom","gesture":"pinch","view":"v","window":"w","time":1,"scale":1.5,"velocity":0.2}')
    assert pinch.scale == 1.5 and pinch.velocity == 0.2
    swipe = parse_message('{"type":"action","seq":3,"action":"s","gesture":"swipe","view":"v","window":"w","time":1,"direction":"left"}')
    assert swipe.direction == "left"
    control = parse_message(
        '{"type":"action","seq":52,"action":"volume","gesture":"control","event":"valueChanged","control":"slider",'
        '"view":"volume","window":"main","time":1234.8,"value":0.42}'
    )
    assert (control.event, control.control, control.value, control.state) == ("valueChanged", "slider", 0.42, None)
    press = parse_message(
        '{"type":"action","seq":71,"action":"confirm","gesture":"tap","state":"ended","view":"panel","window":"main",'
        '"recognizer":"ok","time":1236.3,"location":{"x":640,"y":400},"numberOfTouches":0,"press":"select"}'
    )
    assert press.press == "select" and press.number_of_touches == 0


def test_touches_scroll_control_presses_idle():
    t = parse_message(
        '{"type":"touches","seq":18,"phase":"began","view":"canvas","window":"main","time":1234.6,'
        '"touches":[{"id":7,"view":"canvas-child","phase":"began","x":410,"y":300,"tapCount":1}]}'
    )
    assert t.touches == [touchd.TouchPoint(7, "canvas-child", "began", 410, 300, 1)]
    assert t.touches[0].location == Point(410, 300)
    assert (t.coalesced, t.predicted) == (None, None)
    m = parse_message(
        '{"type":"touches","seq":19,"phase":"moved","view":"canvas","window":"main","time":1234.616,'
        '"touches":[{"id":7,"view":"canvas-child","phase":"moved","x":414,"y":300,"tapCount":1}],'
        '"coalesced":[{"id":7,"x":412,"y":300,"time":1234.608},{"id":7,"x":414,"y":300,"time":1234.616}],'
        '"predicted":[{"id":7,"x":415,"y":300,"time":1234.624},{"id":7,"x":416,"y":300,"time":1234.632}]}'
    )
    assert m.coalesced == [touchd.TouchSample(7, 412, 300, 1234.608), touchd.TouchSample(7, 414, 300, 1234.616)]
    assert m.predicted is not None and [(p.x, p.time) for p in m.predicted] == [(415, 1234.624), (416, 1234.632)]
    assert m.predicted[1].location == Point(416, 300)
    s = parse_message(
        '{"type":"scroll","seq":41,"phase":"willEndDragging","view":"list","window":"main","time":1234.71,'
        '"contentOffset":{"x":0,"y":300},"velocity":{"x":0,"y":1.5},"targetContentOffset":{"x":0,"y":1049.2}}'
    )
    assert (s.content_offset, s.velocity, s.target_content_offset, s.will_decelerate) == (
        Point(0, 300), Point(0, 1.5), Point(0, 1049.2), None,
    )  # fmt: skip
    z = parse_message(
        '{"type":"scroll","seq":43,"phase":"didEndZooming","view":"map","window":"main","time":1235,'
        '"contentOffset":{"x":400,"y":400},"zoomScale":2}'
    )
    assert (z.content_offset, z.zoom_scale) == (Point(400, 400), 2)
    assert s.zoom_scale is None
    pin = parse_message(
        '{"type":"action","seq":44,"action":"open-pin","gesture":"tap","state":"ended","view":"pin","window":"main",'
        '"recognizer":"pin-tap","time":1236,"location":{"x":440,"y":440},"locationInView":{"x":20,"y":20},'
        '"numberOfTouches":1}'
    )
    assert (pin.location, pin.location_in_view) == (Point(440, 440), Point(20, 20))
    zoomed = parse_message(
        '{"type":"touches","seq":45,"phase":"began","view":"photo","window":"main","time":1237,'
        '"touches":[{"id":3,"view":"pin","phase":"began","x":440,"y":440,"tapCount":1,'
        '"locationInView":{"x":20,"y":20}},{"id":4,"view":"map","phase":"began","x":10,"y":10,"tapCount":1}]}'
    )
    assert [(t.location, t.location_in_view) for t in zoomed.touches] == [
        (Point(440, 440), Point(20, 20)),
        (Point(10, 10), None),
    ]
    c = parse_message(
        '{"type":"control","seq":59,"control":"switch","view":"lang","window":"main","time":1235.0,'
        '"enabled":true,"highlighted":false,"selected":false,"on":true}'
    )
    assert (c.control, c.enabled, c.highlighted, c.on, c.value) == ("switch", True, False, True, None)
    dots = parse_message(
        '{"type":"control","seq":64,"control":"pageControl","view":"dots","window":"main","time":1235.4,'
        '"enabled":true,"highlighted":false,"selected":false,"currentPage":2}'
    )
    assert (dots.control, dots.current_page, dots.value, dots.selected_segment_index) == ("pageControl", 2, None, None)
    assert c.current_page is None
    p = parse_message(
        '{"type":"presses","seq":70,"phase":"began","view":"help-panel","window":"main","time":1236.1,'
        '"presses":[{"id":3,"type":"help","key":"KEY_F1","phase":"began"}]}'
    )
    assert p.presses == [touchd.Press(3, "help", "KEY_F1", "began")]
    i = parse_message('{"type":"idle","seq":81,"state":"active","time":1402.7,"lastInput":1402.7,"swallowed":true}')
    assert (i.seq, i.state, i.last_input, i.swallowed) == (81, "active", 1402.7, True)


def test_trace_hello_and_notices():
    tr = parse_message(
        '{"type":"trace","time":1234.612,"event":"recognizer","recognizer":"door-tap","gesture":"tap","view":"door",'
        '"window":"main","from":"possible","to":"failed","cause":"moved 46.2 pt > allowableMovement 45"}'
    )
    assert (tr.event, tr.from_state, tr.to, tr.cause) == ("recognizer", "possible", "failed", "moved 46.2 pt > allowableMovement 45")
    assert not hasattr(tr, "seq")
    h = parse_message(
        '{"type":"hello","version":1,"instance":"5f0c9a3e7d21b486","windows":[{"id":"main","width":1920,"height":1080}],"views":12}'
    )
    assert h == touchd.Hello(1, "5f0c9a3e7d21b486", [touchd.Window("main", 1920, 1080)], 12)
    assert parse_message('{"type":"gap","skipped":12}') == touchd.Gap(12)
    assert parse_message('{"type":"shutdown"}') == touchd.Shutdown()
    r = parse_message('{"type":"reloaded","source":"client","windows":[{"id":"main","width":800,"height":600}],"views":2}')
    assert r == touchd.Reloaded([touchd.Window("main", 800, 600)], 2, "client")
    w = parse_message('{"type":"windowChanged","window":"main","width":1080,"height":1920,"rotation":90,"calibration":[1,0,0,0,1,0]}')
    assert (w.window, w.width, w.height, w.rotation, w.calibration) == ("main", 1080, 1920, 90, [1, 0, 0, 0, 1, 0])
    u = parse_message(
        '{"type":"updated","op":"remove","recognizer":"row-hold","parent":"row","index":1,"views":4,"recognizers":6}'
    )
    assert u == touchd.Updated("remove", "row", 1, 4, 6, None, "row-hold")
    cal = parse_message(
        '{"type":"calibration","window":"main","target":1,"targets":4,"at":{"x":100,"y":100},"touched":{"x":0.05,"y":0.09}}'
    )
    assert (cal.target, cal.targets, cal.at, cal.touched) == (1, 4, Point(100, 100), Point(0.05, 0.09))


def test_reply_and_error():
    r = parse_message('{"type":"reply","id":4,"ok":true,"ignoring":1}')
    assert r == touchd.Reply(4, True, {"ignoring": 1})
    assert r["ignoring"] == 1 and r.get("x") is None and "ignoring" in r
    e = parse_message('{"type":"error","id":null,"message":"access denied"}')
    assert e == touchd.Error(None, "access denied")


def test_unknown_keys_and_types():
    m = parse_message(b'{"type":"gap","skipped":3,"since":99}\n')
    assert m == touchd.Gap(3) and m.raw["since"] == 99
    u = parse_message('{"type":"haptic","strength":2}')
    assert isinstance(u, touchd.Unknown)
    assert (u.type, u.fields) == ("haptic", {"strength": 2})
    for bad in ("not json", "[1]", '"x"'):
        with pytest.raises(touchd.ProtocolError):
            parse_message(bad)
    with pytest.raises(ValueError):  # ProtocolError is a ValueError
        parse_message("{")
