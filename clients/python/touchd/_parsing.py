"""Parsing the daemon's lines into the typed messages (messages.py is the public module)."""

from __future__ import annotations

import json
from typing import Any, Callable, Dict, List, Mapping, Optional, Union

from ._types import (
    Accessibility,
    Action,
    Calibration,
    Control,
    Error,
    Gap,
    Hello,
    Idle,
    Message,
    Point,
    Press,
    Presses,
    Reloaded,
    Reply,
    Scroll,
    Shutdown,
    Signature,
    Stroke,
    StrokePoint,
    TouchPoint,
    TouchSample,
    Touches,
    Trace,
    Unknown,
    Updated,
    Window,
    WindowChanged,
)
from .errors import ProtocolError


# Parsing


def _point(value: Any) -> Optional[Point]:
    if isinstance(value, Mapping) and "x" in value and "y" in value:
        return Point(value["x"], value["y"])
    return None


def _point_or_number(value: Any) -> Union[Point, float, None]:
    if isinstance(value, Mapping):
        return _point(value)
    return value  # type: ignore[no-any-return]


def _windows(value: Any) -> List[Window]:
    if not isinstance(value, list):
        return []
    return [
        Window(w.get("id"), w.get("width"), w.get("height")) for w in value if isinstance(w, Mapping)
    ]


def _touch(value: Mapping[str, Any]) -> TouchPoint:
    return TouchPoint(
        id=value.get("id"),  # type: ignore[arg-type]
        view=value.get("view"),
        phase=value.get("phase"),  # type: ignore[arg-type]
        x=value.get("x"),  # type: ignore[arg-type]
        y=value.get("y"),  # type: ignore[arg-type]
        tap_count=value.get("tapCount"),
        location_in_view=_point(value.get("locationInView")),
        type=value.get("type"),
        force=value.get("force") if value.get("altitudeAngle") is not None else None,
        altitude_angle=value.get("altitudeAngle"),
        azimuth_angle=value.get("azimuthAngle"),
        eraser=bool(value.get("eraser", False)),
    )


def _sample(value: Mapping[str, Any]) -> TouchSample:
    return TouchSample(id=value.get("id"), x=value.get("x"), y=value.get("y"), time=value.get("time"))  # type: ignore[arg-type]


def _samples(value: Any) -> Optional[List[TouchSample]]:
    return None if value is None else _list_of(value, _sample)


def _press(value: Mapping[str, Any]) -> Press:
    return Press(id=value.get("id"), type=value.get("type"), key=value.get("key"), phase=value.get("phase"))  # type: ignore[arg-type]


def _list_of(value: Any, convert: Callable[[Mapping[str, Any]], Any]) -> List[Any]:
    if not isinstance(value, list):
        return []
    return [convert(item) for item in value if isinstance(item, Mapping)]


def _hello(d: Dict[str, Any]) -> Hello:
    return Hello(d.get("version"), d.get("instance"), _windows(d.get("windows")), d.get("views"), d)  # type: ignore[arg-type]


def _action(d: Dict[str, Any]) -> Action:
    g = d.get
    return Action(
        seq=g("seq"), action=g("action"), gesture=g("gesture"), view=g("view"), window=g("window"),  # type: ignore[arg-type]
        time=g("time"), state=g("state"), recognizer=g("recognizer"), location=_point(g("location")),  # type: ignore[arg-type]
        location_in_view=_point(g("locationInView")), number_of_touches=g("numberOfTouches"), translation=_point(g("translation")),
        velocity=_point_or_number(g("velocity")), scale=g("scale"), rotation=g("rotation"),
        direction=g("direction"), z_offset=g("zOffset"), altitude_angle=g("altitudeAngle"),
        azimuth_angle=g("azimuthAngle"), event=g("event"), control=g("control"), value=g("value"),
        press=g("press"), raw=d,
    )  # fmt: skip


