"""A client of touchd, the touchscreen gesture daemon (docs/protocol.md).

Blocking::

    import touchd
    with touchd.Client() as client:
        client.subscribe(types=["action"])
        for message in client:
            if isinstance(message, touchd.Action):
                print(message.action, message.view)

asyncio: ``touchd.aio.Client`` has the same methods as coroutines and ``async for``.
"""

from . import aio
from ._core import DEFAULT_SOCKET, Backoff, Session, default_socket_path, encode_command
from .client import Client
from .errors import ConnectionLost, ProtocolError, TouchdError
from .messages import (
    PIPELINE_TYPES,
    SUBSCRIBABLE_TYPES,
    Action,
    Calibration,
    Control,
    Error,
    Gap,
    Hello,
    Idle,
    Accessibility,
    Signature,
    Stroke,
    StrokePoint,
    Message,
    Missed,
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
    TouchSample,
    Touches,
    Trace,
    Unknown,
    Window,
    WindowChanged,
    Updated,
    message_from_dict,
    parse_message,
)

__version__ = "0.9.0"

__all__ = [
    "aio",
    "Client",
    "Backoff",
    "Session",
    "DEFAULT_SOCKET",
    "default_socket_path",
    "encode_command",
    "TouchdError",
    "ConnectionLost",
    "ProtocolError",
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
    "Point",
    "Size",
    "Window",
    "TouchPoint",
    "TouchSample",
    "Press",
    "PIPELINE_TYPES",
    "SUBSCRIBABLE_TYPES",
    "parse_message",
    "message_from_dict",
]
