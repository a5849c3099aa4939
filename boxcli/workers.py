"""Worker processes for ``simulate``: jobs done in parallel, results in job order, and a Ctrl-C that
always stops them at once.

Each worker has a pipe of its own to the parent and nothing else shared, so stopping one (a kill)
can never leave a lock held that the parent then waits on. multiprocessing.Pool could: its
terminate kills workers that may be half-way through writing a result under the result queue's
lock, and its task thread then waits on that lock for ever (a Ctrl-C that never ended the series).

A Ctrl-C is only noted while the workers run (the parent's SIGINT handler replaced, see CtrlC) and
raised where the parent looks for it: before each result it hands on and every POLL seconds while it
waits. A KeyboardInterrupt raised wherever the press lands could land between a process forked and
its being recorded, or, inside a library, between a lock taken and the ``with`` that gives it back.
"""

from __future__ import annotations

import collections
import contextlib
import signal
import threading
from multiprocessing import connection

POLL = 0.05  # seconds between looks for a Ctrl-C while the workers play
QUEUED = 2  # jobs handed to each worker at a time, so it never waits for the parent


class WorkerDied(RuntimeError):
    """A worker process ended without answering (killed from outside, out of memory)."""


def ordered(function, jobs, workers: int, context, window: int):
    """``function(job)`` for each of ``jobs`` in ``workers`` processes, yielded in the jobs' order.

    At most ``window`` jobs are in flight or waiting to be yielded, so memory stays flat however
    many jobs there are. ``function`` and the jobs must pickle (``context`` spawns as well as forks).
    The workers are killed when the stream ends, is closed, or raises (KeyboardInterrupt included).
    """
    jobs = enumerate(jobs)
    with ctrl_c_held() as ctrl_c:
        crew = []
        try:
            for _ in range(workers):
                mine, theirs = context.Pipe()
                process = context.Process(target=_serve, args=(function, theirs), daemon=True)
                crew.append((process, mine, collections.deque()))
                process.start()
                theirs.close()
            done: dict[int, object] = {}
            wanted = handed = 0
            more = True
            while True:
                for process, pipe, queued in crew:
                    while more and len(queued) < QUEUED and handed - wanted < window:
                        job = next(jobs, None)
                        if job is None:
                            more = False
                            break
                        try:
                            pipe.send(job)
                        except OSError:  # its end closed: it is gone
                            _died(process)
                        queued.append(job[0])
                        handed += 1
                while wanted in done:
                    ctrl_c.check()
                    yield done.pop(wanted)
                    wanted += 1
                if not more and wanted == handed:
                    break
                ctrl_c.check()
                _take_answers(crew, done)
                ctrl_c.check()
        finally:
            _stop(crew)


def _take_answers(crew, done: dict) -> None:
    """The answers the workers have ready, waiting at most POLL seconds for the first."""
    waiting = {pipe: (process, queued) for process, pipe, queued in crew if queued}
    for pipe in connection.wait(list(waiting), timeout=POLL):
        process, queued = waiting[pipe]
        try:
            index, ok, value = pipe.recv()
        except (EOFError, OSError):
            _died(process)
        if index != queued.popleft():
            raise WorkerDied(f"a worker answered job {index} out of turn")
        if not ok:
            raise value
        done[index] = value


def _died(process):
    process.join(1)
    raise WorkerDied(f"a worker process ended without answering (exit status {process.exitcode})") from None


def _stop(crew) -> None:
    """Every worker killed and reaped, its pipe closed: nothing of theirs is waited on but their end."""
    for process, pipe, _ in crew:
        pipe.close()
        if process.pid is not None:  # started
            process.kill()
    for process, _, _ in crew:
        if process.pid is not None:
            process.join()


def _serve(function, pipe) -> None:
    """In a worker: answer jobs until the parent's end closes. Ctrl-C is for the parent, which stops us."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    while True:
        try:
            index, job = pipe.recv()
        except (EOFError, OSError):
            return
        try:
            answer = (index, True, function(job))
        except Exception as err:  # noqa: BLE001 - handed to the parent, which raises it
            answer = (index, False, err)
        try:
            pipe.send(answer)
        except (BrokenPipeError, OSError):
            return


class CtrlC:
    """Ctrl-C presses kept for a safe moment, then handed to the handler that was there before."""

    def __init__(self, previous=None) -> None:
        self.previous, self.pressed = previous, False

    def note(self, signum, frame) -> None:
        self.pressed = True

    def check(self) -> None:
        if self.pressed:
            self.pressed = False
            self.previous(signal.SIGINT, None)  # Python's own raises KeyboardInterrupt


@contextlib.contextmanager
def ctrl_c_held():
    """A CtrlC in place of the Ctrl-C handler for as long as the block (or a stream around it) runs.

    Workers forked meanwhile are born noting presses, never dying of one, until they ignore Ctrl-C.
    Nothing changes where Ctrl-C is not Python's to handle (ignored, as under nohup) or off the main
    thread, where signals cannot be set.
    """
    previous = signal.getsignal(signal.SIGINT)
    if threading.current_thread() is not threading.main_thread() or not callable(previous):
        yield CtrlC()
        return
    ctrl_c = CtrlC(previous)
    signal.signal(signal.SIGINT, ctrl_c.note)
    try:
        yield ctrl_c
    finally:
        signal.signal(signal.SIGINT, previous)
    ctrl_c.check()  # a press in the very last moment of a block that ended
