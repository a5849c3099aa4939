"""The parts of ``make scale`` (benchmarks/scale.py) timed in a process of their own.

A first opening of the Statistics screen happens once per process, and the
store's part of a start and of the commands is timed in a process that has
done its own imports and nothing else; so scale.py runs each of these as a
fresh ``python -m benchmarks.scale_probes ...`` and reads the one JSON list of
seconds it prints:

    python -m benchmarks.scale_probes in-box STATE_DIR --runs N --names NAME... [--drop-sums]
    python -m benchmarks.scale_probes store-part STATE_DIR --runs N --game ID

Each imports what it times inside its function, so a process loads only
what its own probe needs (as the box and the commands would).
"""

import argparse
import json
import sys
import time


def timed(f) -> float:
    """Seconds one call of ``f`` takes."""
    t = time.perf_counter()
    f()
    return time.perf_counter() - t


def in_box(state_dir: str, runs: int, names: tuple[str, ...], drop_sums: bool = False) -> list[float]:
    """Statistics (first open, later opens) and the Continue list, as in a box just started.

    ``drop_sums`` first removes the kept sums of the tallies, as a store saved
    by a version before them: the first open then adds up every tally, once.
    """
    from firmware.store import Store
    from firmware.table import roster as rosters
    from firmware.daemon.loaders import load_stats, unfinished
    import firmware.ui.messages  # noqa: F401  (the box has its UI imported long before Statistics open)

    store = Store.open(state_dir)  # as the box opens it: it keeps what it adds up (left open, as the box's)
    if drop_sums:
        store.put_fact("tally-sums", None)
    roster = rosters.load(store, names)
    first = timed(lambda: load_stats(store, roster))
    later = min(timed(lambda: load_stats(store, roster)) for _ in range(20 * runs))  # 0.1 ms each: many
    cont = min(timed(lambda: unfinished(store, roster)) for _ in range(20 * runs))
    return [first, later, cont]


def store_part(state_dir: str, runs: int, game: int) -> list[float]:
    """The store's part of a start, of ``history`` and of ``export GAME``, each the best of ``runs``.

    A start: open the store (its checks), the roster, the kept screen, the
    open game or the result still shown (what ``Box._load`` reads); the
    commands as run by ``main``, their output thrown away.
    """
    import contextlib
    import io

    from boxcli import cli, export, history  # noqa: F401  (the commands' modules loaded up front)
    from firmware.store import Store
    from firmware.table import restart
    from firmware.table import roster as rosters

    def start():
        store = Store.open(state_dir)
        rosters.load(store, ())
        kept = restart.kept(store)
        store.open_game() or restart.last_result(store, kept)
        store.close()

    def command(*words):
        with contextlib.redirect_stdout(io.StringIO()):
            assert cli.main(list(words)) == 0

    out = []
    for f in (start, lambda: command("history", "--state-dir", state_dir),
              lambda: command("export", str(game), "--state-dir", state_dir)):
        f()  # once first: the imports a command makes as it runs
        out.append(min(timed(f) for _ in range(runs)))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    probes = ap.add_subparsers(dest="probe", required=True)
    box = probes.add_parser("in-box", help="statistics first and later, and the Continue list")
    box.add_argument("state_dir")
    box.add_argument("--runs", type=int, required=True)
    box.add_argument("--names", nargs="+", required=True, help="the box's configured names")
    box.add_argument("--drop-sums", action="store_true", help="remove the tallies' kept sums first")
    part = probes.add_parser("store-part", help="the store's part of a start, history and export")
    part.add_argument("state_dir")
    part.add_argument("--runs", type=int, required=True)
    part.add_argument("--game", type=int, required=True, help="the game export writes")
    args = ap.parse_args(argv)
    if args.probe == "in-box":
        figures = in_box(args.state_dir, args.runs, tuple(args.names), args.drop_sums)
    else:
        figures = store_part(args.state_dir, args.runs, args.game)
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
