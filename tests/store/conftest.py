"""Fixtures for the store tests: a store in a temporary state directory with a clock the test sets."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from firmware.store import Store  # noqa: E402
from storekit import FakeClock  # noqa: E402


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def state_dir(tmp_path):
    return tmp_path / "state"


@pytest.fixture
def store(state_dir, clock):
    s = Store.open(state_dir, clock=clock)
    yield s
    s.close()
