"""Strategy players' benchmark: solitaire turns, strong vs Rule of 28, decision times.

Targets (issue 6): solitaire mean turns to claim 3 columns over 20,000 seeded
games, Rule of 28 near its published 10.7 and the strong player at or under
9.0; strong vs Rule of 28 with seats alternating over 10,000 games, strong
wins at least 70%; a hint / bot decision within 100 ms (median and max).

Run: ``.venv/bin/python -m benchmarks.players [--quick] [--seed S] [--workers N]``.
"""

import argparse
import os
import random
import statistics
import sys
import time

from engine import STOP, Phase, Roll, apply, can_stop, new_game
from engine.board import ALL_ROLLS
from engine.players import make_player, summarize
from engine.players.strong import _CONTEXTS
from boxcli.simulate import run_series


def series(kinds, games, seed, workers, rotate=False):
    start = time.perf_counter()
    results = run_series(kinds, games, seed, rotate=rotate, workers=workers)
    elapsed = time.perf_counter() - start
    return summarize(kinds, results, seed, rotate), elapsed


def sample_states(count: int, seed: int):
    """Decision points (phases MOVE and DECIDE) from 2-player games between the strong player and itself."""
    rng = random.Random(seed)
    strong = make_player("strong")
    states = []
    while len(states) < count:
        state = new_game(["A", "B"])
        while state.phase is not Phase.OVER and len(states) < count:
            if state.phase is Phase.MOVE:
                states.append(state)
                event = strong.choose_move(state)
            elif state.phase is Phase.DECIDE:
                states.append(state)
                event = STOP if can_stop(state) and not strong.should_roll(state) else Roll(rng.choice(ALL_ROLLS))
            else:
                event = Roll(rng.choice(ALL_ROLLS))
            state = apply(state, event)
    return states


def decision_times(count: int, seed: int):
    """Seconds per ``advise`` of the strong player, each from a cold cache (as a hint on request)."""
    strong = make_player("strong")
    states = sample_states(count, seed)
    times = []
    for state in states:
        _CONTEXTS.clear()
        t = time.perf_counter()
        strong.advise(state)
        times.append(time.perf_counter() - t)
    return times


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="a short run (2,000 / 1,000 games)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args(argv)
    solo = 2000 if args.quick else 20000
    duel = 1000 if args.quick else 10000
    w = args.workers
    print(f"seed {args.seed}, {w} worker(s){' (quick)' if args.quick else ''}")

    for kind, target in (("rule28", "published 10.7"), ("strong", "target <= 9.0")):
        s, el = series([kind], solo, args.seed, w)
        print(f"solitaire {kind:<7} {s['games']:>6} games: mean turns to claim {s['mean_turns_to_claim']:.3f} "
              f"(median {s['median_turns']}, capped {s['capped']}; {target}) in {el:.1f} s")

    s, el = series(["strong", "rule28"], duel, args.seed, w, rotate=True)
    rate = s["wins_by_player"][0] / s["games"]
    print(f"strong vs rule28 {s['games']:>6} games, seats alternating: strong wins {100 * rate:.1f}% "
          f"(target >= 70%), first seat wins {100 * s['first_player_win_rate']:.1f}%, "
          f"mean turns {s['mean_turns']:.2f}, capped {s['capped']} in {el:.1f} s")

    times = decision_times(300 if args.quick else 2000, args.seed)
    print(f"strong advise, cold cache, {len(times)} decisions: median {statistics.median(times) * 1e3:.2f} ms, "
          f"mean {statistics.fmean(times) * 1e3:.2f} ms, max {max(times) * 1e3:.1f} ms (target <= 100 ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
