"""The blocking client.

No threads of its own: whichever call waits (for a message or for a command's answer) reads the
socket, with a timeout, and files what it reads: answers for their commands, everything else in
the message queue. Several threads may share a client (one iterating messages, another sending
commands): one of them reads at a time while the others wait on a condition.
"""

from __future__ import annotations

import logging
import select
import socket
import threading
import time
from collections import deque
from typing import Any, Callable, Deque, Dict, Iterable, Iterator, Mapping, Optional, Sequence, Union

from . import _commands
from ._core import Answer, Backoff, Deliver, Event, Refused, Session, default_socket_path
from .errors import ConnectionLost, TouchdError
from .messages import Hello, Message, Reply

__all__ = ["Client"]

log = logging.getLogger("touchd")

_READ_SIZE = 65536


class Client:
    """A blocking client of the touchd socket.

    ``path``: the socket (default ``$TOUCHD_SOCKET``, else ``/run/touchd/touchd.sock``).
    ``reconnect``: when the connection closes or cannot be made, try again with ``backoff``
    (and deliver a :class:`~touchd.Reconnected` event); False: raise :class:`~touchd.ConnectionLost`
    (or the connect error) instead. ``timeout``: seconds a command waits for its answer
    (None: no limit). ``connect_timeout``: seconds :meth:`connect` (and ``with``) keeps trying
    (None: no limit). ``hello_timeout``: seconds a new connection may take to greet.

    Use it as a context manager, iterate it for messages, call commands::

        with touchd.Client() as client:
            client.subscribe(types=["action"])
            for message in client:
                print(message)
    """

    def __init__(
        self,
        path: Optional[str] = None,
        *,
        reconnect: bool = True,
        timeout: Optional[float] = 30.0,
        connect_timeout: Optional[float] = None,
        hello_timeout: float = 5.0,
        backoff: Optional[Backoff] = None,
    ):
        self.path = path or default_socket_path()
        self.reconnect = reconnect
        self.timeout = timeout
        self.connect_timeout = connect_timeout
        self.hello_timeout = hello_timeout
        self._session = Session(backoff)
        self._cond = threading.Condition(threading.Lock())
        self._send_lock = threading.Lock()
        self._stop = threading.Event()
        self._sock: Optional[socket.socket] = None
        self._messages: Deque[Message] = deque()
        self._answers: Dict[int, Union[Reply, BaseException]] = {}
        self._reading = False
        self._started = False
        self._closed = False
        self._ended: Optional[BaseException] = None  # why no more messages will come
        self._next_attempt = 0.0  # monotonic time of the next connection attempt
        self._hello_deadline = 0.0

    # Life

    def __enter__(self) -> "Client":
        self.connect()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def connect(self, timeout: Optional[float] = None) -> Hello:
        """Connects (trying again with backoff when ``reconnect``) and returns the daemon's hello.

        ``timeout`` defaults to ``connect_timeout``; past it, raises ``TimeoutError``. With
        ``reconnect=False`` a failure raises at once (``FileNotFoundError``,
        ``ConnectionRefusedError``, :class:`~touchd.TouchdError` for "access denied"...).
        """
        self._check_open()
        with self._cond:
            self._started = True
        timeout = self.connect_timeout if timeout is None else timeout
        if not self._wait(lambda: self._session.can_send or self._ended is not None, _deadline(timeout)):
            raise TimeoutError(f"could not connect to touchd at {self.path} within {timeout} s")
        if not self._session.can_send and self._ended is not None:
            raise self._ended
        assert self._session.hello is not None
        return self._session.hello

    def close(self) -> None:
        """Closes the connection; calls waiting in other threads end (ConnectionLost)."""
        with self._cond:
            if self._closed:
                return
            self._closed = True
            self._stop.set()
            sock = self._sock
            if sock is not None:
                _shutdown(sock)
                if not self._reading:  # else the reader finds it closed and cleans up
                    self._sock = None
                    sock.close()
                    self._route(self._session.connection_lost(), None)
            self._ended = self._ended or ConnectionLost("the client is closed")
            self._cond.notify_all()

    @property
    def hello(self) -> Optional[Hello]:
        """The hello of the current (or last) connection; None before the first."""
        return self._session.hello

    @property
    def connected(self) -> bool:
        """Connected and greeted (commands can be sent)."""
        return self._session.can_send and not self._closed

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def last_seq(self) -> Optional[int]:
        """The last ``seq`` received (of the current daemon instance)."""
        return self._session.last_seq

    @property
    def subscription(self) -> Optional[Dict[str, Any]]:
        """The fields of the last successful ``subscribe`` (sent again after a reconnection)."""
        return self._session.subscription

    def drop_connection(self) -> None:
        """Closes the current connection as if the daemon had (for tests of reconnection): the
        commands in flight fail, and with ``reconnect`` the client connects again."""
        with self._cond:
            if self._sock is not None:
                _shutdown(self._sock)

    # Messages

    def next_message(self, timeout: Optional[float] = None) -> Optional[Message]:
        """The next message or event; None when ``timeout`` seconds pass without one.

        Raises :class:`~touchd.ConnectionLost` once the connection is gone for good (closed, or
        lost with ``reconnect=False``) and every message before it was read.
        """
        self._start()
        deadline = _deadline(timeout)
        if not self._wait(lambda: bool(self._messages) or self._ended is not None, deadline):
            return None
        with self._cond:
            if self._messages:
                return self._messages.popleft()
            assert self._ended is not None
            raise self._ended

    def messages(self, timeout: Optional[float] = None) -> Iterator[Message]:
        """Yields messages and events until ``timeout`` seconds pass without one (None: for
        ever) or the connection is gone for good (closed, or lost with ``reconnect=False``:
        then the iteration ends by raising :class:`~touchd.ConnectionLost`, unless the client
        was closed)."""
        while True:
            try:
                message = self.next_message(timeout)
            except ConnectionLost:
                if self._closed:
                    return
                raise
            if message is None:
                return
            yield message

    def __iter__(self) -> Iterator[Message]:
        return self.messages()

    # Commands

    def send(self, cmd: str, **fields: Any) -> Reply:
        """Sends any command with ``fields`` as they are (JSON names) and returns its reply.

        Raises :class:`~touchd.TouchdError` with the daemon's message for an error,
        :class:`~touchd.ConnectionLost` if the connection closed before the answer (the command
        is not sent again) and ``TimeoutError`` after ``timeout`` seconds.
        """
        return self.request(cmd, fields)

    def request(self, cmd: str, fields: Optional[Dict[str, Any]] = None, timeout: Any = ...) -> Reply:
        """:meth:`send` with the fields as a dict and a timeout of its own."""
        self._start()
        wait = self.timeout if timeout is ... else timeout
        deadline = _deadline(wait)
        if not self._wait(lambda: self._session.can_send or self._ended is not None, deadline):
            raise TimeoutError(f"not connected to touchd at {self.path} within {wait} s")
        with self._cond:
            if not self._session.can_send:
                assert self._ended is not None
                raise ConnectionLost(str(self._ended)) from self._ended
            id = self._session.command(cmd, fields or {})
        self._flush()
        if not self._wait(lambda: id in self._answers or self._closed, deadline):
            with self._cond:
                self._session.abandon(id)
                result = self._answers.pop(id, None)
            if result is None:
                raise TimeoutError(f"no answer from touchd to '{cmd}' within {wait} s")
        else:
            with self._cond:
                result = self._answers.pop(id, None)
            if result is None:
                raise ConnectionLost("the client was closed")
        if isinstance(result, BaseException):
            raise result
        return result

    def ping(self) -> Reply:
        return self.request("ping")

    def subscribe(
        self,
        types: Union[str, Iterable[str], None] = None,
        actions: Union[str, Iterable[str], None] = None,
        views: Union[str, Iterable[str], None] = None,
        overflow: Optional[str] = None,
        coalesced: Optional[bool] = None,
        predicted: Optional[bool] = None,
    ) -> Reply:
        """Replaces the filter (absent ``types``: actions only; absent ``actions``/``views``: all);
        ``overflow`` "disconnect" (default) or "skip"; ``coalesced`` / ``predicted`` add those lists to
        touches messages (``Touches.coalesced``, ``Touches.predicted``). Sent again after each
        reconnection."""
        return self.request(*_commands.subscribe(types, actions, views, overflow, coalesced, predicted))

    def set_view(self, view: str, **fields: Any) -> Reply:
        """``set`` on a view: ``hidden=True``, ``alpha=0.5``, ``frame={...}``,
        ``content_offset=Point(0, 300)``... (snake_case names become the protocol's camelCase)."""
        return self.request(*_commands.set_view(view, fields))

    def set_window(
        self,
        window: str,
        rotation: Optional[int] = None,
        calibration: Optional[Sequence[float]] = None,
        size: Any = None,
        voice_over: Optional[bool] = None,
    ) -> Reply:
        """``set`` on a window: rotation (0/90/180/270), calibration (6 numbers), size, VoiceOver on or off."""
        return self.request(*_commands.set_window(window, rotation, calibration, size, voice_over))

    def announce(self, text: str, window: Optional[str] = None) -> Reply:
        """``announce``: VoiceOver says ``text`` (the reply's ``spoken`` is false where it is off)."""
        return self.request(*_commands.announce(text, window))

    def signature(self, view: str, clear: bool = False) -> Reply:
        """``signature``: the signature drawn on ``view`` (its strokes, bounds, duration), or cleared."""
        return self.request(*_commands.signature(view, clear))

    def ignore_interaction(self, value: bool) -> Reply:
        return self.request(*_commands.ignore_interaction(value))

    def reload(self) -> Reply:
        return self.request("reload")

    def status(self) -> Reply:
        return self.request("status")

    def push_scene(self, scene: Mapping[str, Any]) -> Reply:
        """``scene``: replaces the running scene with ``scene`` (the scene file's format as a
        JSON object); replies ``windows``, ``views``, ``recognizers``. Newer daemons only."""
        return self.request("scene", {"scene": dict(scene)})

    def update(
        self,
        op: str,
        view: Any = None,
        recognizer: Any = None,
        parent: Optional[str] = None,
        index: Optional[int] = None,
    ) -> Reply:
        """``update``: adds, replaces or removes one view subtree or one recognizer of the running
        scene (``op`` "add", "replace", "remove"); replies ``op``, the id, ``parent``, ``index``,
        ``views``, ``recognizers``."""
        return self.request(*_commands.update(op, view, recognizer, parent, index))

    def calibrate(self, window: str, targets: Iterable[Any], timeout: Optional[float] = None) -> Reply:
        """Collects one touch per target (``[x, y]``, ``(x, y)`` or :class:`~touchd.Point`) and
        returns the fitted matrix; waits up to the daemon's ``timeout`` plus the client's."""
        cmd, fields = _commands.calibrate(window, targets, timeout)
        return self.request(cmd, fields, _commands.calibrate_wait(self.timeout, timeout))

    # Waiting and reading

    def _check_open(self) -> None:
        if self._closed:
            raise ConnectionLost("the client is closed")

    def _start(self) -> None:
        if not self._started:
            self.connect()

    def _wait(self, ready: Callable[[], bool], deadline: Optional[float]) -> bool:
        """Waits until ``ready()`` (True) or the deadline (False), reading the socket while no
        other thread does."""
        while True:
            with self._cond:
                while True:
                    if ready():
                        return True
                    if self._closed and self._ended is None:
                        self._ended = ConnectionLost("the client is closed")
                        continue
                    remaining = _remaining(deadline)
                    if remaining is not None and remaining <= 0:
                        return False
                    if not self._reading:
                        self._reading = True
                        break
                    self._cond.wait(remaining)
            try:
                self._step(deadline)
            finally:
                with self._cond:
                    self._reading = False
                    self._cond.notify_all()

    def _step(self, deadline: Optional[float]) -> None:
        """One piece of progress: a connection attempt, or one read. Called by the reader only."""
        if self._closed or self._ended is not None:
            return
        sock = self._sock
        if sock is None:
            self._attempt(deadline)
            return
        timeout = _remaining(deadline)
        if not self._session.can_send:
            hello_left = self._hello_deadline - time.monotonic()
            timeout = hello_left if timeout is None else min(timeout, hello_left)
            if timeout <= 0:
                log.info("touchd at %s did not greet within %s s", self.path, self.hello_timeout)
                with self._cond:
                    self._sock = None
                    self._session.attempt_failed()
                    self._schedule()
                sock.close()
                return
        try:
            if not _readable(sock, timeout):
                return
            data = sock.recv(_READ_SIZE)
        except OSError as error:
            log.info("connection to touchd lost: %s", error)
            data = b""
        if not data:
            self._lost(sock)
            return
        with self._cond:
            events = self._session.receive(data)
            self._route(events, sock)
        self._flush()

    def _attempt(self, deadline: Optional[float]) -> None:
        wait = self._next_attempt - time.monotonic()
        if wait > 0:
            remaining = _remaining(deadline)
            self._stop.wait(wait if remaining is None else min(wait, remaining))
            if self._next_attempt > time.monotonic():
                return
        if self._closed:
            return
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.settimeout(self.hello_timeout)
            sock.connect(self.path)
        except OSError as error:
            sock.close()
            with self._cond:
                self._session.attempt_failed()
                if not self.reconnect:
                    self._ended = error
                    return
                self._schedule()
            log.debug("touchd at %s: %s; next attempt in %.2f s", self.path, error, self._next_attempt - time.monotonic())
            return
        with self._cond:
            if self._closed:
                sock.close()
                return
            sock.settimeout(None)
            self._sock = sock
            self._session.connection_made()
            self._hello_deadline = time.monotonic() + self.hello_timeout

    def _schedule(self) -> None:
        self._next_attempt = time.monotonic() + self._session.reconnect_delay()

    def _lost(self, sock: socket.socket) -> None:
        sock.close()
        with self._cond:
            if self._sock is sock:
                self._sock = None
            events = self._session.connection_lost()
            self._route(events, None)
            if self._closed:
                self._ended = self._ended or ConnectionLost("the client is closed")
            elif not self.reconnect:
                self._ended = self._ended or ConnectionLost(f"the connection to touchd at {self.path} closed")
            else:
                self._schedule()
            self._cond.notify_all()

    def _route(self, events: Sequence[Event], sock: Optional[socket.socket]) -> None:
        """Files the session's events (called under the lock)."""
        for event in events:
            if isinstance(event, Deliver):
                self._messages.append(event.message)
            elif isinstance(event, Answer):
                self._answers[event.id] = event.result
            elif isinstance(event, Refused):
                log.warning("touchd at %s refused the connection: %s", self.path, event.error.message)
                if sock is not None:
                    _shutdown(sock)
                    sock.close()
                if self._sock is sock:
                    self._sock = None
                if event.retry and self.reconnect:
                    self._schedule()
                else:
                    self._ended = event.error
        if events:
            self._cond.notify_all()

    def _flush(self) -> None:
        with self._send_lock:
            with self._cond:
                data = self._session.data_to_send()
                sock = self._sock
            if data and sock is not None:
                try:
                    sock.sendall(data)
                except OSError as error:
                    # The reader finds the connection closed and fails the commands in flight.
                    log.info("sending to touchd failed: %s", error)
                    _shutdown(sock)


def _deadline(timeout: Optional[float]) -> Optional[float]:
    return None if timeout is None else time.monotonic() + timeout


def _remaining(deadline: Optional[float]) -> Optional[float]:
    return None if deadline is None else deadline - time.monotonic()


def _readable(sock: socket.socket, timeout: Optional[float]) -> bool:
    """Waits until ``sock`` has data (or end of file) or ``timeout`` seconds pass."""
    poller = select.poll()
    poller.register(sock, select.POLLIN | select.POLLPRI)
    milliseconds = None if timeout is None else max(0, int(timeout * 1000 + 0.999))
    return bool(poller.poll(milliseconds))


def _shutdown(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
