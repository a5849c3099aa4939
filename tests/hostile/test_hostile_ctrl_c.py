"""Ctrl-C stops a long ``simulate`` series with workers at once and quietly, whenever it lands.

A Ctrl-C in a terminal signals the whole foreground group: the parent and its workers alike. It
used to be lost when it came while the workers were being made (they were made with Ctrl-C
ignored), and the series of a billion games went on; and multiprocessing.Pool's terminate could
wait for ever on a lock a killed worker held. tests/hostile/ctrl_c_points.py presses at chosen
points, one process for many presses; `make soak` presses at every point, and at random moments
on a machine the test loads itself.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SERIES = [sys.executable, "-m", "boxcli.cli", "simulate", "--players", "rule28",
          "--games", "1000000000", "--workers", "2"]


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``, from each /proc/N/stat (its fourth field)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # gone meanwhile
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def _as_in_a_terminal(nice: int = 0):
    """The child as a terminal's foreground command has it: Ctrl-C not ignored. A shell starts a background
    job (``make test &``) with SIGINT ignored, and its children would inherit that and never see a press."""
    def setup():
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        if nice:
            os.nice(nice)
    return setup


def _press(workers_seen: int, after: float = 0.0, nice: int = 0) -> tuple[int, str, str]:
    """Ctrl-C to a billion-game series ``after`` seconds once ``workers_seen`` workers exist: its end."""
    proc = subprocess.Popen(SERIES, cwd=REPO, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True, preexec_fn=_as_in_a_terminal(nice))
    try:
        deadline = time.monotonic() + 60
        while len(_children(proc.pid)) < workers_seen and time.monotonic() < deadline:
            pass  # no sleep: the press may land the moment a worker is forked
        assert len(_children(proc.pid)) >= workers_seen, "the workers never started"
        time.sleep(after)
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=60)  # generous: a press that works ends it in a moment
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    return proc.returncode, out, err


@pytest.mark.parametrize("workers_seen", [2, 1], ids=["both-workers-running", "first-worker-just-forked"])
def test_hostile_simulate_ctrl_c_stops_a_long_series_quietly(workers_seen):
    assert _press(workers_seen) == (130, "", "")


def _points(*args: str) -> list[str]:
    done = subprocess.run([sys.executable, "-m", "tests.hostile.ctrl_c_points", *args], cwd=REPO, text=True,
                          capture_output=True, timeout=600, preexec_fn=_as_in_a_terminal())
    lines = done.stdout.splitlines()
    assert (done.returncode, lines[-1:]) == (0, ["done"]), (lines[-1:], done.stderr[-3000:])
    return lines


def test_hostile_ctrl_c_at_many_points_of_a_series_always_stops_it():
    """Every 75th step of the series' start, its forks, its first waits and answers: stopped each time."""
    lines = _points("--upto", "1500", "--every", "75")
    assert len(lines) > 20 and all(line.endswith(" ok") for line in lines[:-1])


@pytest.mark.slow
def test_hostile_ctrl_c_at_every_point_of_a_series_always_stops_it():
    lines = _points("--upto", "3000", "--every", "1")
    assert len(lines) > 3000


@pytest.mark.slow
def test_hostile_ctrl_c_at_random_moments_on_a_loaded_machine():
    """As the failure was seen: the series at nice 19 beside busy processes, pressed at any moment."""
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(os.cpu_count() or 2)]
    try:
        rng = random.Random(29)
        for _ in range(100):
            assert _press(rng.choice([1, 2]), rng.choice([0, 0, rng.uniform(0, 0.3)]), nice=19) == (130, "", "")
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
