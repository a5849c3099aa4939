"""Fill the bytecode caches once, one collecting process per core, before pytest-xdist's workers start.

From a fresh clone no module has its cache yet: each of ``make test``'s four
workers would rewrite every test module's asserts and compile every module
it imports, all four at once (11 s of CPU each on this project's 2-core
machine; 2.7 s each with the caches). Collecting the suite's files split
across the cores first does that work once (about 7 s here) and the workers
start from the caches.

Best effort: what it prints is dropped, since a file that fails to collect
here fails the same way in the real run, which reports it.

    python -m tests.kit.warm
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: What pytest collects (pyproject.toml's testpaths): the tests, and every package's doctests.
FOLDERS = ("tests", "engine", "hw", "sight", "firmware")


def files(root: Path = ROOT) -> list[str]:
    """Every Python file pytest would collect or import first, relative to ``root``, sorted."""
    return sorted(str(path.relative_to(root)) for folder in FOLDERS for path in (root / folder).rglob("*.py")
                  if "__pycache__" not in path.parts)


def split(names: list[str], parts: int) -> list[list[str]]:
    """``names`` dealt round-robin into at most ``parts`` non-empty groups (neighbours apart: a folder's
    files are alike in cost).

    >>> split(["a", "b", "c", "d", "e"], 2)
    [['a', 'c', 'e'], ['b', 'd']]
    >>> split(["a"], 4)
    [['a']]
    >>> split([], 2)
    []
    """
    return [group for group in (names[k::parts] for k in range(max(1, parts))) if group]


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def main() -> int:
    procs = [subprocess.Popen([sys.executable, "-m", "pytest", "-q", "--collect-only", *group], cwd=ROOT,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
             for group in split(files(), cores())]
    for proc in procs:
        proc.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
