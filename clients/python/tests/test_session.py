"""The sans-IO session both clients share, fed bytes by hand (no daemon, no socket).

The lines are the daemon's own (docs/protocol.md); the daemon tests check the same behaviour end
to end.
"""

from __future__ import annotations

import json
import random

import pytest

import touchd
from touchd._core import Answer, Deliver, Refused, Session


def hello(instance: str = "aaaaaaaaaaaaaaaa") -> bytes:
    return json.dumps({"type": "hello", "version": 1, "instance": instance, "windows": [], "views": 0}).encode() + b"\n"


def line(**obj) -> bytes:
    return json.dumps(obj).encode() + b"\n"


def action(seq: int) -> bytes:
    return line(type="action", seq=seq, action="a", gesture="tap", view="v", window="w", time=1.0)


def connect(session: Session, instance: str = "aaaaaaaaaaaaaaaa") -> list:
    session.connection_made()
    return session.receive(hello(instance))


def delivered(events) -> list:
    return [e.message for e in events if isinstance(e, Deliver)]


def test_commands_are_numbered_and_answers_matched():
    s = Session()
    assert connect(s) == [] and s.can_send
    first = s.command("ping")
    second = s.command("set", {"view": "door", "hidden": True})
    assert s.data_to_send() == (
        b'{"cmd":"ping","id":1}\n{"cmd":"set","id":2,"view":"door","hidden":true}\n'
    )
    events = s.receive(
        line(type="reply", id=first, ok=True)
        + action(5)
        + line(type="error", id=second, message="unknown view 'door'")[:10]
    )
    assert events[0] == Answer(1, touchd.Reply(1, True, {}))
    assert delivered(events) == [touchd.parse_message(action(5))]
    # The rest of a line arrives later.
    events = s.receive(line(type="error", id=second, message="unknown view 'door'")[10:])
    assert len(events) == 1 and events[0].id == 2
    assert isinstance(events[0].result, touchd.TouchdError) and events[0].result.message == "unknown view 'door'"


def test_an_error_without_id_answers_the_oldest_command():
    s = Session()
    connect(s)
    s.command("ping")
    events = s.receive(line(type="error", id=None, message="line 1 is longer than the limit"))
    assert events[0].id == 1 and isinstance(events[0].result, touchd.TouchdError)
    # With nothing waiting, it is a message.
    events = s.receive(line(type="error", id=None, message="x"))
    assert delivered(events) == [touchd.Error(None, "x")]


def test_connection_lost_fails_commands_in_flight():
    s = Session()
    connect(s)
    s.command("calibrate", {"window": "main", "targets": []})
    events = s.connection_lost()
    assert len(events) == 1 and isinstance(events[0].result, touchd.ConnectionLost)
    assert not s.can_send
    with pytest.raises(touchd.ConnectionLost):
        s.command("ping")


def test_resubscribe_and_missed_after_reconnecting_to_the_same_instance():
    s = Session()
    connect(s)
    id = s.command("subscribe", {"types": ["action", "touches"]})
    s.data_to_send()
    s.receive(line(type="reply", id=id, ok=True, types=["action", "touches"], actions=[], views=[], overflow="disconnect"))
    assert s.subscription == {"types": ["action", "touches"]}
    s.receive(action(7))
    s.connection_lost()

    assert connect(s) == []  # the Reconnected event waits for the subscription
    assert s.data_to_send() == b'{"cmd":"subscribe","id":2,"types":["action","touches"]}\n'
    # Published under the default filter before the reply: dropped, counted as missed.
    assert s.receive(action(9)) == []
    events = s.receive(line(type="reply", id=2, ok=True, types=["action", "touches"], actions=[], views=[]) + action(12))
    reconnected, missed, message = delivered(events)
    assert isinstance(reconnected, touchd.Reconnected)
    assert (reconnected.restarted, reconnected.last_seq, reconnected.attempts) == (False, 7, 1)
    assert missed == touchd.Missed(count=4, last_seq=7, seq=12, exact=False)
    assert message.seq == 12
    # Only once.
    assert delivered(s.receive(action(13)))[0].seq == 13


def test_restart_resets_seq_and_a_failed_resubscribe_is_told():
    s = Session()
    connect(s, "1111111111111111")
    id = s.command("subscribe", {"views": ["gone"]})
    s.receive(line(type="reply", id=id, ok=True, types=["action"], actions=[], views=["gone"]))
    s.receive(action(40))
    s.connection_lost()
    s.attempt_failed()
    connect(s, "2222222222222222")
    events = s.receive(line(type="error", id=2, message="no such view") + action(1))
    reconnected, first = delivered(events)
    assert (reconnected.restarted, reconnected.instance, reconnected.previous_instance) == (
        True, "2222222222222222", "1111111111111111",
    )  # fmt: skip
    assert reconnected.resubscribe_error == "no such view" and reconnected.attempts == 2
    assert first.seq == 1  # no Missed after a restart


def test_exact_when_subscribed_to_everything_and_gap_notice():
    s = Session()
    connect(s)
    id = s.command("subscribe", {"types": list(touchd.PIPELINE_TYPES)})
    s.receive(line(type="reply", id=id, ok=True, types=sorted(touchd.PIPELINE_TYPES), actions=[], views=[]))
    s.receive(action(3))
    s.connection_lost()
    connect(s)
    s.receive(line(type="reply", id=2, ok=True, types=sorted(touchd.PIPELINE_TYPES), actions=[], views=[]))
    events = s.receive(line(type="gap", skipped=2) + action(6))
    gap, missed, message = delivered(events)
    assert gap == touchd.Gap(2)
    assert missed == touchd.Missed(count=2, last_seq=3, seq=6, exact=True)


def test_refusals_before_hello():
    s = Session()
    s.connection_made()
    (refused,) = s.receive(line(type="error", id=None, message="too many clients: the limit is 1 (--max-clients)"))
    assert isinstance(refused, Refused) and refused.retry and not s.connected
    s.connection_made()
    (refused,) = s.receive(line(type="error", id=None, message="access denied"))
    assert not refused.retry and refused.error.message == "access denied"


def test_backoff():
    b = touchd.Backoff(initial=0.05, maximum=2.0, factor=2.0, jitter=0)
    assert [b.delay(n) for n in range(8)] == [0, 0.05, 0.1, 0.2, 0.4, 0.8, 1.6, 2.0]
    jittered = touchd.Backoff(jitter=0.2)
    rng = random.Random(1)
    delays = [jittered.delay(3, rng) for _ in range(200)]
    assert min(delays) >= 0.16 and max(delays) <= 0.24 and len(set(delays)) > 100


def test_encoding():
    assert touchd.encode_command("set", 3, {"view": "v", "frame": touchd.Size(1, 2)}) == (
        b'{"cmd":"set","id":3,"view":"v","frame":{"width":1,"height":2}}\n'
    )
    assert touchd.encode_command("set", 1, {"view": "d\u00e9j\u00e0"}) == '{"cmd":"set","id":1,"view":"déjà"}\n'.encode()
    with pytest.raises(ValueError):
        touchd.encode_command("set", 1, {"alpha": float("nan")})
    with pytest.raises(ValueError):
        touchd.encode_command("ping", 1, {"id": 2})
