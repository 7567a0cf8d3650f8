"""The protocol's value types and message classes (messages.py is the public module)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, Dict, List, Optional, Tuple, Union

Number = Union[int, float]


# Value types


@dataclass(frozen=True)
class Point:
    """A point (window points unless a field says otherwise), or a 2-D vector."""

    x: float
    y: float

    def to_json(self) -> Dict[str, float]:
        return {"x": self.x, "y": self.y}


@dataclass(frozen=True)
class Size:
    width: float
    height: float

    def to_json(self) -> Dict[str, float]:
        return {"width": self.width, "height": self.height}


@dataclass(frozen=True)
class Window:
    """A window as ``hello`` and ``reloaded`` list it."""

    id: str
    width: float
    height: float


@dataclass(frozen=True)
class TouchPoint:
    """One touch of a ``touches`` message."""

    id: int
    view: Optional[str]
    phase: str
    x: float
    y: float
    tap_count: Optional[int] = None
    #: The location in ``view``'s own points, for a view inside zoomed content (else None).
    location_in_view: Optional[Point] = None
    #: ``direct`` (a finger) or ``pencil`` (a pen's tip; docs/pens.md); None from older daemons.
    type: Optional[str] = None
    #: A pencil's pressure, 0 to 4.166667 (UIKit's maximumPossibleForce); None for a finger.
    force: Optional[float] = None
    #: A pencil's angles, radians: altitude (pi/2 perpendicular) and azimuth in the window.
    altitude_angle: Optional[float] = None
    azimuth_angle: Optional[float] = None
    #: The pen's eraser end.
    eraser: bool = False

    @property
    def location(self) -> Point:
        return Point(self.x, self.y)


@dataclass(frozen=True)
class TouchSample:
    """One position of a touch at a time: an entry of a ``touches`` message's ``coalesced`` (a
    kernel frame) or ``predicted`` (a prediction) list."""

    id: int
    x: float
    y: float
    time: float

    @property
    def location(self) -> Point:
        return Point(self.x, self.y)


@dataclass(frozen=True)
class Press:
    """One press of a ``presses`` message."""

    id: int
    type: Optional[str]
    key: Optional[str]
    phase: str


# Messages


class Message:
    """Base class of every message and event a client yields.

    ``type`` is the protocol's ``type`` string (a class attribute, except on :class:`Unknown`);
    ``raw`` is the line's JSON object as received (empty for the client's own events).
    """

    type: ClassVar[str]
    raw: Dict[str, Any]

    def __repr__(self) -> str:
        # The fields that are set: an action has many optional ones, each for a few gestures.
        parts = [
            f"{f.name}={getattr(self, f.name)!r}"
            for f in fields(self)  # type: ignore[arg-type]
            if f.repr and getattr(self, f.name) is not None
        ]
        return f"{type(self).__name__}({', '.join(parts)})"


_RAW = dict(default_factory=dict, repr=False, compare=False, hash=False)


@dataclass(frozen=True, repr=False)
class Hello(Message):
    """The first line of every connection."""

    type: ClassVar[str] = "hello"
    version: int
    instance: Optional[str]
    windows: List[Window]
    views: Optional[int] = None
    raw: Dict[str, Any] = field(**_RAW)  # type: ignore[call-overload]


@dataclass(frozen=True, repr=False)
class Action(Message):
    """A recognizer fired (or a control sent an event: ``gesture == "control"``).

    Per gesture only some of the optional fields are set: ``translation`` and ``velocity``
    (a :class:`Point`) for pan and screenEdgePan; ``scale`` and ``velocity`` (a number) for pinch;
    ``rotation`` and ``velocity`` for rotation; ``direction`` for swipe; ``z_offset``,
    ``altitude_angle`` and ``azimuth_angle`` for hover (a pen); ``event``, ``control``
    and ``value`` for controls; ``press`` for a press-recognizing tap or long press.
    """

    type: ClassVar[str] = "action"
    seq: int
    action: str
    gesture: str
    view: Optional[str]
    window: Optional[str]
    time: float
    state: Optional[str] = None
    recognizer: Optional[str] = None
    location: Optional[Point] = None
    location_in_view: Optional[Point] = None
    number_of_touches: Optional[int] = None
    translation: Optional[Point] = None
    velocity: Union[Point, float, None] = None
    scale: Optional[float] = None
    rotation: Optional[float] = None
    direction: Optional[str] = None
    z_offset: Optional[float] = None
    altitude_angle: Optional[float] = None
    azimuth_angle: Optional[float] = None
    event: Optional[str] = None
    control: Optional[str] = None
    value: Union[bool, float, int, None] = None
    press: Optional[str] = None
    raw: Dict[str, Any] = field(**_RAW)  # type: ignore[call-overload]


@dataclass(frozen=True, repr=False)
class Touches(Message):
    """One touches call of a view with ``touches: true``."""

    type: ClassVar[str] = "touches"
    seq: int
    phase: str
    view: Optional[str]
    window: Optional[str]
    time: float
    touches: List[TouchPoint]
    # Present when the client subscribed with coalesced / predicted (docs/protocol.md).
    coalesced: Optional[List[TouchSample]] = None
    predicted: Optional[List[TouchSample]] = None
    raw: Dict[str, Any] = field(**_RAW)  # type: ignore[call-overload]


@dataclass(frozen=True, repr=False)
class Scroll(Message):
    """A scroll view's delegate callback, named by ``phase`` (``didScroll``, ...)."""

    type: ClassVar[str] = "scroll"
    seq: int
    phase: str
    view: Optional[str]
    window: Optional[str]
    time: float
    content_offset: Optional[Point] = None
    velocity: Optional[Point] = None
    target_content_offset: Optional[Point] = None
    will_decelerate: Optional[bool] = None
    zoom_scale: Optional[float] = None
    raw: Dict[str, Any] = field(**_RAW)  # type: ignore[call-overload]


