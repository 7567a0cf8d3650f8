"""Exceptions of the touchd client."""

from __future__ import annotations

from typing import Any, Optional

__all__ = ["TouchdError", "ConnectionLost", "ProtocolError"]


class TouchdError(Exception):
    """The daemon answered a command with an error.

    ``message`` is the daemon's message word for word, ``id`` the command's id (None when the
    daemon could not read one), ``cmd`` the command's name when known.
    """

    def __init__(self, message: str, id: Any = None, cmd: Optional[str] = None):
        super().__init__(message)
        self.message = message
        self.id = id
        self.cmd = cmd

    def __repr__(self) -> str:
        return f"TouchdError({self.message!r}, id={self.id!r})"


class ConnectionLost(ConnectionError):
    """The connection closed (or could not be made, with ``reconnect=False``) while a command
    waited for its answer. The command may or may not have taken effect: it is not sent again."""


class ProtocolError(ValueError):
    """The daemon sent something this client cannot read (not a JSON object, no hello)."""
