"""Renderer benchmark: time to turn one view into a frame, at every screen size.

Target: median under 2 ms per frame on this machine over every sample view of
``firmware/devtools/samples.py``, at each size the box has screens for (128x64; 128x32,
all of a frame's pages; 256x64 grey) (the frame is most of the press-to-frame budget that
``benchmarks/box.py`` measures end to end). Moved here from a timed unit test:
speed targets live in benchmarks, not in ``make test``.

Run: ``make bench`` or ``.venv/bin/python -m benchmarks.screens [--rounds N]``.
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

from firmware.devtools.samples import SAMPLES
from firmware.screens import LAYOUTS, render_pages

TARGET_MEDIAN_S = 0.002


def frame_times(rounds: int, size: tuple[int, int] = (128, 64)) -> dict[str, list[float]]:
    """Seconds per render of each sample view at ``size`` (all its pages), ``rounds`` times each (fonts loaded first)."""
    render_pages(SAMPLES["board_mid_game"], size)
    times: dict[str, list[float]] = {name: [] for name in SAMPLES}
    for _ in range(rounds):
        for name, view in SAMPLES.items():
            start = time.perf_counter()
            render_pages(view, size)
            times[name].append(time.perf_counter() - start)
    return times


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=50)
    args = ap.parse_args(argv)
    missed = False
    for size in LAYOUTS:
        times = frame_times(args.rounds, size)
        every = sorted(t for ts in times.values() for t in ts)
        median = statistics.median(every)
        p99 = every[int(len(every) * 0.99)]
        slowest = max(times, key=lambda name: statistics.median(times[name]))
        print(f"render {size[0]}x{size[1]}: median {median * 1000:.3f} ms, 99th percentile {p99 * 1000:.3f} ms per frame "
              f"over {len(every)} frames of {len(SAMPLES)} views; slowest view {slowest} "
              f"(median {statistics.median(times[slowest]) * 1000:.3f} ms)")
        if median >= TARGET_MEDIAN_S:
            print(f"MISSED: median over {TARGET_MEDIAN_S * 1000:.0f} ms at {size[0]}x{size[1]}")
            missed = True
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
