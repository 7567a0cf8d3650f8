"""`pip install ./clients/python` into a fresh virtual environment, then use it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest
import touchd
from conftest import PACKAGE_ROOT


def run(*args, **kwargs) -> subprocess.CompletedProcess:
    env = dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1", PYTHONDONTWRITEBYTECODE="1")
    env.pop("PYTHONPATH", None)
    return subprocess.run(list(map(str, args)), capture_output=True, text=True, env=env, **kwargs)


def test_pip_install_into_a_venv(tmp_path, daemons):
    # A copy: pip builds in the source directory, which is not to be touched by the tests.
    source = tmp_path / "python"
    shutil.copytree(PACKAGE_ROOT, source, ignore=shutil.ignore_patterns("tests", "build", "*.egg-info", "__pycache__"))
    venv = tmp_path / "venv"
    made = run(sys.executable, "-m", "venv", "--system-site-packages", venv, timeout=120)
    if made.returncode != 0:
        pytest.skip(f"cannot make a virtual environment: {made.stderr.strip()[-300:]}")
    python = venv / "bin" / "python"

    # Offline first, with the build tools the environment has (setuptools >= 70.1, or an older
    # one with the wheel package); else as a user would, pip fetching setuptools for the build.
    offline = run(python, "-m", "pip", "install", "-q", "--no-index", "--no-build-isolation", source, timeout=300)
    if offline.returncode != 0:
        online = run(python, "-m", "pip", "install", "-q", source, timeout=300)
        if online.returncode != 0:
            pytest.skip(
                "pip cannot build the package here: offline it needs setuptools >= 70.1 or the wheel "
                f"package ({offline.stderr.strip()[-200:]}); online: {online.stderr.strip()[-200:]}"
            )

    daemons.start()
    check = run(
        python,
        "-c",
        "import sys, touchd, touchd.aio, importlib.metadata as md, pathlib\n"
        "print(pathlib.Path(touchd.__file__).parent)\n"
        "print(md.version('touchd'))\n"
        "print((pathlib.Path(touchd.__file__).parent / 'py.typed').is_file())\n"
        "with touchd.Client(sys.argv[1], reconnect=False) as c:\n"
        "    print(c.hello.version, c.ping().ok)\n",
        daemons.socket,
        cwd=tmp_path,  # not the source directory
        timeout=60,
    )
    assert check.returncode == 0, check.stderr
    where, version, typed, session = check.stdout.splitlines()
    assert where.startswith(str(venv)), where
    assert version == touchd.__version__
    assert typed == "True"
    assert session == "1 True"
