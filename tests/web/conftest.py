"""The web view's tests: a real box (firmware's Box on mock pins, a fake display, a real store) to press.

The web view only ever reads the store the box writes, so these tests play
on a box in-process and read with the web app, as a phone would beside it.
"""

from __future__ import annotations

import pytest

from tests.kit.rig import Rig


@pytest.fixture
def box(tmp_path):
    rig = Rig(tmp_path, rest=1.0)
    yield rig
    rig.close()


@pytest.fixture
def game(tmp_path):
    """A box with a game four presses in (seed 2)."""
    rig = Rig(tmp_path, seed=2, rest=1.0)
    rig.play_on(presses=4)
    yield rig
    rig.close()


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium for the session's browser tests (each worker its own), handed to each test reset:
    ``browser.page(size, lang)`` is the driver as ``chrome(size, lang)`` would start it."""
    from tests.web.browser import shared

    one = shared()  # the phone's browser tests hand over the same one (tests/phone/conftest.py)
    yield one
    one.close()
