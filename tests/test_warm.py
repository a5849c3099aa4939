"""``make test``'s warm-up (tests/kit/warm.py) collects what pytest collects, split across the cores."""

from __future__ import annotations

import re
from pathlib import Path

from tests.kit import warm

ROOT = Path(__file__).resolve().parents[1]


def test_warm_covers_every_file_pytest_collects_and_no_cache():
    names = warm.files()
    assert "tests/conftest.py" in names and "engine/__init__.py" in names and "tests/kit/warm.py" in names
    assert not any("__pycache__" in name or not name.endswith(".py") for name in names)
    tests = {str(p.relative_to(ROOT)) for p in (ROOT / "tests").rglob("test_*.py")}
    assert tests <= set(names)
    testpaths = re.search(r"testpaths = \[(.*?)\]", (ROOT / "pyproject.toml").read_text()).group(1)
    assert tuple(re.findall(r'"(\w+)"', testpaths)) == warm.FOLDERS  # the same folders as pytest's own


def test_warm_deals_every_file_once_into_one_group_a_core():
    names = warm.files()
    groups = warm.split(names, 2)
    assert len(groups) == 2 and abs(len(groups[0]) - len(groups[1])) <= 1
    assert sorted(sum(groups, [])) == names


def test_make_test_warms_before_the_workers_start():
    recipe = (ROOT / "Makefile").read_text().split("\ntest: $(STAMP) test-tools\n")[1].split("\n\n")[0].splitlines()
    assert recipe[0].strip() == "$(PY) -m tests.kit.warm"
    assert "-m pytest" in recipe[1] and "-n $(TEST_JOBS)" in recipe[1]
