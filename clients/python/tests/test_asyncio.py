"""The asyncio client against the real daemon (each test runs its own ``asyncio.run``)."""

from __future__ import annotations

import asyncio
import signal

import pytest
from conftest import DOOR, TAPS_MESSAGES, kind, taps_script

import touchd
import touchd.aio


async def next_of(client: touchd.aio.Client, cls, timeout: float = 10, skip=()):
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        message = await client.next_message(timeout=max(0.0, deadline - loop.time()))
        assert message is not None, f"no {cls} within {timeout} s"
        if isinstance(message, tuple(skip)):
            continue
        assert isinstance(message, cls), message
        return message


async def until_shutdown(client: touchd.aio.Client) -> list:
    out = []
    async for message in client:
        out.append(message)
        if isinstance(message, touchd.Shutdown):
            return out
    pytest.fail("the iteration ended before the shutdown notice")


def test_aio_actions_and_touches(daemons):
    daemons.start(taps_script(), exit_after_replay=True, speed=2)

    async def main():
        async with touchd.aio.Client(str(daemons.socket)) as client:
            assert client.hello.version == 1 and client.hello.windows == [touchd.Window("main", 1920, 1080)]
            reply = await client.subscribe(types=["action", "touches"])
            assert reply["types"] == ["action", "touches"]
            return await asyncio.wait_for(until_shutdown(client), 20)

    messages = asyncio.run(main())
    assert [kind(m) for m in messages[:-1]] == TAPS_MESSAGES
    assert [m.seq for m in messages[:-1]] == [1, 2, 3, 4, 5, 6]
    door = messages[2]
    assert isinstance(door, touchd.Action)
    assert (door.action, door.gesture, door.state, door.recognizer, door.number_of_touches) == (
        "open-door", "tap", "ended", "door-tap", 1,
    )  # fmt: skip
    assert door.location.x == pytest.approx(DOOR[0], abs=1) and door.location.y == pytest.approx(DOOR[1], abs=1)
    began, cancelled = messages[0], messages[1]
    assert [(t.id, t.phase, t.view) for t in began.touches] == [(1, "began", "door")]
    assert [(t.id, t.phase, t.view) for t in cancelled.touches] == [(1, "cancelled", "door")]


async def first_messages(client: touchd.aio.Client, count: int) -> list:
    out = []
    async for message in client:
        out.append(message)
        if len(out) == count:
            return out
    pytest.fail(f"the iteration ended after {len(out)} of {count} messages")


def test_aio_commands_while_another_task_iterates(daemons):
    # The daemon keeps running after the replay: on a loaded machine the 60 commands below can
    # outlast it, and the commands must meet a running daemon whenever the taps come.
    daemons.start(taps_script(gap=0.2), speed=2, delay=0.5)

    async def main():
        async with touchd.aio.Client(str(daemons.socket)) as client:
            await client.subscribe(types=["action", "touches"])
            reader = asyncio.ensure_future(first_messages(client, len(TAPS_MESSAGES)))
            errors = []
            replies = []
            for _ in range(30):
                replies.append(await client.ping())
                try:
                    await client.set_view("dor", hidden=True)
                except touchd.TouchdError as error:
                    errors.append(error)
                await asyncio.sleep(0.02)
            status = await client.status()
            with pytest.raises(touchd.TouchdError) as caught:
                await client.send("set", view="door", frame={"x": 0, "y": 0, "width": 1})
            pings = await asyncio.gather(*(client.ping() for _ in range(5)))
            messages = await asyncio.wait_for(reader, 20)
            return replies, errors, status, caught.value, pings, messages

    replies, errors, status, frame_error, pings, messages = asyncio.run(main())
    assert all(r.ok for r in replies) and len(replies) == 30
    assert {e.message for e in errors} == {"unknown view 'dor' (did you mean 'door'?)"} and len(errors) == 30
    assert [r.id for r in replies] == list(range(2, 62, 2))  # ping, set, ping, set...
    assert status["clients"] == 1 and status["replay"] is not None
    assert frame_error.message == "missing field 'frame.height' (a number)"
    assert sorted(p.id for p in pings) == list(range(64, 69))
    assert [kind(m) for m in messages] == TAPS_MESSAGES


