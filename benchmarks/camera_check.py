"""One check as the camera's process does it, without the renderer: its time and its memory.

It loads what the camera's process loads (NumPy, OpenCV, sight), sets up from the fixed empty-board photo
(tests/fixtures/camera) and reads each fixed photo ``--rounds`` times, as a hand-over's check would. It prints
the median and worst time of one check (wall and CPU) and the process's peak memory (its largest resident
set), the figures to set beside a Pi's: the box's own figures are measured the same way (docs/camera.md says
what a Pi Zero 2 W makes of them).

Run: ``make camera-bench`` (after the rendered boards) or ``.venv/bin/python -m benchmarks.camera_check``.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time

from engine import HEIGHTS
from sight import calibrate as calibration
from sight.layout import STANDARD_MARKERS, centred
from sight.palette import Palette
from sight.read import look
from sight.verdict import verdict
from tests.camera.photos import CASES, load


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args(argv)
    walls, cpus, setups = [], [], []
    for case in CASES:
        empty, photo, expected, colours = load(case)
        started = time.perf_counter()
        cal = calibration.calibrate(empty, HEIGHTS, centred(HEIGHTS, markers=STANDARD_MARKERS))
        setups.append(time.perf_counter() - started)
        palette = Palette.of(colours)
        for _ in range(args.rounds):
            wall, cpu = time.perf_counter(), time.process_time()
            verdict(look(photo, cal, expected, palette), expected)
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"one check (1280x720, as the camera's process runs it): median {1000 * statistics.median(walls):.0f} ms wall, "
          f"{1000 * statistics.median(cpus):.0f} ms CPU; worst {1000 * max(walls):.0f} ms wall "
          f"({len(walls)} checks of {len(setups)} photos)")
    print(f"set-up from the empty board: median {1000 * statistics.median(setups):.0f} ms")
    print(f"memory: {peak:.0f} MB at most (the camera's process: Python, NumPy, OpenCV, one reading)")


if __name__ == "__main__":
    main()
