"""Fixtures for the store tests: a store in a temporary state directory with a clock the test sets."""

import pytest

from firmware.store import Store
from tests.kit.clock import FakeClock


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
