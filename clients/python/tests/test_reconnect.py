"""Reconnection, missed messages and the daemon's gap notice (blocking client)."""

from __future__ import annotations

import signal
import time

import pytest
from conftest import PAD, TAPS_MESSAGES, FingerScript, kind, taps_script

import touchd

FAST = touchd.Backoff(initial=0.05, maximum=0.2)


def next_of(client: touchd.Client, cls, timeout: float = 10, skip=()):
    """The next message, which must be a ``cls`` (messages of the types in ``skip`` are passed over)."""
    deadline = time.monotonic() + timeout
    while True:
        message = client.next_message(timeout=max(0.0, deadline - time.monotonic()))
        assert message is not None, f"no {cls.__name__} within {timeout} s"
        if isinstance(message, tuple(skip)):
            continue
        assert isinstance(message, cls), message
        return message


def read_until_seq(client: touchd.Client, seq: int, timeout: float = 10) -> list:
    out = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        message = client.next_message(timeout=deadline - time.monotonic())
        assert message is not None
        out.append(message)
        if getattr(message, "seq", 0) >= seq:
            return out
    pytest.fail(f"seq {seq} not reached: {out}")


def test_reconnects_to_a_restarted_daemon_and_subscribes_again(daemons):
    script = taps_script(gap=0.15)
    first = daemons.start(script, loop=True, speed=2, delay=0.3)
    with touchd.Client(str(daemons.socket), backoff=FAST) as client:
        old_instance = client.hello.instance
        assert client.subscribe(types="touches")["types"] == ["touches"]
        before = read_until_seq(client, 8)
        assert all(isinstance(m, touchd.Touches) for m in before)

        assert first.stop(signal.SIGTERM) == 0
        next_of(client, touchd.Shutdown, skip=[touchd.Touches])
        second = daemons.start(script, loop=True, speed=2, delay=1.5)

        reconnected = next_of(client, touchd.Reconnected)
        assert reconnected.restarted is True
        assert reconnected.previous_instance == old_instance
        assert reconnected.instance == client.hello.instance != old_instance
        assert reconnected.hello is client.hello
        assert reconnected.last_seq is None
        assert reconnected.resubscribe_error is None
        assert client.subscription == {"types": "touches"}

        # The new daemon counts from 1, and the filter is back: touches only (3 and 4 are actions).
        after = [next_of(client, touchd.Touches) for _ in range(4)]
        assert [(m.seq,) + kind(m) for m in after] == [
            (1, "touches", "door", "began"),
            (2, "touches", "door", "cancelled"),
            (5, "touches", "pad", "began"),
            (6, "touches", "pad", "ended"),
        ]
        status = client.status()
        assert status["clients"] == 1
        assert status["counters"]["clientsAccepted"] == 1
    second.stop()


def test_missed_messages_after_a_dropped_connection(daemons):
    daemons.start(taps_script(gap=0.1), loop=True, delay=0.3)
    with touchd.Client(str(daemons.socket), backoff=FAST) as client:
        instance = client.hello.instance
        client.subscribe(types=list(touchd.PIPELINE_TYPES))  # everything: the count is exact
        before = read_until_seq(client, 8)
        assert [m.seq for m in before] == list(range(1, len(before) + 1))
        assert [kind(m) for m in before] == [TAPS_MESSAGES[(m.seq - 1) % 6] for m in before]

        client.drop_connection()
        time.sleep(0.8)  # the daemon goes on (about 13 messages a second); the client reads nothing
        queued = []
        while True:
            message = client.next_message(timeout=10)
            if isinstance(message, touchd.Reconnected):
                break
            queued.append(message)  # read before the connection dropped
        last_seen = (queued or before)[-1].seq
        assert message.restarted is False
        assert message.instance == message.previous_instance == instance
        assert message.last_seq == last_seen

        missed = next_of(client, touchd.Missed)
        first = next_of(client, (touchd.Action, touchd.Touches))
        assert missed.last_seq == last_seen
        assert missed.seq == first.seq
        assert missed.count == first.seq - last_seen - 1
        assert missed.count >= 2
        assert missed.exact is True
        # What comes after is whole again, and is what the looping recording publishes at that seq.
        after = [first] + [client.next_message(timeout=10) for _ in range(7)]
        assert [m.seq for m in after] == list(range(first.seq, first.seq + 8))
        assert [kind(m) for m in after] == [TAPS_MESSAGES[(m.seq - 1) % 6] for m in after]