@dataclass(frozen=True, repr=False)
class Control(Message):
    """A control's visible state after it changed."""

    type: ClassVar[str] = "control"
    seq: int
    control: str
    view: Optional[str]
    window: Optional[str]
    time: float
    enabled: Optional[bool] = None
    highlighted: Optional[bool] = None
    selected: Optional[bool] = None
    on: Optional[bool] = None
    value: Optional[float] = None
    selected_segment_index: Optional[int] = None
    current_page: Optional[int] = None
    raw: Dict[str, Any] = field(**_RAW)  # type: ignore[call-overload]


@dataclass(frozen=True, repr=False)
class Presses(Message):
    """One presses call of a view with ``presses: true``."""

    type: ClassVar[str] = "presses"
    seq: int
    phase: str
    view: Optional[str]
    window: Optional[str]
    time: float
    presses: List[Press]
    raw: Dict[str, Any] = field(**_RAW)  # type: ignore[call-overload]


@dataclass(frozen=True, repr=False)
class Idle(Message):
    """The scene went idle or became active again."""

    type: ClassVar[str] = "idle"
    seq: int
    state: str
    time: float
    last_input: Optional[float] = None
    swallowed: Optional[bool] = None
    raw: Dict[str, Any] = field(**_RAW)  # type: ignore[call-overload]


@dataclass(frozen=True, repr=False)
class Accessibility(Message):
    """What VoiceOver did in a window: ``event`` is focus, activate, adjust, scroll, announce, pause, resume, readAll, escape, magicTap, passthrough, boundary, position or voiceOver (``on``)."""

    type: ClassVar[str] = "accessibility"
    seq: int
    event: str
    window: str
    time: float
    view: Optional[str] = None
    segment: Optional[int] = None
    label: Optional[str] = None
    value: Optional[str] = None
    traits: Optional[List[str]] = None
    spoken: Optional[str] = None
    on: Optional[bool] = None
    raw: Dict[str, Any] = field(**_RAW)  # type: ignore[call-overload]


