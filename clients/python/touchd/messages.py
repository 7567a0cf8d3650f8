"""Typed messages of the touchd socket protocol (docs/protocol.md, version 1).

Every line the daemon sends becomes one frozen dataclass: :func:`parse_message` picks the class by
the line's ``type``. Keys are turned into snake_case attributes (``numberOfTouches`` is
``number_of_touches``, a trace's ``from`` is ``from_state``); ``{x, y}`` objects become
:class:`Point`. Keys this version does not know are ignored (later daemons may add some) but kept,
with everything else, in each message's ``raw`` dict. A line of an unknown ``type`` becomes
:class:`Unknown`.

Besides the daemon's messages, the clients yield two events of their own, :class:`Reconnected`
and :class:`Missed` (see the README, "Reconnection").

The classes are declared in ``_types.py`` and the parsing in ``_parsing.py``; this module is where
clients import them from.
"""

from __future__ import annotations

from ._parsing import message_from_dict, parse_message
from ._types import (
    Accessibility,
    Signature,
    Stroke,
    StrokePoint,
    Action,
    Calibration,
    Control,
    Error,
    Gap,
    Hello,
    Idle,
    Message,
    Missed,
    Number,
    Point,
    Press,
    Presses,
    Reconnected,
    Reloaded,
    Reply,
    Scroll,
    Shutdown,
    Size,
    TouchPoint,
    Touches,
    TouchSample,
    Trace,
    Unknown,
    Updated,
    Window,
    WindowChanged,
)

__all__ = [
    "Point",
    "Size",
    "Window",
    "TouchPoint",
    "TouchSample",
    "Press",
    "Message",
    "Hello",
    "Action",
    "Touches",
    "Scroll",
    "Control",
    "Presses",
    "Idle",
    "Accessibility",
    "Stroke",
    "StrokePoint",
    "Signature",
    "Trace",
    "Reply",
    "Error",
    "Gap",
    "Reloaded",
    "WindowChanged",
    "Updated",
    "Calibration",
    "Shutdown",
    "Unknown",
    "Reconnected",
    "Missed",
    "Number",
    "PIPELINE_TYPES",
    "SUBSCRIBABLE_TYPES",
    "parse_message",
    "message_from_dict",
]

#: The message types that carry ``seq`` (they share one counter in the daemon).
PIPELINE_TYPES = ("action", "touches", "scroll", "control", "presses", "idle", "accessibility", "stroke", "signature")
#: The types ``subscribe`` takes (the pipeline's and ``trace``, which takes no ``seq``).
SUBSCRIBABLE_TYPES = PIPELINE_TYPES + ("trace",)
