"""Engine benchmark: random 2-player games, bust-odds query time, import time.

Policy (as the issue fixes it): each move is picked uniformly among the legal
moves; after each move the player stops with probability 0.5 (when a stop is
legal). Everything goes through the public API: ``apply(state, event)``.

Run: ``make bench`` or ``.venv/bin/python -m benchmarks.engine_speed [--seconds S]``.
"""

import argparse
import os
import random
import subprocess
import sys
import time
from pathlib import Path

from engine import ALL_ROLLS, STOP, Phase, Roll, apply, bust_probability, can_stop, new_game

ROLLS = tuple(Roll(d) for d in ALL_ROLLS)


def play_random_game(rng: random.Random, players=("Red", "Blue")) -> tuple[int, object]:
    """Play one game to the end; return (events applied, final state)."""
    state = new_game(players)
    events = 0
    MOVE, DECIDE, OVER = Phase.MOVE, Phase.DECIDE, Phase.OVER
    rand = rng.random
    while True:
        phase = state.phase
        if phase is MOVE:
            moves = state.moves
            event = moves[int(rand() * len(moves))]
        elif phase is OVER:
            return events, state
        elif phase is DECIDE and rand() < 0.5 and can_stop(state):
            event = STOP
        else:
            event = ROLLS[int(rand() * 1296)]
        state = apply(state, event)
        events += 1


def bench_games(seconds: float, seed: int) -> tuple[int, int, float, float]:
    """Games and events played in ``seconds`` of wall time, with the wall and CPU seconds used."""
    rng = random.Random(seed)
    games = events = 0
    start, cpu = time.perf_counter(), time.process_time()
    while True:
        n, _ = play_random_game(rng)
        games += 1
        events += n
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return games, events, elapsed, time.process_time() - cpu


def bench_odds(repeats: int = 20000) -> float:
    """Mean seconds per bust-odds query over a sample of mid-turn states."""
    rng = random.Random(7)
    states = []
    while len(states) < 200:
        state = new_game(("Red", "Blue"))
        while state.phase is not Phase.OVER and len(states) < 200:
            if state.phase is Phase.MOVE:
                state = apply(state, rng.choice(state.moves))
                states.append(state)
            elif state.phase is Phase.DECIDE and rng.random() < 0.3:
                state = apply(state, STOP)
            else:
                state = apply(state, rng.choice(ROLLS))
    bust_probability(states[0])  # build the table once, as the box does at start
    start = time.perf_counter()
    for i in range(repeats):
        bust_probability(states[i % 200])
    return (time.perf_counter() - start) / repeats


def bench_import(runs: int = 5) -> float:
    """Best wall time, in seconds, of ``import engine`` in a fresh interpreter."""
    code = "import time; t=time.perf_counter(); import engine; print(time.perf_counter()-t)"
    root = Path(__file__).resolve().parent.parent
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="0")
    best = []
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True, check=True)
        best.append(float(out.stdout))
    return min(best)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=10.0, help="how long to play random games (default 10)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=5, help="split the time into rounds; the best is reported too")
    args = ap.parse_args(argv)
    rounds = [bench_games(args.seconds / args.rounds, args.seed + r) for r in range(args.rounds)]
    games = sum(r[0] for r in rounds)
    events = sum(r[1] for r in rounds)
    elapsed = sum(r[2] for r in rounds)
    cpu = sum(r[3] for r in rounds)
    best = max(r[0] / r[2] for r in rounds)
    print(f"random 2-player games: {games} in {elapsed:.2f} s = {games / elapsed:,.0f} games/s, "
          f"{events / elapsed:,.0f} events/s ({events / games:.1f} events/game)")
    print(f"  best of {args.rounds} rounds (timeit's rule: the least disturbed run): {best:,.0f} games/s; "
          f"per CPU second overall: {games / cpu:,.0f} games/s")
    per_query = bench_odds()
    print(f"bust-odds query: {per_query * 1e6:.2f} us")
    print(f"import engine: {bench_import() * 1e3:.1f} ms (best of 5, fresh interpreter)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
