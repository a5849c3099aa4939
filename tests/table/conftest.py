"""Each test's directory in memory: the real stores here commit (fsync) on every event (tests/kit/ramdir.py)."""

from tests.kit.ramdir import ram_tmp_path as tmp_path  # noqa: F401