def _touches(d: Dict[str, Any]) -> Touches:
    g = d.get
    return Touches(
        seq=g("seq"), phase=g("phase"), view=g("view"), window=g("window"), time=g("time"),  # type: ignore[arg-type]
        touches=_list_of(g("touches"), _touch), coalesced=_samples(g("coalesced")),
        predicted=_samples(g("predicted")), raw=d,
    )  # fmt: skip


def _scroll(d: Dict[str, Any]) -> Scroll:
    g = d.get
    return Scroll(
        seq=g("seq"), phase=g("phase"), view=g("view"), window=g("window"), time=g("time"),  # type: ignore[arg-type]
        content_offset=_point(g("contentOffset")), velocity=_point(g("velocity")),
        target_content_offset=_point(g("targetContentOffset")), will_decelerate=g("willDecelerate"),
        zoom_scale=g("zoomScale"), raw=d,
    )  # fmt: skip


def _control(d: Dict[str, Any]) -> Control:
    g = d.get
    return Control(
        seq=g("seq"), control=g("control"), view=g("view"), window=g("window"), time=g("time"),  # type: ignore[arg-type]
        enabled=g("enabled"), highlighted=g("highlighted"), selected=g("selected"), on=g("on"),
        value=g("value"), selected_segment_index=g("selectedSegmentIndex"), current_page=g("currentPage"), raw=d,
    )  # fmt: skip


def _presses(d: Dict[str, Any]) -> Presses:
    g = d.get
    return Presses(
        seq=g("seq"), phase=g("phase"), view=g("view"), window=g("window"), time=g("time"),  # type: ignore[arg-type]
        presses=_list_of(g("presses"), _press), raw=d,
    )  # fmt: skip


def _idle(d: Dict[str, Any]) -> Idle:
    g = d.get
    return Idle(seq=g("seq"), state=g("state"), time=g("time"), last_input=g("lastInput"), swallowed=g("swallowed"), raw=d)  # type: ignore[arg-type]


def _accessibility(d: Dict[str, Any]) -> Accessibility:
    g = d.get
    return Accessibility(
        seq=g("seq"), event=g("event"), window=g("window"), time=g("time"), view=g("view"),  # type: ignore[arg-type]
        segment=g("segment"), label=g("label"), value=g("value"), traits=g("traits"), spoken=g("spoken"),
        on=g("on"), raw=d,
    )  # fmt: skip


def _trace(d: Dict[str, Any]) -> Trace:
    g = d.get
    return Trace(
        time=g("time"), event=g("event"), recognizer=g("recognizer"), gesture=g("gesture"),  # type: ignore[arg-type]
        view=g("view"), window=g("window"), from_state=g("from"), to=g("to"), cause=g("cause"),
        requirement=g("requirement"), touch=g("touch"), location=_point(g("location")),
        tap_count=g("tapCount"), recognizers=g("recognizers"), notes=g("notes"), reason=g("reason"),
        phase=g("phase"), by=g("by"), fingers=g("fingers"), direction=g("direction"), raw=d,
    )  # fmt: skip


def _stroke_point(value: Mapping[str, Any]) -> StrokePoint:
    return StrokePoint(
        x=value.get("x"), y=value.get("y"), time=value.get("time"), force=value.get("force"),  # type: ignore[arg-type]
        altitude_angle=value.get("altitudeAngle"), azimuth_angle=value.get("azimuthAngle"),
    )  # fmt: skip


def _points(value: Any) -> List[StrokePoint]:
    return [_stroke_point(p) for p in value or [] if isinstance(p, Mapping)]


def _stroke(d: Dict[str, Any]) -> Stroke:
    g = d.get
    return Stroke(
        seq=g("seq"), view=g("view"), window=g("window"), time=g("time"),  # type: ignore[arg-type]
        touch_type=g("touchType"), points=_points(g("points")), raw=d,  # type: ignore[arg-type]
    )  # fmt: skip


