"""The protocol logic both clients share, without any I/O ("sans-IO").

:class:`Session` is fed the bytes read from the socket and told when a connection is made or
lost; it says what to deliver to the user (messages and the client's own events), which command
got which answer, and which bytes to write. The blocking client (:mod:`touchd.client`) and the
asyncio client (:mod:`touchd.aio`) only move bytes and wait.

What it does:

- frames lines and parses them into typed messages;
- numbers commands (``id`` 1, 2, ...) and matches answers to them; an answer to no known
  command is delivered as a message;
- keeps the last successful ``subscribe`` and sends it again after a reconnection, dropping the
  pipeline messages that arrive before its reply (they came under the daemon's default filter);
- tells a reconnection (:class:`~touchd.messages.Reconnected`) and the messages missed in between
  (:class:`~touchd.messages.Missed`, from ``seq``);
- fails the commands in flight when the connection is lost (:class:`~touchd.errors.ConnectionLost`);
- computes the backoff delays between connection attempts.
"""

from __future__ import annotations

import json
import logging
import os
import random
from dataclasses import dataclass
from typing import Any, Dict, List, Mapping, NamedTuple, Optional, Union

from .errors import ConnectionLost, ProtocolError, TouchdError
from .messages import (
    PIPELINE_TYPES,
    Error,
    Hello,
    Message,
    Missed,
    Reconnected,
    Reply,
    message_from_dict,
)

__all__ = ["Backoff", "Session", "Deliver", "Answer", "Refused", "default_socket_path", "encode_command"]

log = logging.getLogger("touchd")

#: The daemon's default socket.
DEFAULT_SOCKET = "/run/touchd/touchd.sock"


def default_socket_path() -> str:
    """``$TOUCHD_SOCKET``, else ``/run/touchd/touchd.sock`` (as ``touchctl``)."""
    return os.environ.get("TOUCHD_SOCKET") or DEFAULT_SOCKET


@dataclass(frozen=True)
class Backoff:
    """Delays between connection attempts: ``initial`` seconds after the first failure (or a lost
    connection), times ``factor`` after each further failure, at most ``maximum``, each varied
    by up to ``jitter`` (a fraction: 0.2 is ±20 %) so that many clients do not retry in step."""

    initial: float = 0.05
    maximum: float = 2.0
    factor: float = 2.0
    jitter: float = 0.2

    def delay(self, failures: int, rng: Optional[random.Random] = None) -> float:
        """The delay before the attempt that follows ``failures`` failed ones (0: none yet)."""
        if failures <= 0:
            return 0.0
        base = min(self.maximum, self.initial * self.factor ** min(failures - 1, 64))
        spread = self.jitter * (2.0 * (rng or random).random() - 1.0)
        return max(0.0, min(self.maximum, base * (1.0 + spread)))


class Deliver(NamedTuple):
    """A message or event for the user's iterator."""

    message: Message


class Answer(NamedTuple):
    """The answer to command ``id``: a Reply, or the exception to raise."""

    id: int
    result: Union[Reply, BaseException]


class Refused(NamedTuple):
    """The daemon sent an error instead of ``hello`` (access denied, too many clients) and closes
    the connection. ``retry``: worth trying again later."""

    error: TouchdError
    retry: bool


Event = Union[Deliver, Answer, Refused]


def _json_default(value: Any) -> Any:
    to_json = getattr(value, "to_json", None)
    if callable(to_json):
        return to_json()
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


def encode_command(cmd: str, id: Any, fields: Mapping[str, Any]) -> bytes:
    """One command line: ``{"cmd":..,"id":..,...fields}`` and a newline (compact, UTF-8, no NaN)."""
    obj: Dict[str, Any] = {"cmd": cmd, "id": id}
    for key, value in fields.items():
        if key in ("cmd", "id"):
            raise ValueError(f"'{key}' is set by the client, not a command field")
        obj[key] = value
    text = json.dumps(obj, separators=(",", ":"), ensure_ascii=False, allow_nan=False, default=_json_default)
    return text.encode("utf-8") + b"\n"


class _Pending:
    __slots__ = ("cmd", "fields", "internal", "abandoned")

    def __init__(self, cmd: str, fields: Dict[str, Any], internal: bool):
        self.cmd = cmd
        self.fields = fields
        self.internal = internal
        self.abandoned = False


