"""Every test runs as on a machine where the box is not installed, even on a Pi where it is.

(firmware.store.file.INSTALL_MARKERS: with /etc/cantstop-box/config.toml present,
every command would mean the box's own store; tests/cli/test_installed_box.py
puts markers of its own.)
"""

import pytest


@pytest.fixture(autouse=True)
def _not_an_installed_box(monkeypatch):
    from firmware.store import file

    monkeypatch.setattr(file, "INSTALL_MARKERS", ())
