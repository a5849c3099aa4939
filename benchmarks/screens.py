"""Renderer benchmark: time to turn one view into a 128x64 frame.

Target: median under 2 ms per frame on this machine over every sample view of
``firmware/samples.py`` (the frame is most of the press-to-frame budget that
``benchmarks/box.py`` measures end to end). Moved here from a timed unit test:
speed targets live in benchmarks, not in ``make test``.

Run: ``make bench`` or ``.venv/bin/python benchmarks/screens.py [--rounds N]``.
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from firmware.samples import SAMPLES  # noqa: E402
from firmware.screens import render  # noqa: E402

TARGET_MEDIAN_S = 0.002


def frame_times(rounds: int) -> dict[str, list[float]]:
    """Seconds per render of each sample view, ``rounds`` times each (fonts loaded first)."""
    render(SAMPLES["board_mid_game"])
    times: dict[str, list[float]] = {name: [] for name in SAMPLES}
    for _ in range(rounds):
        for name, view in SAMPLES.items():
            start = time.perf_counter()
            render(view)
            times[name].append(time.perf_counter() - start)
    return times


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=50)
    args = ap.parse_args(argv)
    times = frame_times(args.rounds)
    every = sorted(t for ts in times.values() for t in ts)
    median = statistics.median(every)
    p99 = every[int(len(every) * 0.99)]
    slowest = max(times, key=lambda name: statistics.median(times[name]))
    print(f"render: median {median * 1000:.3f} ms, 99th percentile {p99 * 1000:.3f} ms per frame "
          f"over {len(every)} frames of {len(SAMPLES)} views; slowest view {slowest} "
          f"(median {statistics.median(times[slowest]) * 1000:.3f} ms)")
    if median >= TARGET_MEDIAN_S:
        print(f"MISSED: median over {TARGET_MEDIAN_S * 1000:.0f} ms")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
