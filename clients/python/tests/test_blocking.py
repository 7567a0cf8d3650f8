"""The blocking client against the real daemon."""

from __future__ import annotations

import re
import time

import pytest
from conftest import DOOR, LAMP, PAD, TAPS_MESSAGES, FingerScript, kind, taps_script

import touchd


def collect_until_shutdown(client: touchd.Client, timeout: float = 20) -> list:
    """Every message up to the daemon's shutdown notice (``--exit-after-replay``), which is last."""
    out = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        message = client.next_message(timeout=deadline - time.monotonic())
        if message is None:
            break
        out.append(message)
        if isinstance(message, touchd.Shutdown):
            return out
    pytest.fail(f"no shutdown within {timeout} s; got {out}")


def test_hello(daemons):
    daemons.start()
    with touchd.Client(str(daemons.socket)) as client:
        hello = client.hello
        assert isinstance(hello, touchd.Hello)
        assert hello.version == 1
        assert re.fullmatch(r"[0-9a-f]{16}", hello.instance), hello.instance
        assert hello.windows == [touchd.Window("main", 1920, 1080)]
        assert hello.views == 3
        assert hello.raw["type"] == "hello"
        assert client.connected


def test_tap_actions_with_default_filter(daemons):
    daemons.start(taps_script(), exit_after_replay=True, speed=2)
    with touchd.Client(str(daemons.socket)) as client:
        messages = collect_until_shutdown(client)
    # No subscribe: the daemon's default filter, actions only.
    actions = [m for m in messages if not isinstance(m, touchd.Shutdown)]
    assert [type(m) for m in actions] == [touchd.Action, touchd.Action]
    door, lamp = actions
    assert (door.seq, door.action, door.gesture, door.state, door.view, door.window, door.recognizer) == (
        3, "open-door", "tap", "ended", "door", "main", "door-tap",
    )  # fmt: skip
    assert door.location.x == pytest.approx(DOOR[0], abs=1)
    assert door.location.y == pytest.approx(DOOR[1], abs=1)
    assert door.number_of_touches == 1
    assert door.time == pytest.approx(10.05)
    assert (lamp.seq, lamp.action, lamp.view, lamp.recognizer) == (4, "toggle-lamp", "lamp", "lamp-tap")
    assert lamp.location.x == pytest.approx(LAMP[0], abs=1)
    assert lamp.location.y == pytest.approx(LAMP[1], abs=1)
    assert lamp.time == pytest.approx(10.6)
    assert door.raw["location"] == {"x": door.location.x, "y": door.location.y}


def test_subscribe_touches_phases_and_ids(daemons):
    script = FingerScript(start=10)
    script.tap(DOOR)
    script.wait(0.3)
    script.drag(PAD, (PAD[0] + 200, PAD[1]), duration=0.1)  # 12 frames at 120 Hz
    script.wait(0.3)
    daemons.start(script, exit_after_replay=True, speed=2)
    with touchd.Client(str(daemons.socket)) as client:
        reply = client.subscribe(types=["touches"])
        assert reply.fields == {
            "types": ["touches"],
            "actions": [],
            "views": [],
            "overflow": "disconnect",
            "coalesced": False,
            "predicted": False,
        }
        assert reply["types"] == ["touches"]
        messages = collect_until_shutdown(client)
    touches = [m for m in messages if isinstance(m, touchd.Touches)]
    assert len(touches) == len(messages) - 1  # no action: not subscribed
    phases = [(m.view, m.phase) for m in touches]
    assert phases == [("door", "began"), ("door", "cancelled"), ("pad", "began")] + [("pad", "moved")] * 12 + [
        ("pad", "ended")
    ]
    assert [m.seq for m in touches] == [1, 2] + list(range(4, 18))  # 3 is the open-door action
    door_ids = {t.id for m in touches[:2] for t in m.touches}
    pad_ids = {t.id for m in touches[2:] for t in m.touches}
    assert door_ids == {1} and pad_ids == {2}
    first, last = touches[2].touches[0], touches[-1].touches[0]
    assert (first.phase, first.view, first.tap_count) == ("began", "pad", 1)
    assert first.x == pytest.approx(PAD[0], abs=1) and first.y == pytest.approx(PAD[1], abs=1)
    assert last.phase == "ended" and last.x == pytest.approx(PAD[0] + 200, abs=1)


def test_subscribe_views_and_actions_filters(daemons):
    daemons.start(taps_script(), exit_after_replay=True, speed=2, delay=1.5)
    with touchd.Client(str(daemons.socket)) as views_client, touchd.Client(str(daemons.socket)) as actions_client:
        reply = views_client.subscribe(types=["action", "touches"], views=["lamp", "pad"])
        assert reply["views"] == ["lamp", "pad"]
        reply = actions_client.subscribe(types=("action", "touches"), actions="toggle-lamp")
        assert reply["actions"] == ["toggle-lamp"]
        by_view = collect_until_shutdown(views_client)
        by_action = collect_until_shutdown(actions_client)
    assert [kind(m) for m in by_view[:-1]] == TAPS_MESSAGES[3:]
    assert [m.seq for m in by_view[:-1]] == [4, 5, 6]
    # `actions` filters actions only: every touches message passes.
    assert [kind(m) for m in by_action[:-1]] == [k for k in TAPS_MESSAGES if k != ("action", "door", "open-door")]


