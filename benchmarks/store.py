"""Store benchmark: committing one event, and resuming a long open game.

Targets (issue 4): one append (committed, ``synchronous=FULL``) under 5 ms,
median and p99 over 2,000 appends; resuming a 2,000-event game under 200 ms
(open the store with its integrity check + load the open game + replay it).
The resume is measured with a history of finished games beside the open one,
because the integrity check reads the whole file.

Run: ``.venv/bin/python -m benchmarks.store [--events N] [--history GAMES] [--dir DIR]``.
The directory must be on the disk being measured (the default is a new
temporary directory, removed afterwards).
"""

import argparse
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.scripted import random_event
from engine import Phase, Rules, apply, new_game, replay
from firmware.store import DB_NAME, Store


def long_game(count: int, seed: int = 0) -> tuple[tuple[str, ...], Rules, list]:
    """``count`` legal events of one game that is still going (solitaire, all 11 columns to win)."""
    players, rules = ("Red",), Rules(columns_to_win=11)
    rng = random.Random(seed)
    while True:
        state, events = new_game(players, rules), []
        while len(events) < count and state.phase is not Phase.OVER:
            event = random_event(state, rng, stop_chance=0.02)
            state = apply(state, event)
            events.append(event)
        if len(events) == count and state.phase is not Phase.OVER:
            return players, rules, events


def whole_game(rng: random.Random) -> tuple[list, int | None]:
    state, events = new_game(("Red", "Blue")), []
    while state.phase is not Phase.OVER:
        event = random_event(state, rng, stop_chance=0.4)
        state = apply(state, event)
        events.append(event)
    return events, state.winner


def fill_history(state_dir: Path, games: int) -> int:
    """Finished two-player games (saved without waiting for the disk: this is setup)."""
    rng = random.Random(99)
    total = 0
    with Store.open(state_dir) as store:
        store._db.execute("PRAGMA synchronous=OFF")
        for _ in range(games):
            events, winner = whole_game(rng)
            seats = [{"colour": "Red", "bot": None}, {"colour": "Blue", "bot": None}]
            g = store.new_game(["Red", "Blue"], Rules(), meta={"seats": seats})
            for e in events:
                store.append(g.id, e)
            store.finish(g.id, winner)
            total += len(events)
    return total


def bench_append(state_dir: Path, players, rules, events) -> list[float]:
    """Seconds per append, each one committed with synchronous=FULL."""
    times = []
    with Store.open(state_dir) as store:
        game = store.new_game(players, rules)
        perf = time.perf_counter
        for e in events:
            t = perf()
            store.append(game.id, e)
            times.append(perf() - t)
    return times


def bench_resume(state_dir: Path, expected: int, runs: int) -> tuple[list[float], list[float]]:
    """Seconds to open + load + replay the open game; and the open alone (integrity check included)."""
    total, opening = [], []
    for _ in range(runs):
        t0 = time.perf_counter()
        store = Store.open(state_dir)
        t1 = time.perf_counter()
        game = store.open_game()
        state = replay(new_game(game.players, game.rules), game.events)
        t2 = time.perf_counter()
        store.close()
        assert len(game.events) == expected and state.phase is not Phase.OVER
        total.append(t2 - t0)
        opening.append(t1 - t0)
    return total, opening


def bench_fsync(directory: Path, count: int = 300) -> list[float]:
    """Seconds per bare fsync of a small write: the disk's own floor, to read the append figure against."""
    path = directory / "fsync-probe"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    times = []
    try:
        for _ in range(count):
            os.write(fd, b"x" * 100)
            t = time.perf_counter()
            os.fsync(fd)
            times.append(time.perf_counter() - t)
    finally:
        os.close(fd)
        path.unlink()
    return times


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.99 * (len(ordered) - 1))))]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=2000, help="events appended, and the open game's length (2000)")
    ap.add_argument("--history", type=int, default=300, help="finished games stored beside it (300)")
    ap.add_argument("--runs", type=int, default=20, help="resume repetitions (20)")
    ap.add_argument("--dir", type=Path, help="state directory to use (default: a new temporary one)")
    args = ap.parse_args(argv)
    base = Path(tempfile.mkdtemp(prefix="cantstop-bench-", dir=args.dir))
    try:
        state_dir = base / "state"
        history_events = fill_history(state_dir, args.history)
        players, rules, events = long_game(args.events)
        times = bench_append(state_dir, players, rules, events)
        size = (state_dir / DB_NAME).stat().st_size + sum(
            p.stat().st_size for p in state_dir.glob(DB_NAME + "-wal"))
        print(f"store at {state_dir} ({size / 1e6:.1f} MB: {args.history} finished games of "
              f"{history_events:,} events + 1 open game of {len(events):,})")
        ms = [t * 1e3 for t in times]
        print(f"append (commit, synchronous=FULL), {len(ms):,} events: median {statistics.median(ms):.2f} ms, "
              f"p99 {p99(ms):.2f} ms, max {max(ms):.2f} ms  [target < 5 ms]")
        fs = [t * 1e3 for t in bench_fsync(state_dir)]
        print(f"bare fsync on the same disk (the floor): median {statistics.median(fs):.2f} ms, p99 {p99(fs):.2f} ms")
        total, opening = bench_resume(state_dir, len(events), args.runs)
        tm = [t * 1e3 for t in total]
        om = [t * 1e3 for t in opening]
        print(f"resume {len(events):,}-event game (open + integrity check + load + replay), {args.runs} runs: "
              f"median {statistics.median(tm):.1f} ms, max {max(tm):.1f} ms  [target < 200 ms]; "
              f"of which open + integrity check: median {statistics.median(om):.1f} ms")
        with Store.open(state_dir) as store:
            t0 = time.perf_counter()
            listed = store.games()
            t1 = time.perf_counter()
        print(f"history list of {len(listed)} games (statistics screen): games() {(t1 - t0) * 1e3:.1f} ms")
    finally:
        shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
