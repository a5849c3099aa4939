"""Ctrl-C at chosen points of a long ``simulate`` series with workers: run as its own process.

``python -m tests.hostile.ctrl_c_points --upto N --every K`` starts the series over and over,
each time raising SIGINT in the main thread at one point: the Nth profiler event (a call, a
return, a C call) counted from the series' first step, so the press lands inside the pool's
start, its forks, its threads' starts, its locks, its waits, as a real Ctrl-C can. Every Kth
point up to N is tried, and every point where a lock was just taken (where a KeyboardInterrupt
raised at once would leave it held). Each try must end in KeyboardInterrupt within LOST_AFTER
seconds of the press, with no worker process or pool thread left and the Ctrl-C handler back.
One line a point ("N ok"), then "done"; at the first fault, what went wrong and exit status 1.
A try that hangs is ended by faulthandler after HANG_AFTER seconds, its threads' stacks on
standard error (exit status 1).
"""

from __future__ import annotations

import argparse
import faulthandler
import multiprocessing
import signal
import sys
import threading
import time

from boxcli.simulate import MAX_GAMES, iter_results

LOST_AFTER = 5.0
HANG_AFTER = 20.0
LOCKS = {"lock.acquire", "lock.__enter__", "RLock.acquire", "RLock.__enter__", "SemLock.acquire",
         "SemLock.__enter__"}


def series():
    return iter_results(["random"], MAX_GAMES, 3, max_turns=20, workers=2)


def survey(upto: int) -> list[int]:
    """The points, among the first ``upto`` events of an uninterrupted series, right after a lock was taken."""
    seen, found = [0], []

    def profile(frame, event, arg):
        seen[0] += 1
        if event == "c_return" and getattr(arg, "__qualname__", None) in LOCKS:
            found.append(seen[0])
        if seen[0] >= upto:
            sys.setprofile(None)

    stream = series()
    try:
        sys.setprofile(profile)
        for _ in stream:
            if seen[0] >= upto:
                break
    finally:
        sys.setprofile(None)
        stream.close()
    return found


def press_at(point: int) -> str:
    """What happened when Ctrl-C came at the ``point``th event of a series: "ok" or the fault."""
    seen, pressed = [0], []

    def profile(frame, event, arg):
        seen[0] += 1
        if seen[0] == point:
            sys.setprofile(None)
            pressed.append(time.monotonic())
            signal.raise_signal(signal.SIGINT)  # to this thread, at once

    stream = series()
    outcome = None
    try:
        sys.setprofile(profile)
        for _ in stream:
            if pressed and time.monotonic() - pressed[0] > LOST_AFTER:
                outcome = f"the press was lost: the series went on for {LOST_AFTER} s"
                break
        else:
            outcome = "the series ended by itself"
    except KeyboardInterrupt:
        pass
    except BaseException as err:  # noqa: BLE001 - any other way of ending is the fault to report
        outcome = f"{type(err).__name__}: {err}"
    finally:
        sys.setprofile(None)
        stream.close()
    if outcome:
        return outcome
    if not pressed:
        return "never pressed"
    if left := multiprocessing.active_children():
        return f"{len(left)} worker(s) left running"
    if threading.active_count() != 1:
        return f"threads left: {[t.name for t in threading.enumerate()]}"
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        return f"the Ctrl-C handler is not given back: {signal.getsignal(signal.SIGINT)!r}"
    return "ok"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--upto", type=int, required=True, help="try points 1..UPTO")
    parser.add_argument("--every", type=int, default=1, help="every Kth point (and each just after a lock)")
    args = parser.parse_args(argv)
    for _ in series():  # the modules imported and the first pool made, so points fall in the series itself
        break
    points = sorted(set(range(1, args.upto + 1, args.every)) | set(survey(args.upto)))
    for point in points:
        faulthandler.dump_traceback_later(HANG_AFTER, exit=True)
        outcome = press_at(point)
        faulthandler.cancel_dump_traceback_later()
        print(point, outcome, flush=True)
        if outcome != "ok":
            return 1  # the first fault is enough
    print("done", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