@dataclass(frozen=True)
class StrokePoint:
    """A kernel frame of a signature stroke, in the signature view's points (docs/pens.md)."""

    x: float
    y: float
    time: float
    #: A pencil's force and angles; None for a finger.
    force: Optional[float] = None
    altitude_angle: Optional[float] = None
    azimuth_angle: Optional[float] = None


@dataclass(frozen=True, repr=False)
class Stroke(Message):
    """A stroke on a signature view ended: a point per kernel frame (``touch_type`` pencil or direct)."""

    type: ClassVar[str] = "stroke"
    seq: int
    view: str
    window: str
    time: float
    touch_type: str
    points: List[StrokePoint]
    raw: Dict[str, Any] = field(**_RAW)  # type: ignore[call-overload]


@dataclass(frozen=True, repr=False)
class Signature(Message):
    """A signature view's signature, as a client asked for it: its strokes (each ``(touch_type, points)``),
    the rectangle around them (None without strokes) and the seconds from the first point to the last."""

    type: ClassVar[str] = "signature"
    seq: int
    view: str
    window: str
    time: float
    strokes: List[Tuple[str, List[StrokePoint]]]
    bounds: Optional[Dict[str, float]]
    duration: float
    raw: Dict[str, Any] = field(**_RAW)  # type: ignore[call-overload]


@dataclass(frozen=True, repr=False)
class Trace(Message):
    """One step of delivery and arbitration (``event``); takes no ``seq``.

    The fields set depend on ``event`` (docs/protocol.md, "Trace"); ``from_state`` is the
    protocol's ``from``. A ``voiceOverGesture`` sets ``gesture`` (VoiceOver's: ``doubleTap``,
    ``flick``, ...), ``fingers``, ``direction`` (a flick's) and ``window``.
    """

    type: ClassVar[str] = "trace"
    time: float
    event: str
    recognizer: Optional[str] = None
    gesture: Optional[str] = None
    view: Optional[str] = None
    window: Optional[str] = None
    from_state: Optional[str] = None
    to: Optional[str] = None
    cause: Optional[str] = None
    requirement: Optional[str] = None
    touch: Optional[int] = None
    location: Optional[Point] = None
    tap_count: Optional[int] = None
    recognizers: Optional[List[str]] = None
    notes: Optional[List[str]] = None
    reason: Optional[str] = None
    phase: Optional[str] = None
    by: Union[List[str], str, None] = None
    fingers: Optional[int] = None
    direction: Optional[str] = None
    raw: Dict[str, Any] = field(**_RAW)  # type: ignore[call-overload]


@dataclass(frozen=True, repr=False)
class Reply(Message):
    """A command's success: its fields besides ``type``, ``id`` and ``ok`` are in ``fields``.

    ``reply["types"]`` and ``reply.get("types")`` read them.
    """

    type: ClassVar[str] = "reply"
    id: Any
    ok: bool = True
    fields: Dict[str, Any] = field(default_factory=dict)
    raw: Dict[str, Any] = field(**_RAW)  # type: ignore[call-overload]

    def __getitem__(self, key: str) -> Any:
        return self.fields[key]

    def __contains__(self, key: object) -> bool:
        return key in self.fields

    def get(self, key: str, default: Any = None) -> Any:
        return self.fields.get(key, default)


@dataclass(frozen=True, repr=False)
class Error(Message):
    """A command's failure (the commands raise it as :class:`touchd.TouchdError`)."""

    type: ClassVar[str] = "error"
    id: Any
    message: str
    raw: Dict[str, Any] = field(**_RAW)  # type: ignore[call-overload]


@dataclass(frozen=True, repr=False)
class Gap(Message):
    """The daemon dropped ``skipped`` messages for this client (it subscribed with
    ``overflow="skip"`` and fell behind)."""

    type: ClassVar[str] = "gap"
    skipped: int
    raw: Dict[str, Any] = field(**_RAW)  # type: ignore[call-overload]