# Connection states
DISCONNECTED = "disconnected"
AWAIT_HELLO = "await-hello"
RESUBSCRIBING = "resubscribing"
READY = "ready"


class Session:
    """The state of one client across its connections. Not thread-safe: the blocking client
    calls it under its lock, the asyncio client from its loop."""

    def __init__(self, backoff: Optional[Backoff] = None):
        self.backoff = backoff or Backoff()
        self.state = DISCONNECTED
        self.hello: Optional[Hello] = None
        #: Connections that reached hello (1 after the first).
        self.connections = 0
        #: Failed attempts since the last hello (connect errors, refusals, lost connections).
        self.failures = 0
        self._buffer = bytearray()
        self._out = bytearray()
        self._next_id = 1
        self._pending: Dict[int, _Pending] = {}
        #: The fields of the last successful subscribe, sent again after a reconnection.
        self.subscription: Optional[Dict[str, Any]] = None
        #: Whether the effective filter is "every pipeline type, no actions/views filter".
        self._exact = False
        self._resubscribe_id: Optional[int] = None
        self._reconnected: Optional[Reconnected] = None
        # seq accounting
        self._seq_instance: Optional[str] = None
        self.last_seq: Optional[int] = None
        self._missed_from: Optional[int] = None
        self._attempts_since_hello = 0

    # Connection life

    @property
    def can_send(self) -> bool:
        """Commands may be sent: hello arrived on the current connection."""
        return self.state in (RESUBSCRIBING, READY)

    @property
    def connected(self) -> bool:
        return self.state != DISCONNECTED

    def reconnect_delay(self, rng: Optional[random.Random] = None) -> float:
        """Seconds to wait before the next connection attempt."""
        return self.backoff.delay(self.failures, rng)

    def connection_made(self) -> None:
        """A socket connected: the daemon's hello comes next."""
        self.state = AWAIT_HELLO
        self._buffer.clear()
        self._out.clear()
        self._attempts_since_hello += 1

    def attempt_failed(self) -> None:
        """A connection attempt failed (the socket could not be opened, or no hello came)."""
        if self.state != DISCONNECTED:
            self._drop()
        else:
            self._attempts_since_hello += 1
        self.failures += 1

    def connection_lost(self) -> List[Event]:
        """The connection closed: the commands in flight fail with ConnectionLost."""
        if self.state == DISCONNECTED:
            return []
        had_hello = self.can_send
        events = self._drop()
        if had_hello:
            self.failures = 1  # the next attempt waits backoff.initial
        else:
            self.failures += 1
        return events

    def _drop(self) -> List[Event]:
        events: List[Event] = []
        for id, pending in self._pending.items():
            if not pending.internal and not pending.abandoned:
                events.append(
                    Answer(id, ConnectionLost(f"the connection to touchd closed before the answer to '{pending.cmd}' (id {id})"))
                )
        self._pending.clear()
        self._resubscribe_id = None
        self._reconnected = None
        self._buffer.clear()
        self._out.clear()
        self.state = DISCONNECTED
        return events

    # Commands

    def command(self, cmd: str, fields: Optional[Mapping[str, Any]] = None, *, internal: bool = False) -> int:
        """Queues a command for sending (see :meth:`data_to_send`); returns its id."""
        if not self.can_send:
            raise ConnectionLost("not connected to touchd")
        fields = dict(fields or {})
        id = self._next_id
        line = encode_command(cmd, id, fields)  # may raise ValueError/TypeError: nothing registered
        self._next_id += 1
        self._pending[id] = _Pending(cmd, fields, internal)
        self._out += line
        return id

    def abandon(self, id: int) -> None:
        """The caller of command ``id`` stopped waiting: its answer will be dropped."""
        pending = self._pending.get(id)
        if pending is not None:
            pending.abandoned = True

    def data_to_send(self) -> bytes:
        data = bytes(self._out)
        self._out.clear()
        return data

    # Input

    def receive(self, data: bytes) -> List[Event]:
        """Bytes read from the socket; returns what they mean, in order."""
        self._buffer += data
        events: List[Event] = []
        while True:
            end = self._buffer.find(b"\n")
            if end < 0:
                break
            line = bytes(self._buffer[:end])
            del self._buffer[: end + 1]
            if line.strip():
                events.extend(self._line(line))
            if self.state == DISCONNECTED:  # refused: the rest is of no use
                break
        return events

    def _line(self, line: bytes) -> List[Event]:
        try:
            obj = json.loads(line)
        except ValueError:
            log.warning("touchd sent a line that is not JSON: %r", line[:200])
            return []
        if not isinstance(obj, dict):
            log.warning("touchd sent a line that is not a JSON object: %r", line[:200])
            return []
        message = message_from_dict(obj)
        if self.state == AWAIT_HELLO:
            return self._before_hello(message)
        if isinstance(message, (Reply, Error)):
            return self._answer(message)
        seq = obj.get("seq") if message.type in PIPELINE_TYPES else None
        if self.state == RESUBSCRIBING and (seq is not None or message.type == "trace"):
            # Published under the default filter, before the subscription is back: dropped, and
            # counted in the Missed event that follows.
            return []
        events: List[Event] = []
        if isinstance(seq, int) and not isinstance(seq, bool):
            if self._missed_from is not None:
                last = self._missed_from
                self._missed_from = None
                events.append(Deliver(Missed(count=max(0, seq - last - 1), last_seq=last, seq=seq, exact=self._exact)))
            self.last_seq = seq
            self._seq_instance = self.hello.instance if self.hello else None
        events.append(Deliver(message))
        return events

    def _before_hello(self, message: Message) -> List[Event]:
        if isinstance(message, Error):
            retry = "too many clients" in message.message
            self._drop()
            self.failures += 1
            return [Refused(TouchdError(message.message, message.id), retry)]
        if not isinstance(message, Hello):
            raise ProtocolError(f"touchd sent {message.raw!r} before its hello")
        previous = self.hello
        self.hello = message
        self.connections += 1
        self.failures = 0
        attempts, self._attempts_since_hello = self._attempts_since_hello, 0
        if previous is None:
            self._seq_instance = message.instance
            self.state = READY
            return []
        restarted = message.instance is None or message.instance != previous.instance
        if restarted:
            self.last_seq = None
            self._missed_from = None
        elif self.last_seq is not None and self._seq_instance == message.instance:
            self._missed_from = self.last_seq
        self._seq_instance = message.instance
        self._reconnected = Reconnected(
            restarted=restarted,
            instance=message.instance,
            previous_instance=previous.instance,
            hello=message,
            last_seq=self.last_seq if not restarted else None,
            attempts=attempts,
        )
        if self.subscription is not None:
            self.state = READY  # to let command() through
            self._resubscribe_id = self.command("subscribe", self.subscription, internal=True)
            self.state = RESUBSCRIBING
            return []
        self.state = READY
        return [Deliver(self._take_reconnected(None))]

    def _take_reconnected(self, error: Optional[str]) -> Reconnected:
        event = self._reconnected
        assert event is not None
        self._reconnected = None
        if error is not None:
            event = Reconnected(
                restarted=event.restarted, instance=event.instance, previous_instance=event.previous_instance,
                hello=event.hello, last_seq=event.last_seq, attempts=event.attempts, resubscribe_error=error,
            )  # fmt: skip
        return event

    def _answer(self, message: Union[Reply, Error]) -> List[Event]:
        id = message.id
        if isinstance(message, Error) and id is None and self._pending:
            # An error the daemon could not tie to a line's id (a line over the length limit):
            # it answers the oldest command waiting.
            id = next(iter(self._pending))
        pending = None
        if isinstance(id, int) and not isinstance(id, bool):
            pending = self._pending.pop(id, None)
        if pending is None:
            return [Deliver(message)]
        if pending.cmd == "subscribe" and isinstance(message, Reply):
            self.subscription = pending.fields
            self._exact = self._filter_is_everything(message)
        if pending.internal:
            if id == self._resubscribe_id:
                self._resubscribe_id = None
                self.state = READY
                error = message.message if isinstance(message, Error) else None
                if error is not None:
                    log.warning("touchd refused the subscription sent again after reconnecting: %s", error)
                    self._exact = False
                return [Deliver(self._take_reconnected(error))]
            return []
        if pending.abandoned:
            return []
        if isinstance(message, Error):
            return [Answer(id, TouchdError(message.message, message.id, pending.cmd))]
        return [Answer(id, message)]

    @staticmethod
    def _filter_is_everything(reply: Reply) -> bool:
        types = reply.get("types") or []
        return (
            all(t in types for t in PIPELINE_TYPES)
            and not reply.get("actions")
            and not reply.get("views")
        )