def test_missed_is_an_upper_bound_with_a_filter(daemons):
    daemons.start(taps_script(gap=0.1), loop=True, delay=0.3)
    with touchd.Client(str(daemons.socket), backoff=FAST) as client:
        client.subscribe(types="action", views="lamp")
        before = read_until_seq(client, 10)
        assert [(m.seq, m.action) for m in before] == [(4, "toggle-lamp"), (10, "toggle-lamp")]
        client.drop_connection()
        time.sleep(0.8)
        next_of(client, touchd.Reconnected)
        missed = next_of(client, touchd.Missed)
        lamp = next_of(client, touchd.Action)
        assert missed.exact is False
        assert lamp.seq % 6 == 4 and missed.seq == lamp.seq
        # One lamp action per 6 messages: seq counted them all.
        assert missed.count == lamp.seq - 10 - 1 and missed.count >= 5  # at least the next 6


def test_gap_notice_when_the_client_falls_behind(daemons):
    # 2000 touches messages in 1 s (at --speed 2), then after 1.5 s two taps. The pause lets the
    # client catch up (and get its gap notice) before the daemon stops at the end of the replay: a
    # client still behind when the daemon stops gets the shutdown notice without a gap notice.
    script = FingerScript(start=10, sample_rate=1000)
    script.drag(PAD, (PAD[0] + 1200, PAD[1] + 150), duration=2.0)
    script.wait(3)
    script.tap(PAD)
    script.wait(0.2)
    script.tap(PAD)
    daemons.start(script, exit_after_replay=True, speed=2, delay=0.3, extra=["--client-buffer", "4096"])
    with touchd.Client(str(daemons.socket)) as client:
        reply = client.subscribe(types="touches", overflow="skip")
        assert reply["overflow"] == "skip"
        time.sleep(1.5)  # the drag passes without reading
        messages = []
        while not messages or not isinstance(messages[-1], touchd.Shutdown):
            message = client.next_message(timeout=10)
            assert message is not None
            messages.append(message)
    gaps = [i for i, m in enumerate(messages) if isinstance(m, touchd.Gap)]
    assert gaps, "no gap notice"
    for i in gaps:
        before, gap, after = messages[i - 1], messages[i], messages[i + 1]
        assert gap.skipped > 0 and gap.raw == {"type": "gap", "skipped": gap.skipped}
        assert after.seq == before.seq + gap.skipped + 1
    touches = [m for m in messages if isinstance(m, touchd.Touches)]
    skipped = sum(messages[i].skipped for i in gaps)
    assert touches[0].seq == 1 and touches[0].phase == "began"
    assert [m.phase for m in touches[-4:]] == ["began", "ended", "began", "ended"]
    assert len(touches) + skipped == touches[-1].seq  # nothing lost but what the notices say
    assert skipped > 1000


def test_commands_in_flight_fail_with_connection_lost(daemons):
    daemon = daemons.start()
    with touchd.Client(str(daemons.socket), backoff=FAST) as client:
        # A calibration waits for touches that never come: its reply is outstanding when the
        # daemon stops.
        import threading

        errors = []

        def calibrate():
            try:
                client.calibrate("main", [(100, 100), (1800, 100), (960, 1000)], timeout=30)
            except Exception as error:  # noqa: BLE001
                errors.append(error)

        thread = threading.Thread(target=calibrate)
        thread.start()
        time.sleep(0.3)
        daemon.stop(signal.SIGTERM)
        thread.join(10)
        assert not thread.is_alive()
        assert len(errors) == 1 and isinstance(errors[0], touchd.ConnectionLost), errors
        assert "'calibrate'" in str(errors[0])
        daemons.start()
        # The next command waits for the reconnection.
        assert client.ping().ok
        assert any(isinstance(m, touchd.Reconnected) and m.restarted for m in client.messages(timeout=0))
