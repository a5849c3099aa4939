"""Test directories in memory (/dev/shm) for tests whose real store commits on every event.

The store commits each event with ``synchronous=FULL`` (an fsync), as it must on the box's card.
Under /tmp on this machine's virtual disk, shared with a QEMU guest, those fsyncs were most of
what the daemon's tests waited for (tests/daemon/test_saved_before_shown.py and test_daemon.py:
61 s on disk, 39 s in memory, the same checks). SQLite in memory runs the same code, fsync
included; what no test here can check either way is a card losing its power.

``ram_tmp_path`` is a drop-in ``tmp_path`` (tests/conftest.py imports it under that name, for every test): a fresh
directory per test, removed after it, or pytest's own tmp_path where /dev/shm is not writable.
``ram_tmp_path_factory`` is the same for ``tmp_path_factory`` (the stores of module-scoped fixtures: a game
played once for a module's tests), its folders removed at the end of the session.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path

import pytest

SHM = Path("/dev/shm")


#: /dev/shm is used only with this much free: a container's is often 64 MB, and a test's store
#: (10,000 games, a 50 MB cell) would not fit there.
MIN_FREE = 2 * 1024**3


def ram_base() -> Path | None:
    """/dev/shm when it is a writable directory (Linux) with MIN_FREE bytes free, else None."""
    if not (SHM.is_dir() and os.access(SHM, os.W_OK | os.X_OK)):
        return None
    room = os.statvfs(SHM)
    return SHM if room.f_bavail * room.f_frsize >= MIN_FREE else None


def ram_tempdir(prefix: str = "cantstop-test-") -> tempfile.TemporaryDirectory:
    """A ``tempfile.TemporaryDirectory`` in memory where it can be (tests that make one per example)."""
    base = ram_base()
    return tempfile.TemporaryDirectory(prefix=prefix, dir=None if base is None else str(base))


def _folder_name(text: str) -> str:
    """A test's or fixture's name as the start of a folder's name."""
    return re.sub(r"\W", "_", text)[:30]


@pytest.fixture
def ram_tmp_path(request, tmp_path_factory):
    base = ram_base()
    if base is None:
        yield tmp_path_factory.mktemp(_folder_name(request.node.name), numbered=True)
        return
    path = Path(tempfile.mkdtemp(prefix="cantstop-" + _folder_name(request.node.name) + "-", dir=base))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


class RamPathFactory:
    """``tmp_path_factory`` with its folders in memory (``mktemp`` and ``getbasetemp``, as the tests use it)."""

    def __init__(self, base: Path):
        self._base = base

    def mktemp(self, basename: str, numbered: bool = True) -> Path:
        return Path(tempfile.mkdtemp(prefix=_folder_name(basename) + "-", dir=self._base))

    def getbasetemp(self) -> Path:
        return self._base


@pytest.fixture(scope="session")
def ram_tmp_path_factory(tmp_path_factory):
    base = ram_base()
    if base is None:
        yield tmp_path_factory
        return
    session = Path(tempfile.mkdtemp(prefix="cantstop-session-", dir=base))
    try:
        yield RamPathFactory(session)
    finally:
        shutil.rmtree(session, ignore_errors=True)
