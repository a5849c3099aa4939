"""Peak memory of a long simulation: strong against strong, one worker.

    python -m benchmarks.simulate_memory [--games 20000] [--limit-mb 80]

Runs ``cantstop-box simulate --players strong,strong --workers 1`` as a child
process and reads its peak resident memory (``ru_maxrss``). Exits 1 above
the limit: games are streamed and the strong player's memos are bounded, so
the peak must not grow with the number of games.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--limit-mb", type=float, default=80.0)
    args = parser.parse_args(argv)
    command = [sys.executable, "-m", "boxcli.cli", "simulate", "--players", "strong,strong",
               "--workers", "1", "--games", str(args.games), "--seed", "1"]
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    took = time.perf_counter() - start
    if done.returncode != 0:
        print(f"simulate failed ({done.returncode}): {done.stderr.strip()}", file=sys.stderr)
        return 1
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024  # KB on Linux
    print(f"simulate memory: strong vs strong, {args.games} games, 1 worker: peak {peak:.1f} MB "
          f"(limit {args.limit_mb:g} MB) in {took:.0f} s")
    return 0 if peak <= args.limit_mb else 1


if __name__ == "__main__":
    sys.exit(main())