def test_command_errors_carry_the_daemons_message(daemons):
    daemons.start()
    with touchd.Client(str(daemons.socket)) as client:
        with pytest.raises(touchd.TouchdError) as caught:
            client.set_view("dor", hidden=True)
        assert caught.value.message == "unknown view 'dor' (did you mean 'door'?)"
        assert str(caught.value) == caught.value.message
        assert caught.value.cmd == "set"
        assert isinstance(caught.value.id, int)

        with pytest.raises(touchd.TouchdError) as caught:
            client.send("set", view="door", hidden=1)
        assert caught.value.message == "'hidden' must be true or false, found 1"

        with pytest.raises(touchd.TouchdError) as caught:
            client.set_view("door", alpha="0.5")
        assert caught.value.message == "'alpha' must be a number, found \"0.5\""

        with pytest.raises(touchd.TouchdError) as caught:
            client.set_view("door", hiden=True)
        assert caught.value.message.startswith("unknown field 'hiden' (did you mean 'hidden'? set takes view, hidden, alpha")

        with pytest.raises(touchd.TouchdError) as caught:
            client.send("stauts")
        assert caught.value.message.startswith("unknown command 'stauts' (did you mean 'status'?")

        with pytest.raises(touchd.TouchdError) as caught:
            client.subscribe(types="toches")
        assert caught.value.message.startswith("unknown message type 'toches' in 'types' (did you mean 'touches'?")

        with pytest.raises(touchd.TouchdError) as caught:
            client.ignore_interaction(False)
        assert caught.value.message == "not ignoring interaction events"

        # A failed subscribe keeps the last good one, also for reconnections.
        assert client.subscription is None
        # The connection stays usable after errors; ids went on increasing.
        reply = client.ping()
        assert reply.ok and reply.fields == {} and reply.id == 8


def test_status_and_set_commands(daemons):
    daemon = daemons.start(extra=["--max-line-length", "4096", "--client-buffer", "65536"])
    with touchd.Client(str(daemons.socket)) as client:
        status = client.status()
        assert status.ok
        assert status["clients"] == 1
        assert status["ignoring"] == 0
        assert status["tracing"] is False
        assert status["replay"] is None
        assert status["idle"] is None
        assert status["limits"]["lineBytes"] == 4096
        assert status["limits"]["clientBufferBytes"] == 65536
        assert status["counters"]["clientsAccepted"] == 1
        assert status["scene"] == str(daemon.scene)

        assert client.ignore_interaction(True)["ignoring"] == 1
        assert client.ignore_interaction(True)["ignoring"] == 2
        assert client.status()["ignoring"] == 2

        reply = client.set_window("main", rotation=90)
        assert (reply["window"], reply["rotation"], reply["calibration"]) == ("main", 90, [1, 0, 0, 0, 1, 0])
        notice = client.next_message(timeout=5)
        assert isinstance(notice, touchd.WindowChanged)
        assert (notice.window, notice.width, notice.height, notice.rotation) == ("main", 1920, 1080, 90)

        reply = client.set_window("main", size=touchd.Size(1280, 720))
        assert (reply["width"], reply["height"]) == (1280, 720)
        assert isinstance(client.next_message(timeout=5), touchd.WindowChanged)

        assert client.reload().ok
        reloaded = client.next_message(timeout=5)
        assert isinstance(reloaded, touchd.Reloaded)
        assert reloaded.windows == [touchd.Window("main", 1920, 1080)] and reloaded.views == 3

        with pytest.raises(touchd.TouchdError) as caught:
            client.calibrate("main", [(10, 10), (20, 20)])
        assert caught.value.message.startswith("'targets' must be an array of 3 to 9 targets")


def test_hidden_view_gets_no_action(daemons):
    daemons.start(taps_script(), exit_after_replay=True, speed=2)
    with touchd.Client(str(daemons.socket)) as client:
        assert client.set_view("door", hidden=True).ok
        client.subscribe(types=["action", "touches"])
        messages = collect_until_shutdown(client)
    assert [kind(m) for m in messages[:-1]] == TAPS_MESSAGES[3:]
    assert [m.seq for m in messages[:-1]] == [1, 2, 3]


def test_messages_while_waiting_for_a_reply_are_kept(daemons):
    daemons.start(taps_script(gap=0.2), loop=True, speed=2, delay=0.3)
    with touchd.Client(str(daemons.socket)) as client:
        client.subscribe(types=["action", "touches"])
        # Only commands for a while, the replay going on: its messages wait in the client's queue.
        pings = 0
        deadline = time.monotonic() + 1.5
        while time.monotonic() < deadline:
            assert client.ping().ok
            pings += 1
            time.sleep(0.01)
        assert pings > 20
        # What is queued, without reading more (timeout 0).
        messages = list(iter(lambda: client.next_message(timeout=0), None))
    assert len(messages) >= 12
    assert [m.seq for m in messages] == list(range(1, len(messages) + 1))
    assert [kind(m) for m in messages] == [TAPS_MESSAGES[i % 6] for i in range(len(messages))]


