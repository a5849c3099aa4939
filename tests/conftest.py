"""Every test runs as on a machine where the box is not installed, even on a Pi where it is.

(firmware.store.file.INSTALL_MARKERS: with /etc/cantstop-box/config.toml present,
every command would mean the box's own store; tests/cli/test_installed_box.py
puts markers of its own.)

Under CI (``CI`` set, as ``.ci/run`` is run) the property tests draw the same
examples at every run (hypothesis's ``derandomize``): CI is a gate, and a gate
that passes or fails by the draw says nothing of the change it gates. A
``make test`` on a laptop keeps drawing new examples, which is how the fit
tests find the next cut; the one it finds gets a named test.
"""

import os

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture(autouse=True)
def _not_an_installed_box(monkeypatch):
    from firmware.store import file

    monkeypatch.setattr(file, "INSTALL_MARKERS", ())