@dataclass(frozen=True, repr=False)
class Reloaded(Message):
    """The scene was replaced: ``source`` "file" (SIGHUP, ``reload``) or "client" (a client's
    ``scene`` command); None from a daemon that does not say."""

    type: ClassVar[str] = "reloaded"
    windows: List[Window]
    views: Optional[int] = None
    source: Optional[str] = None
    raw: Dict[str, Any] = field(**_RAW)  # type: ignore[call-overload]


@dataclass(frozen=True, repr=False)
class WindowChanged(Message):
    """A client's ``set`` changed a window's rotation, calibration or size."""

    type: ClassVar[str] = "windowChanged"
    window: str
    width: float
    height: float
    rotation: Optional[int] = None
    calibration: Optional[List[float]] = None
    raw: Dict[str, Any] = field(**_RAW)  # type: ignore[call-overload]


@dataclass(frozen=True, repr=False)
class Updated(Message):
    """A client's ``update`` changed one view subtree (``view``) or one recognizer (``recognizer``)
    of the scene: ``op`` add, replace or remove, where (``parent``, ``index``), and the scene's
    counts now."""

    type: ClassVar[str] = "updated"
    op: str
    parent: str
    index: int
    views: int
    recognizers: int
    view: Optional[str] = None
    recognizer: Optional[str] = None
    raw: Dict[str, Any] = field(**_RAW)  # type: ignore[call-overload]


@dataclass(frozen=True, repr=False)
class Calibration(Message):
    """A running ``calibrate`` collected target ``target`` of ``targets``."""

    type: ClassVar[str] = "calibration"
    window: str
    target: int
    targets: int
    at: Optional[Point] = None
    touched: Optional[Point] = None
    raw: Dict[str, Any] = field(**_RAW)  # type: ignore[call-overload]


@dataclass(frozen=True, repr=False)
class Shutdown(Message):
    """The daemon is stopping; the connection closes after it."""

    type: ClassVar[str] = "shutdown"
    raw: Dict[str, Any] = field(**_RAW)  # type: ignore[call-overload]


@dataclass(frozen=True, repr=False)
class Unknown(Message):
    """A message of a type this version does not know: its ``type`` and other keys."""

    type: str  # type: ignore[misc]
    fields: Dict[str, Any] = field(default_factory=dict)
    raw: Dict[str, Any] = field(**_RAW)  # type: ignore[call-overload]


# The client's own events


@dataclass(frozen=True, repr=False)
class Reconnected(Message):
    """The client lost its connection and made a new one (yielded once it re-subscribed).

    ``restarted`` is True when the daemon is another run (``hello.instance`` changed): its ``seq``
    started again at 1 and what the old one published after the last message seen is unknown.
    When the instance is the same, a :class:`Missed` event follows, just before the first message
    that carries a ``seq``. ``resubscribe_error`` is the daemon's error message if the last
    ``subscribe`` could not be sent again (the daemon's default filter is then in effect).
    """

    type: ClassVar[str] = "reconnected"
    restarted: bool
    instance: Optional[str]
    previous_instance: Optional[str]
    hello: Hello
    last_seq: Optional[int] = None
    attempts: int = 1
    resubscribe_error: Optional[str] = None
    raw: Dict[str, Any] = field(**_RAW)  # type: ignore[call-overload]


@dataclass(frozen=True, repr=False)
class Missed(Message):
    """Messages missed while disconnected from the same daemon instance, from ``seq``.

    ``count = seq - last_seq - 1``: ``last_seq`` is the last ``seq`` seen before the connection
    dropped, ``seq`` the first one after the reconnection. Exact (``exact`` True) when the client
    is subscribed to every pipeline type without ``actions`` or ``views`` filters; otherwise an
    upper bound, since ``seq`` also counts messages the filter would not have sent.
    """

    type: ClassVar[str] = "missed"
    count: int
    last_seq: int
    seq: int
    exact: bool
    raw: Dict[str, Any] = field(**_RAW)  # type: ignore[call-overload]
