"""Fixtures for the daemon tests: a box on mock pins with a fake display and a real store."""

import pytest

from tests.kit.rig import Rig


@pytest.fixture
def rig(tmp_path):
    r = Rig(tmp_path)
    yield r
    r.close()
