"""Strong player's memory: resident size of one process after 20 and after 2,000 strong-vs-strong games.

The box keeps the strong player in its process for weeks (hints, box seats),
so its memos must not grow with the games played (issue 10: the target is the
size after 2,000 games within 10 MB of the size after 20). Linux only (reads
``/proc/self/statm``).

Run: ``.venv/bin/python -m benchmarks.player_memory [--games 2000] [--seed 1]``.
"""

import argparse
import os
import sys
import time

from engine import game as engine_game
from engine.players import game_rng, make_player, play_game
from engine.players import strong, turn


def resident_mb() -> float:
    """This process's resident set size now, in MB (2**20 bytes)."""
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    players = [make_player("strong"), make_player("strong")]
    marks = sorted({20, 200, args.games // 2, args.games} - {0})
    print(f"strong vs strong, one process, seed {args.seed}; resident MB at start: {resident_mb():.1f}")
    start = time.process_time()
    at = {}
    for i in range(args.games):
        play_game(players, game_rng(args.seed, i))
        if i + 1 in marks:
            sizes = turn.cache_sizes()
            at[i + 1] = resident_mb()
            print(f"after {i + 1:>5} games: {at[i + 1]:6.1f} MB resident, memo entries: outcomes "
                  f"{sizes['outcomes']}/{turn.OUTCOMES_CACHE_SIZE}, option sets {sizes['option_sets']}, "
                  f"legal-move sets {len(engine_game._MOVES_OF)}, turn contexts {len(strong._CONTEXTS)}; "
                  f"{(time.process_time() - start) / (i + 1) * 1e3:.1f} ms CPU per game", flush=True)
    if 20 in at and args.games in at and args.games > 20:
        growth = at[args.games] - at[20]
        print(f"growth from 20 to {args.games} games: {growth:+.1f} MB (target within 10 MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
