"""simulate's worker processes when things go wrong: a job that fails, a worker killed from outside,
a stream left half read. Each ends the stream with the reason and leaves no process behind."""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from pathlib import Path

import pytest

from boxcli.workers import WorkerDied, ordered

FORK = multiprocessing.get_context("fork")


def _square_unless_seven(n: int) -> int:
    if n == 7:
        raise ValueError("seven")
    return n * n


def _pid(n: int) -> int:
    return os.getpid()


def test_results_come_in_job_order_whatever_the_workers():
    assert list(ordered(_square_unless_seven, range(7), 3, FORK, window=4)) == [n * n for n in range(7)]
    assert not multiprocessing.active_children()


def test_a_failing_job_raises_its_error_in_the_parent_and_stops_the_workers():
    stream = ordered(_square_unless_seven, range(100), 2, FORK, window=8)
    with pytest.raises(ValueError, match="seven"):
        list(stream)
    assert not multiprocessing.active_children()


def _dead(pid: int) -> bool:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"


@pytest.mark.parametrize("settled", [False, True], ids=["read-at-once", "read-once-it-is-gone"])
def test_a_worker_killed_from_outside_ends_the_stream_in_one_error(settled):
    """Its pipe found closed whether the parent next writes to it or reads from it."""
    for _ in range(5):
        stream = ordered(_pid, iter(int, 1), 2, FORK, window=8)  # jobs without end
        pid = next(stream)
        os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 30
        while settled and not _dead(pid) and time.monotonic() < deadline:
            time.sleep(0.001)
        with pytest.raises(WorkerDied, match="ended without answering"):
            for _ in range(10_000):
                next(stream)
        assert not multiprocessing.active_children()


def test_a_stream_closed_half_read_kills_its_workers():
    stream = ordered(_pid, iter(int, 1), 2, FORK, window=8)
    pids = {next(stream) for _ in range(20)}
    stream.close()
    assert not multiprocessing.active_children()
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
