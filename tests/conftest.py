"""Every test runs as on a machine where the box is not installed, even on a Pi where it is.

(firmware.store.file.INSTALL_MARKERS: with /etc/cantstop-box/config.toml present,
every command would mean the box's own store; tests/cli/test_installed_box.py
puts markers of its own.)

Under CI (``CI`` set, as ``.ci/run`` is run) the property tests draw the same
examples at every run (hypothesis's ``derandomize``): CI is a gate, and a gate
that passes or fails by the draw says nothing of the change it gates. A
``make test`` on a laptop keeps drawing new examples, which is how the fit
tests find the next cut; the one it finds gets a named test.

Every test's ``tmp_path`` is in memory (/dev/shm, where it is there with room;
tests/kit/ramdir.py): the real stores commit with an fsync at every event, and
on this machine's virtual disk those fsyncs were most of what the suite waited on.
"""

import os

import pytest
from hypothesis import settings

from tests.kit.ramdir import ram_tmp_path as tmp_path  # noqa: F401 - every test's directory in memory
from tests.kit.ramdir import ram_tmp_path_factory as tmp_path_factory  # noqa: F401 - and every fixture's

settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture(autouse=True)
def _not_an_installed_box(monkeypatch):
    from firmware.store import file

    monkeypatch.setattr(file, "INSTALL_MARKERS", ())
