"""Statistics per person over a long history: opening the statistics screen must stay quick on a Pi.

A store of 2,000 finished games (named players, some solitaire) is built,
then timed:

- *first open*: no tallies kept yet (games saved by an older version): every
  game is replayed once, and the tallies are kept, one fact per game;
- *open*: what every later opening of the screen costs (the game list, the
  tally facts, adding up): median of several runs;
- *game end*: keeping one more game's tally (writing its one fact);
- *replay all*: what each opening would cost if it replayed every game.

Run: ``.venv/bin/python -m benchmarks.people [--games N] [--dir DIR]``.
"""

import argparse
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.scripted import random_event
from engine import Phase, Rules, apply, new_game
from firmware.table import person_stats
from firmware.table.roster import from_fact
from firmware.daemon.loaders import load_stats, seats_from_meta
from firmware.store import Store

NAMES = ("Ann", "Bob", "Cy", "Di", "김민준", "Zoë")
COLOURS = ("Red", "Blue", "Green", "Yellow")



def fill(state_dir: Path, games: int) -> None:
    """Finished games of 1 to 4 named players (saved without waiting for the disk: this is setup)."""
    rng = random.Random(5)
    with Store.open(state_dir) as store:
        store._db.execute("PRAGMA synchronous=OFF")
        for _ in range(games):
            n = rng.choice((1, 2, 2, 3, 4))
            names = rng.sample(NAMES, n)
            rules = Rules(columns_to_win=rng.choice((1, 2, 3)) if n == 1 else 3)
            state, events = new_game(COLOURS[:n], rules), []
            while state.phase is not Phase.OVER:
                event = random_event(state, rng, stop_chance=0.4)
                state = apply(state, event)
                events.append(event)
            seats = [{"colour": c, "bot": None, "name": m} for c, m in zip(COLOURS, names)]
            g = store.new_game(COLOURS[:n], rules, meta={"seats": seats})
            for e in events:
                store.append(g.id, e)
            store.finish(g.id, state.winner)


def timed(action) -> float:
    t0 = time.perf_counter()
    action()
    return time.perf_counter() - t0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000, help="finished games in the store (2000)")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--dir", help="a directory on the disk to measure (default: a temporary one)")
    args = ap.parse_args(argv)
    root = Path(args.dir) if args.dir else Path(tempfile.mkdtemp(prefix="cantstop-people-"))
    try:
        t = timed(lambda: fill(root, args.games))
        print(f"setup: {args.games} finished games in {t:.1f} s")
        roster = from_fact(None, NAMES)
        with Store.open(root) as store:
            summaries = store.games()
            replay_all = timed(lambda: [person_stats.tally(g.players, seats_from_meta(g.meta, g.players), g.rules,
                                                    g.events, g.winner)
                                        for g in (store.game(s.id) for s in summaries)])
            first = timed(lambda: load_stats(store, roster))
            opens = [timed(lambda: load_stats(store, roster)) for _ in range(args.runs)]
            loaded = load_stats(store, roster)
            t = person_stats.tally(("Red",), seats_from_meta(None, ("Red",)), Rules(), (), None)
            end = timed(lambda: person_stats.keep_tally(store, summaries[0].id, t))
        print(f"statistics, first open (replays every game once, keeps the tallies): {first * 1000:.0f} ms")
        print(f"statistics, every later open: median {statistics.median(opens) * 1000:.0f} ms "
              f"(max {max(opens) * 1000:.0f} ms) over {args.runs}")
        print(f"game end, keeping one tally: {end * 1000:.0f} ms")
        print(f"for comparison, replaying all {args.games} games: {replay_all * 1000:.0f} ms")
        print(f"people: {len(loaded.people)}, contests: {loaded.games}")
    finally:
        if not args.dir:
            shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
