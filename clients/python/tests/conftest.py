"""Fixtures: the real touchd daemon, started on a socket in a temporary directory.

The daemon binary is ``$TOUCHD_BIN``, else ``<repository>/.build/debug/touchd`` (``swift build``);
the tests that need it are skipped when it is not there. It is copied once per test session, so
that a rebuild while the tests run does not pull it from under them.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator, List, Optional, Sequence

import pytest

HERE = Path(__file__).resolve().parent
PACKAGE_ROOT = HERE.parent  # clients/python
REPOSITORY = HERE.parents[2]

sys.path.insert(0, str(PACKAGE_ROOT))  # the package under test, without installing it
sys.path.insert(0, str(HERE))  # evemu.py

from evemu import FingerScript  # noqa: E402

# The test scene, shared with the Swift and JavaScript clients' tests.
SCENE = (HERE.parent.parent / "test-scene.yaml").read_text()

DOOR = (300.0, 250.0)
LAMP = (1200.0, 250.0)
PAD = (500.0, 800.0)


def taps_script(gap: float = 0.5) -> FingerScript:
    """A tap on door, on lamp, then on pad, ``gap`` seconds apart. Through SCENE it publishes 6
    messages: door touches began and cancelled (the tap recognizer takes the touch), open-door,
    toggle-lamp, pad touches began and ended."""
    script = FingerScript(start=10)
    script.tap(DOOR)
    script.wait(gap)
    script.tap(LAMP)
    script.wait(gap)
    script.tap(PAD)
    script.wait(gap)
    return script


#: The (type, view, phase or action) of the 6 messages of taps_script, in seq order.
TAPS_MESSAGES = [
    ("touches", "door", "began"),
    ("touches", "door", "cancelled"),
    ("action", "door", "open-door"),
    ("action", "lamp", "toggle-lamp"),
    ("touches", "pad", "began"),
    ("touches", "pad", "ended"),
]


def kind(message) -> tuple:
    """(type, view, phase or action) of a pipeline message."""
    return (message.type, message.view, message.action if message.type == "action" else message.phase)


def _find_binary(name: str, variable: str) -> Optional[Path]:
    given = os.environ.get(variable)
    path = Path(given) if given else REPOSITORY / ".build" / "debug" / name
    return path if path.is_file() and os.access(path, os.X_OK) else None


def _stable_copy(found: Path, directory: Path, wait: float = 90) -> Optional[Path]:
    """A copy of the binary that runs (``--version``). A binary being rebuilt may be missing or
    half written for a while: try again until ``wait`` seconds passed."""
    copy = directory / found.name
    deadline = time.monotonic() + wait
    while True:
        try:
            shutil.copy2(found, copy)
            if subprocess.run([str(copy), "--version"], capture_output=True, timeout=30).returncode == 0:
                return copy
        except (OSError, subprocess.SubprocessError):
            pass
        if time.monotonic() > deadline:
            return None
        time.sleep(2)


@pytest.fixture(scope="session")
def touchd_binary(tmp_path_factory: pytest.TempPathFactory) -> Path:
    found = _find_binary("touchd", "TOUCHD_BIN")
    if found is None:
        pytest.skip(
            "touchd is not built: set TOUCHD_BIN to the daemon binary, or run `swift build` "
            f"to make {REPOSITORY / '.build/debug/touchd'}"
        )
    copy = _stable_copy(found, tmp_path_factory.mktemp("bin"))
    if copy is None:
        pytest.skip(f"{found} does not run (`--version` failed)")
    return copy


@pytest.fixture(scope="session")
def touchctl_binary(tmp_path_factory: pytest.TempPathFactory) -> Path:
    given = os.environ.get("TOUCHCTL_BIN")
    found = _find_binary("touchctl", "TOUCHCTL_BIN")
    if found is None and not given:
        touchd = _find_binary("touchd", "TOUCHD_BIN")
        if touchd is not None and (touchd.parent / "touchctl").is_file():
            found = touchd.parent / "touchctl"
    if found is None:
        pytest.skip("touchctl is not built: set TOUCHCTL_BIN, or run `swift build`")
    copy = _stable_copy(found, tmp_path_factory.mktemp("bin"))
    if copy is None:
        pytest.skip(f"{found} does not run (`--version` failed)")
    return copy


def _listening(path: str) -> bool:
    """Whether a Unix socket is listening at ``path`` (from /proc/net/unix: no test connection,
    which the daemon would count)."""
    try:
        with open("/proc/net/unix") as table:
            next(table)
            for line in table:
                fields = line.split()
                # Num RefCount Protocol Flags Type St Inode Path; Flags 00010000 = __SO_ACCEPTCON
                if len(fields) >= 8 and fields[7] == path and int(fields[3], 16) & 0x10000:
                    return True
    except OSError:
        return os.path.exists(path)
    return False


class Daemon:
    """One touchd process on ``socket``, its log in ``log_path``."""

    def __init__(self, binary: Path, directory: Path, scene: Path, socket: Path, arguments: Sequence[str]):
        self.binary = binary
        self.directory = directory
        self.scene = scene
        self.socket = str(socket)
        self.arguments = list(arguments)
        self.process: Optional[subprocess.Popen] = None
        self.log_path = directory / f"touchd-{time.monotonic_ns()}.log"

    def start(self) -> "Daemon":
        command = [str(self.binary), "--scene", str(self.scene), "--socket", self.socket] + self.arguments
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log, cwd=self.directory)
        deadline = time.monotonic() + 20
        while not _listening(self.socket):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"touchd did not listen on {self.socket}; log:\n{self.log}")
            time.sleep(0.005)
        return self

    @property
    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 10) -> Optional[int]:
        if self.process is None:
            return None
        if self.process.poll() is None:
            self.process.send_signal(sig)
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait()

    def wait(self, timeout: float = 20) -> int:
        assert self.process is not None
        return self.process.wait(timeout)


class DaemonFactory:
    """Starts daemons for one test, all stopped at its end."""

    def __init__(self, binary: Path, directory: Path):
        self.binary = binary
        self.directory = directory
        self.socket = directory / "touchd.sock"
        self.scene = directory / "scene.yaml"
        self.scene.write_text(SCENE)
        self.daemons: List[Daemon] = []

    def recording(self, script: FingerScript, name: str = "input.evemu") -> Path:
        path = self.directory / name
        script.write(str(path))
        return path

    def start(
        self,
        script: Optional[FingerScript] = None,
        *,
        delay: float = 1.0,
        loop: bool = False,
        exit_after_replay: bool = False,
        speed: Optional[float] = None,
        scene: Optional[Path] = None,
        recording: Optional[Path] = None,
        extra: Sequence[str] = (),
    ) -> Daemon:
        arguments: List[str] = []
        if script is not None:
            recording = self.recording(script, f"input-{len(self.daemons)}.evemu")
        if recording is not None:
            arguments += ["--replay", str(recording), "--replay-delay", str(delay)]
            if loop:
                arguments.append("--loop")
            if exit_after_replay:
                arguments.append("--exit-after-replay")
            if speed is not None:
                arguments += ["--speed", str(speed)]
        arguments += list(extra)
        daemon = Daemon(self.binary, self.directory, scene or self.scene, self.socket, arguments)
        self.daemons.append(daemon)
        return daemon.start()

    def stop_all(self) -> None:
        for daemon in self.daemons:
            daemon.stop(signal.SIGKILL)


@pytest.fixture
def daemons(touchd_binary: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[DaemonFactory]:
    # A short directory: a Unix socket path is limited to 107 bytes.
    directory = Path(tmp_path_factory.mktemp("d"))
    factory = DaemonFactory(touchd_binary, directory)
    yield factory
    factory.stop_all()
