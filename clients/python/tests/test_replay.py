"""What the client yields for a recording is what ``touchctl replay --scene`` says the daemon
publishes for it, line for line (the repository's kiosk scene, a recording of the repository's
tests and one of the shared real-device recordings)."""

from __future__ import annotations

import json
import subprocess
import time

import pytest
from conftest import REPOSITORY

import touchd

KIOSK = REPOSITORY / "config" / "kiosk.yaml"
RECORDINGS = [
    REPOSITORY / "Tests" / "TouchdRenderTests" / "Fixtures" / "kiosk-tap-doubletap-pinch.evemu",
    # shared/ sits beside the repository's work tree
    REPOSITORY.parent / "shared" / "recordings" / "edt-ft5x06-EP0430M09-2finger-scroll-down.evemu",
]


@pytest.mark.parametrize("recording", RECORDINGS, ids=lambda p: p.name)
def test_client_sees_what_touchctl_replay_predicts(daemons, touchctl_binary, recording):
    if not recording.is_file() or not KIOSK.is_file():
        pytest.skip(f"{recording} or {KIOSK} is not there")
    printed = subprocess.run(
        [str(touchctl_binary), "replay", "--scene", str(KIOSK), str(recording)],
        check=True, capture_output=True, text=True, timeout=60,
    ).stdout  # fmt: skip
    expected = [json.loads(line) for line in printed.splitlines() if line.strip()]
    assert expected, "touchctl replay printed nothing"

    daemons.start(recording=recording, scene=KIOSK, exit_after_replay=True, speed=2, delay=0.5)
    got = []
    with touchd.Client(str(daemons.socket)) as client:
        client.subscribe(types=list(touchd.PIPELINE_TYPES))
        deadline = time.monotonic() + 20
        while True:
            message = client.next_message(timeout=deadline - time.monotonic())
            assert message is not None, f"no shutdown notice; got {len(got)} messages"
            if isinstance(message, touchd.Shutdown):
                break
            got.append(message)
    assert [m.raw for m in got] == expected
    # Typed as their type says, and parsed again from their JSON to the same value.
    classes = {"action": touchd.Action, "touches": touchd.Touches}
    for message in got:
        assert type(message) is classes[message.raw["type"]]
        assert touchd.parse_message(json.dumps(message.raw)) == message
