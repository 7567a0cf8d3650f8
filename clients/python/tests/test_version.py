"""The client's version is touchd's: the one in Sources/TouchdInput/Version.swift."""

from __future__ import annotations

import subprocess

import touchd
from conftest import REPOSITORY


def test_the_version_is_touchds():
    version = subprocess.run(
        [str(REPOSITORY / "scripts" / "version.sh")], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert version and touchd.__version__ == version