def test_aio_reconnects_to_a_restarted_daemon(daemons):
    script = taps_script(gap=0.15)
    first = daemons.start(script, loop=True, speed=2, delay=0.3)

    async def main():
        backoff = touchd.Backoff(initial=0.05, maximum=0.2)
        async with touchd.aio.Client(str(daemons.socket), backoff=backoff) as client:
            old = client.hello.instance
            await client.subscribe(types="touches", views="pad")
            first_touches = await next_of(client, touchd.Touches)
            assert kind(first_touches) == ("touches", "pad", "began")
            first.stop(signal.SIGTERM)
            await next_of(client, touchd.Shutdown, skip=[touchd.Touches])
            with pytest.raises((touchd.ConnectionLost, TimeoutError)):
                await client.request("ping", timeout=0.2)  # not connected meanwhile
            second = daemons.start(script, loop=True, speed=2, delay=1.5)
            reconnected = await next_of(client, touchd.Reconnected)
            after = [await next_of(client, touchd.Touches) for _ in range(4)]
            return old, reconnected, client.hello, after, second

    old, reconnected, hello, after, second = asyncio.run(main())
    assert reconnected.restarted is True
    assert reconnected.previous_instance == old != reconnected.instance == hello.instance
    assert [(m.seq,) + kind(m) for m in after] == [
        (5, "touches", "pad", "began"),
        (6, "touches", "pad", "ended"),
        (11, "touches", "pad", "began"),
        (12, "touches", "pad", "ended"),
    ]
    second.stop()


def test_aio_missed_after_a_dropped_connection(daemons):
    daemons.start(taps_script(gap=0.1), loop=True, delay=0.3)

    async def main():
        # The reader task reconnects by itself: a slow backoff makes it miss messages.
        backoff = touchd.Backoff(initial=0.6, maximum=0.6, jitter=0)
        async with touchd.aio.Client(str(daemons.socket), backoff=backoff) as client:
            await client.subscribe(types=list(touchd.PIPELINE_TYPES))
            before = []
            # Drop in the middle of the loop (seq 4 to 6 follow within 0.3 s; then a pause of 1 s).
            while not before or before[-1].seq < 3:
                before.append(await next_of(client, (touchd.Action, touchd.Touches)))
            client.drop_connection()
            while True:
                message = await client.next_message(timeout=10)
                if isinstance(message, touchd.Reconnected):
                    break
                before.append(message)
            missed = await next_of(client, touchd.Missed)
            after = [await next_of(client, (touchd.Action, touchd.Touches)) for _ in range(6)]
            return before, message, missed, after

    before, reconnected, missed, after = asyncio.run(main())
    assert [m.seq for m in before] == list(range(1, len(before) + 1))
    assert reconnected.restarted is False and reconnected.last_seq == before[-1].seq
    assert (missed.last_seq, missed.seq, missed.exact) == (before[-1].seq, after[0].seq, True)
    assert missed.count == after[0].seq - before[-1].seq - 1 >= 2
    assert [m.seq for m in after] == list(range(after[0].seq, after[0].seq + 6))
    assert [kind(m) for m in after] == [TAPS_MESSAGES[(m.seq - 1) % 6] for m in after]


def test_aio_without_reconnect(daemons, tmp_path):
    async def missing():
        with pytest.raises(FileNotFoundError):
            await touchd.aio.Client(str(tmp_path / "nobody.sock"), reconnect=False).connect()
        with pytest.raises(TimeoutError):
            await touchd.aio.Client(str(tmp_path / "nobody.sock")).connect(timeout=0.3)

    asyncio.run(missing())
    daemon = daemons.start()

    async def main():
        client = touchd.aio.Client(str(daemons.socket), reconnect=False)
        await client.connect()
        assert (await client.ping()).ok
        daemon.stop(signal.SIGTERM)
        assert isinstance(await client.next_message(timeout=5), touchd.Shutdown)
        with pytest.raises(touchd.ConnectionLost):
            await client.next_message(timeout=5)
        with pytest.raises(touchd.ConnectionLost):
            await client.ping()
        await client.close()
        assert [m async for m in client.messages(timeout=0.1)] == []

    asyncio.run(main())
