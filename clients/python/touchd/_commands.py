"""The fields of each command, shared by the blocking and the asyncio client."""

from __future__ import annotations

from typing import Any, Dict, Iterable, Mapping, Optional, Sequence, Tuple, Union

from .messages import Point, Size

StrOrList = Union[str, Iterable[str], None]

#: The daemon's default for calibrate's ``timeout`` (seconds).
CALIBRATE_DEFAULT_TIMEOUT = 120.0


def camel(name: str) -> str:
    """``user_interaction_enabled`` -> ``userInteractionEnabled``; a name without ``_`` is kept."""
    if "_" not in name.strip("_"):
        return name
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def _names(value: StrOrList) -> Union[str, list, None]:
    if value is None or isinstance(value, str):
        return value
    return list(value)


def _point_list(point: Any) -> list:
    if isinstance(point, Point):
        return [point.x, point.y]
    if isinstance(point, Mapping):
        return [point["x"], point["y"]]
    x, y = point
    return [x, y]


def _size(size: Any) -> Any:
    if isinstance(size, Size):
        return size.to_json()
    if isinstance(size, Mapping):
        return dict(size)
    if isinstance(size, Sequence) and not isinstance(size, str) and len(size) == 2:
        return {"width": size[0], "height": size[1]}
    return size  # let the daemon say what is wrong with it


def subscribe(
    types: StrOrList = None,
    actions: StrOrList = None,
    views: StrOrList = None,
    overflow: Optional[str] = None,
    coalesced: Optional[bool] = None,
    predicted: Optional[bool] = None,
) -> Tuple[str, Dict[str, Any]]:
    fields: Dict[str, Any] = {}
    for key, value in (("types", types), ("actions", actions), ("views", views)):
        if value is not None:
            fields[key] = _names(value)
    if overflow is not None:
        fields["overflow"] = overflow
    for key, flag in (("coalesced", coalesced), ("predicted", predicted)):
        if flag is not None:
            fields[key] = flag
    return "subscribe", fields


def set_view(view: str, fields: Mapping[str, Any]) -> Tuple[str, Dict[str, Any]]:
    out: Dict[str, Any] = {"view": view}
    for key, value in fields.items():
        out[camel(key)] = value
    return "set", out


def set_window(
    window: str,
    rotation: Optional[int] = None,
    calibration: Optional[Sequence[float]] = None,
    size: Any = None,
    voice_over: Optional[bool] = None,
) -> Tuple[str, Dict[str, Any]]:
    out: Dict[str, Any] = {"window": window}
    if rotation is not None:
        out["rotation"] = rotation
    if calibration is not None:
        out["calibration"] = list(calibration)
    if size is not None:
        out["size"] = _size(size)
    if voice_over is not None:
        out["voiceOver"] = voice_over
    return "set", out


def signature(view: str, clear: bool = False) -> Tuple[str, Dict[str, Any]]:
    return "signature", {"view": view, "do": "clear" if clear else "get"}


def announce(text: str, window: Optional[str] = None) -> Tuple[str, Dict[str, Any]]:
    out: Dict[str, Any] = {"text": text}
    if window is not None:
        out["window"] = window
    return "announce", out


def ignore_interaction(value: bool) -> Tuple[str, Dict[str, Any]]:
    return "ignoreInteraction", {"value": value}


def calibrate(window: str, targets: Iterable[Any], timeout: Optional[float] = None) -> Tuple[str, Dict[str, Any]]:
    out: Dict[str, Any] = {"window": window, "targets": [_point_list(t) for t in targets]}
    if timeout is not None:
        out["timeout"] = timeout
    return "calibrate", out


def calibrate_wait(client_timeout: Optional[float], daemon_timeout: Optional[float]) -> Optional[float]:
    """How long to wait for calibrate's reply: the daemon's timeout plus the client's usual one."""
    if client_timeout is None:
        return None
    return (daemon_timeout if daemon_timeout is not None else CALIBRATE_DEFAULT_TIMEOUT) + client_timeout




def update(
    op: str,
    view: Any = None,
    recognizer: Any = None,
    parent: Optional[str] = None,
    index: Optional[int] = None,
) -> Tuple[str, Dict[str, Any]]:
    """``update``: ``op`` add, replace or remove; ``view`` or ``recognizer`` (an object of the
    scene format for add and replace, an id for remove); ``parent`` and ``index`` for add."""
    fields: Dict[str, Any] = {"op": op}
    if view is not None:
        fields["view"] = dict(view) if isinstance(view, Mapping) else view
    if recognizer is not None:
        fields["recognizer"] = dict(recognizer) if isinstance(recognizer, Mapping) else recognizer
    if parent is not None:
        fields["parent"] = parent
    if index is not None:
        fields["index"] = index
    return "update", fields