def _signature(d: Dict[str, Any]) -> Signature:
    g = d.get
    strokes = [(s.get("touchType"), _points(s.get("points"))) for s in g("strokes") or [] if isinstance(s, Mapping)]
    return Signature(
        seq=g("seq"), view=g("view"), window=g("window"), time=g("time"), strokes=strokes,  # type: ignore[arg-type]
        bounds=g("bounds"), duration=g("duration"), raw=d,  # type: ignore[arg-type]
    )  # fmt: skip


def _reply(d: Dict[str, Any]) -> Reply:
    fields = {k: v for k, v in d.items() if k not in ("type", "id", "ok")}
    return Reply(id=d.get("id"), ok=bool(d.get("ok", True)), fields=fields, raw=d)


def _error(d: Dict[str, Any]) -> Error:
    return Error(id=d.get("id"), message=str(d.get("message", "")), raw=d)


def _gap(d: Dict[str, Any]) -> Gap:
    return Gap(skipped=d.get("skipped"), raw=d)  # type: ignore[arg-type]


def _reloaded(d: Dict[str, Any]) -> Reloaded:
    return Reloaded(windows=_windows(d.get("windows")), views=d.get("views"), source=d.get("source"), raw=d)


def _window_changed(d: Dict[str, Any]) -> WindowChanged:
    g = d.get
    return WindowChanged(
        window=g("window"), width=g("width"), height=g("height"), rotation=g("rotation"),  # type: ignore[arg-type]
        calibration=g("calibration"), raw=d,
    )  # fmt: skip


def _updated(d: Dict[str, Any]) -> Updated:
    g = d.get
    return Updated(
        op=g("op"), parent=g("parent"), index=g("index"), views=g("views"),  # type: ignore[arg-type]
        recognizers=g("recognizers"), view=g("view"), recognizer=g("recognizer"), raw=d,  # type: ignore[arg-type]
    )  # fmt: skip


def _calibration(d: Dict[str, Any]) -> Calibration:
    g = d.get
    return Calibration(
        window=g("window"), target=g("target"), targets=g("targets"), at=_point(g("at")),  # type: ignore[arg-type]
        touched=_point(g("touched")), raw=d,
    )  # fmt: skip


def _shutdown(d: Dict[str, Any]) -> Shutdown:
    return Shutdown(raw=d)


_PARSERS: Dict[str, Callable[[Dict[str, Any]], Message]] = {
    "hello": _hello,
    "action": _action,
    "touches": _touches,
    "scroll": _scroll,
    "control": _control,
    "presses": _presses,
    "idle": _idle,
    "accessibility": _accessibility,
    "stroke": _stroke,
    "signature": _signature,
    "trace": _trace,
    "reply": _reply,
    "error": _error,
    "gap": _gap,
    "reloaded": _reloaded,
    "windowChanged": _window_changed,
    "updated": _updated,
    "calibration": _calibration,
    "shutdown": _shutdown,
}


def message_from_dict(obj: Dict[str, Any]) -> Message:
    """The typed message for one decoded JSON object of the daemon."""
    kind = obj.get("type")
    parser = _PARSERS.get(kind) if isinstance(kind, str) else None
    if parser is None:
        return Unknown(type=kind if isinstance(kind, str) else "", fields={k: v for k, v in obj.items() if k != "type"}, raw=obj)
    return parser(obj)


def parse_message(line: Union[str, bytes, bytearray]) -> Message:
    """Parses one line of the daemon (with or without its newline) into a typed message.

    Raises :class:`touchd.ProtocolError` (a ``ValueError``) for a line that is not a JSON object.
    """
    try:
        obj = json.loads(line)
    except (ValueError, UnicodeDecodeError) as error:
        raise ProtocolError(f"not a JSON line from touchd: {error}: {line[:200]!r}") from None
    if not isinstance(obj, dict):
        raise ProtocolError(f"not a JSON object from touchd: {line[:200]!r}")
    return message_from_dict(obj)
