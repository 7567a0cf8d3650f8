"""The asyncio client: the same messages, commands and reconnection as :class:`touchd.Client`.

A task of the client reads the socket (and reconnects); commands may be awaited from any task
while another iterates the messages::

    async with touchd.aio.Client() as client:
        await client.subscribe(types=["action"])
        async for message in client:
            print(message)
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, AsyncIterator, Dict, Iterable, Mapping, Optional, Sequence, Union

from . import _commands
from ._core import Answer, Backoff, Deliver, Event, Refused, Session, default_socket_path
from .errors import ConnectionLost
from .messages import Hello, Message, Reply

__all__ = ["Client"]

log = logging.getLogger("touchd")

_READ_SIZE = 65536
_END = object()


class Client:
    """An asyncio client of the touchd socket; the options are :class:`touchd.Client`'s."""

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
        self._task: Optional["asyncio.Task[None]"] = None
        self._writer: Optional[asyncio.StreamWriter] = None
        # Made in the running loop at the first use (Python 3.9 binds them to a loop when made).
        self._queue: "asyncio.Queue[Any]" = None  # type: ignore[assignment]
        self._state: asyncio.Event = None  # type: ignore[assignment]  # set while commands can be sent, or once ended
        self._futures: Dict[int, "asyncio.Future[Reply]"] = {}
        self._closed = False
        self._ended: Optional[BaseException] = None

    # Life

    async def __aenter__(self) -> "Client":
        await self.connect()
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    async def connect(self, timeout: Optional[float] = None) -> Hello:
        """Connects (trying again with backoff when ``reconnect``) and returns the hello;
        ``TimeoutError`` after ``timeout`` (default ``connect_timeout``) seconds."""
        if self._closed:
            raise ConnectionLost("the client is closed")
        self._start()
        timeout = self.connect_timeout if timeout is None else timeout
        try:
            await asyncio.wait_for(self._state.wait(), timeout)
        except asyncio.TimeoutError:
            raise TimeoutError(f"could not connect to touchd at {self.path} within {timeout} s") from None
        if not self._session.can_send:
            assert self._ended is not None
            raise self._ended
        assert self._session.hello is not None
        return self._session.hello

    async def close(self) -> None:
        """Closes the connection and stops the reader task; waiting commands raise ConnectionLost."""
        if self._closed:
            return
        self._closed = True
        task = self._task
        if task is not None and not task.done():
            task.cancel()
            try:
                await task
            except (asyncio.CancelledError, Exception):
                pass
        self._end(ConnectionLost("the client is closed"))

    @property
    def hello(self) -> Optional[Hello]:
        return self._session.hello

    @property
    def connected(self) -> bool:
        return self._session.can_send and not self._closed

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def last_seq(self) -> Optional[int]:
        return self._session.last_seq

    @property
    def subscription(self) -> Optional[Dict[str, Any]]:
        return self._session.subscription

    def drop_connection(self) -> None:
        """Closes the current connection as if the daemon had (for tests of reconnection)."""
        if self._writer is not None:
            transport = self._writer.transport
            transport.abort()

    # Messages

    async def next_message(self, timeout: Optional[float] = None) -> Optional[Message]:
        """The next message or event; None after ``timeout`` seconds without one. Raises
        :class:`~touchd.ConnectionLost` once the connection is gone for good."""
        self._start()
        if self._queue.empty() and self._ended is not None:
            raise self._ended
        try:
            item = await asyncio.wait_for(self._queue.get(), timeout)
        except asyncio.TimeoutError:
            return None
        if item is _END:
            self._queue.put_nowait(_END)  # for the next caller
            assert self._ended is not None
            raise self._ended
        return item  # type: ignore[no-any-return]

    async def messages(self, timeout: Optional[float] = None) -> AsyncIterator[Message]:
        """Yields messages until ``timeout`` seconds pass without one (None: for ever) or the
        connection is gone for good (raising ConnectionLost unless the client was closed)."""
        while True:
            try:
                message = await self.next_message(timeout)
            except ConnectionLost:
                if self._closed:
                    return
                raise
            if message is None:
                return
            yield message

    def __aiter__(self) -> AsyncIterator[Message]:
        return self.messages()

    # Commands

    async def send(self, cmd: str, **fields: Any) -> Reply:
        """Sends any command with ``fields`` as they are; see :meth:`touchd.Client.send`."""
        return await self.request(cmd, fields)

    async def request(self, cmd: str, fields: Optional[Dict[str, Any]] = None, timeout: Any = ...) -> Reply:
        wait = self.timeout if timeout is ... else timeout
        loop = asyncio.get_running_loop()
        deadline = None if wait is None else loop.time() + wait
        self._start()
        while not self._session.can_send:
            if self._ended is not None:
                raise ConnectionLost(str(self._ended)) from self._ended
            try:
                await asyncio.wait_for(self._state.wait(), None if deadline is None else deadline - loop.time())
            except asyncio.TimeoutError:
                raise TimeoutError(f"not connected to touchd at {self.path} within {wait} s") from None
        id = self._session.command(cmd, fields or {})
        future: "asyncio.Future[Reply]" = loop.create_future()
        self._futures[id] = future
        self._flush()
        try:
            return await asyncio.wait_for(asyncio.shield(future), None if deadline is None else max(0.0, deadline - loop.time()))
        except asyncio.TimeoutError:
            self._session.abandon(id)
            raise TimeoutError(f"no answer from touchd to '{cmd}' within {wait} s") from None
        finally:
            self._futures.pop(id, None)
            if not future.done():
                future.cancel()

    async def ping(self) -> Reply:
        return await self.request("ping")

    async def subscribe(
        self,
        types: Union[str, Iterable[str], None] = None,
        actions: Union[str, Iterable[str], None] = None,
        views: Union[str, Iterable[str], None] = None,
        overflow: Optional[str] = None,
        coalesced: Optional[bool] = None,
        predicted: Optional[bool] = None,
    ) -> Reply:
        return await self.request(*_commands.subscribe(types, actions, views, overflow, coalesced, predicted))

    async def set_view(self, view: str, **fields: Any) -> Reply:
        return await self.request(*_commands.set_view(view, fields))

    async def set_window(
        self,
        window: str,
        rotation: Optional[int] = None,
        calibration: Optional[Sequence[float]] = None,
        size: Any = None,
        voice_over: Optional[bool] = None,
    ) -> Reply:
        return await self.request(*_commands.set_window(window, rotation, calibration, size, voice_over))

    async def announce(self, text: str, window: Optional[str] = None) -> Reply:
        return await self.request(*_commands.announce(text, window))

    async def signature(self, view: str, clear: bool = False) -> Reply:
        return await self.request(*_commands.signature(view, clear))

    async def ignore_interaction(self, value: bool) -> Reply:
        return await self.request(*_commands.ignore_interaction(value))

    async def reload(self) -> Reply:
        return await self.request("reload")

    async def status(self) -> Reply:
        return await self.request("status")

    async def push_scene(self, scene: Mapping[str, Any]) -> Reply:
        """``scene``: replaces the running scene with ``scene`` (the scene file's format as a
        JSON object); replies ``windows``, ``views``, ``recognizers``. Newer daemons only."""
        return await self.request("scene", {"scene": dict(scene)})

    async def update(
        self,
        op: str,
        view: Any = None,
        recognizer: Any = None,
        parent: Optional[str] = None,
        index: Optional[int] = None,
    ) -> Reply:
        """``update``, as the blocking client's."""
        return await self.request(*_commands.update(op, view, recognizer, parent, index))

    async def calibrate(self, window: str, targets: Iterable[Any], timeout: Optional[float] = None) -> Reply:
        cmd, fields = _commands.calibrate(window, targets, timeout)
        return await self.request(cmd, fields, _commands.calibrate_wait(self.timeout, timeout))

    # The reader task

    def _start(self) -> None:
        if self._queue is None:
            self._queue = asyncio.Queue()
            self._state = asyncio.Event()
        if self._task is None and not self._closed:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        session = self._session
        try:
            while not self._closed:
                delay = session.reconnect_delay()
                if delay > 0:
                    await asyncio.sleep(delay)
                try:
                    reader, writer = await asyncio.wait_for(asyncio.open_unix_connection(self.path), self.hello_timeout)
                except (OSError, asyncio.TimeoutError) as error:
                    session.attempt_failed()
                    if not self.reconnect:
                        self._end(error if isinstance(error, OSError) else TimeoutError(f"could not connect to {self.path}"))
                        return
                    log.debug("touchd at %s: %r; next attempt in %.2f s", self.path, error, session.reconnect_delay())
                    continue
                session.connection_made()
                self._writer = writer
                hello_deadline = loop.time() + self.hello_timeout
                refused = None
                try:
                    while True:
                        if session.can_send:
                            data = await reader.read(_READ_SIZE)
                        else:
                            left = hello_deadline - loop.time()
                            try:
                                data = await asyncio.wait_for(reader.read(_READ_SIZE), max(0.0, left))
                            except asyncio.TimeoutError:
                                log.info("touchd at %s did not greet within %s s", self.path, self.hello_timeout)
                                session.attempt_failed()
                                break
                        if not data:
                            break
                        was_ready = session.can_send
                        refused = self._route(session.receive(data))
                        if refused is not None:
                            break
                        self._flush()
                        if session.can_send and not was_ready:
                            self._state.set()
                except OSError as error:
                    log.info("connection to touchd lost: %s", error)
                finally:
                    self._writer = None
                    self._state.clear()
                    writer.close()
                    self._route(session.connection_lost())
                if refused is not None and (not refused.retry or not self.reconnect):
                    self._end(refused.error)
                    return
                if not self.reconnect:
                    self._end(ConnectionLost(f"the connection to touchd at {self.path} closed"))
                    return
        except asyncio.CancelledError:
            self._state.clear()
            if self._writer is not None:
                self._writer.close()
                self._writer = None
            self._route(session.connection_lost())
            raise

    def _route(self, events: Sequence[Event]) -> Optional[Refused]:
        refused = None
        for event in events:
            if isinstance(event, Deliver):
                self._queue.put_nowait(event.message)
            elif isinstance(event, Answer):
                future = self._futures.get(event.id)
                if future is not None and not future.done():
                    if isinstance(event.result, BaseException):
                        future.set_exception(event.result)
                    else:
                        future.set_result(event.result)
            elif isinstance(event, Refused):
                log.warning("touchd at %s refused the connection: %s", self.path, event.error.message)
                refused = event
        return refused

    def _flush(self) -> None:
        data = self._session.data_to_send()
        if data and self._writer is not None:
            # Lines are small and the daemon reads them one by one; the transport buffers the rest.
            self._writer.write(data)

    def _end(self, error: BaseException) -> None:
        if self._queue is None:
            self._queue = asyncio.Queue()
            self._state = asyncio.Event()
        if self._ended is None:
            self._ended = error
            self._queue.put_nowait(_END)
        self._state.set()
        for future in self._futures.values():
            if not future.done():
                future.set_exception(ConnectionLost(str(error)))