def test_no_reconnect_raises(daemons, tmp_path):
    missing = tmp_path / "nobody.sock"
    with pytest.raises(FileNotFoundError):
        touchd.Client(str(missing), reconnect=False).connect()
    with pytest.raises(TimeoutError):
        touchd.Client(str(missing), connect_timeout=0.3).connect()

    daemon = daemons.start()
    client = touchd.Client(str(daemons.socket), reconnect=False)
    client.connect()
    client.ping()
    daemon.stop()
    assert isinstance(client.next_message(timeout=5), touchd.Shutdown)
    with pytest.raises(touchd.ConnectionLost):
        client.next_message(timeout=5)
    with pytest.raises(touchd.ConnectionLost):
        client.ping()
    client.close()
    assert list(client.messages(timeout=0.1)) == []


def test_push_scene(daemons):
    daemons.start()
    scene = {
        "version": 1,
        "windows": [
            {
                "id": "main",
                "size": {"width": 800, "height": 600},
                "devices": ["*"],
                "views": [
                    {
                        "id": "only",
                        "frame": {"x": 0, "y": 0, "width": 800, "height": 600},
                        "recognizers": [{"id": "only-tap", "type": "tap", "action": "poke"}],
                    }
                ],
            }
        ],
    }
    with touchd.Client(str(daemons.socket)) as client:
        reply = client.push_scene(scene)
        assert (reply["views"], reply["recognizers"]) == (1, 1)
        assert reply["windows"] == [{"id": "main", "width": 800, "height": 600}]
        notice = client.next_message(timeout=5)
        assert isinstance(notice, touchd.Reloaded)
        assert (notice.source, notice.views, notice.windows) == ("client", 1, [touchd.Window("main", 800, 600)])

        scene["windows"][0]["views"][0]["fram"] = scene["windows"][0]["views"][0].pop("frame")
        with pytest.raises(touchd.TouchdError) as caught:
            client.push_scene(scene)
        assert caught.value.message.startswith("scene rejected, the old scene stays: scene.windows[0].views[0]")
        assert "unknown key 'fram'" in caught.value.message
        assert client.status()["windows"] == [{"id": "main", "width": 800, "height": 600}]

        # One view added in front of the pushed one; every client hears of it.
        button = {"id": "ok", "frame": {"x": 10, "y": 10, "width": 100, "height": 50}}
        reply = client.update("add", view=button, parent="main")
        assert (reply["op"], reply["view"], reply["parent"], reply["index"], reply["views"]) == ("add", "ok", "main", 1, 2)
        notice = client.next_message(timeout=5)
        assert isinstance(notice, touchd.Updated)
        assert (notice.op, notice.view, notice.parent, notice.index, notice.views) == ("add", "ok", "main", 1, 2)
        with pytest.raises(touchd.TouchdError) as caught:
            client.update("remove", view="okk")
        assert caught.value.message == "unknown view 'okk' (did you mean 'ok'?)"
        assert client.update("remove", view="ok")["views"] == 1


def test_one_thread_iterates_while_another_sends_commands(daemons):
    import threading

    daemons.start(taps_script(gap=0.2), loop=True, speed=2, delay=0.3)
    with touchd.Client(str(daemons.socket)) as client:
        client.subscribe(types=["action", "touches"])
        seen = []

        def read():
            for message in client.messages(timeout=10):
                seen.append(message)
                if len(seen) == 12:
                    return

        reader = threading.Thread(target=read)
        reader.start()
        replies, errors = [], []
        deadline = time.monotonic() + 15
        while reader.is_alive() and time.monotonic() < deadline:
            replies.append(client.ping())
            try:
                client.set_view("lamp", alpha=2)
            except touchd.TouchdError as error:
                errors.append(error.message)
        reader.join(1)
        assert not reader.is_alive()
    assert len(replies) > 10
    assert [r.id for r in replies] == list(range(2, 2 * len(replies) + 2, 2))
    assert len(errors) == len(replies) and len(set(errors)) == 1 and "alpha" in errors[0]
    assert [m.seq for m in seen] == list(range(1, 13))
    assert [kind(m) for m in seen] == TAPS_MESSAGES * 2


def test_a_command_given_up_on_does_not_answer_the_next(daemons):
    daemons.start()
    with touchd.Client(str(daemons.socket)) as client:
        targets = [(100, 100), (1800, 100), (960, 1000)]
        started = time.monotonic()
        with pytest.raises(TimeoutError):
            # The daemon waits 1 s for touches; the client gives up after 0.2 s.
            client.request("calibrate", {"window": "main", "targets": [list(t) for t in targets], "timeout": 1}, timeout=0.2)
        # The daemon answers one command at a time: the ping's reply comes after the calibration's
        # (timed out) error, which the client drops.
        reply = client.ping()
        assert reply.ok and reply.id == 2
        assert time.monotonic() - started >= 0.9
        assert client.next_message(timeout=0) is None  # the dropped error is not a message either
