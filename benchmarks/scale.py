"""Scale benchmark: every screen and command costs the same with 100 or 10,000 games stored.

Stores of 100, 1,000 and 10,000 finished games are built (named players,
two to four seats and some solitaire, each game's tally kept as the box keeps
it when a game ends), then timed:

- *first frame*: process start to the first frame of ``cantstop-box emulate``
  (the same start-up as ``run``), with no open game (the new-game screen) and
  resuming an open game;
- *history*: ``cantstop-box history`` (its default page), the whole command;
- *statistics*: opening the Statistics screen (``load_stats``) in a box that
  has just started (first) and again (later);
- *continue*: the Continue list (``unfinished``);
- *export*: ``cantstop-box export N`` of one game, the whole command;
- *size*: the store's file on disk.

Targets (issue 21): each under 300 ms at 10,000 games, and at most 1.5x its
100-game figure, for the store's part of each step (a start, a command, a
screen: in a process whose imports are done) and for the whole processes
(first frame, ``history``, ``export``), which are also shown beside the same
with no games at all. The whole processes run with their bytecode cached, as
an installed box has it (``startup.as_installed``). Every figure is the best
of ``--runs`` runs (each "first" in a process of its own): what a step costs,
since a shared machine's load only ever adds to it (a median of three moved
by half under load).

``--fill writes`` (default) builds each store with the store's own writes in
this process (new_game, append, finish, the tally); ``--fill import`` writes
the games as game records into a folder and brings them in with
``cantstop-box import DIR``, as a box's history is moved to a new card.

Run: ``make scale`` (all three sizes) or ``make bench`` (``--quick``: 100 and
1,000 games), or ``.venv/bin/python -m benchmarks.scale [--quick] [--games N ...]
[--fill writes|import] [--dir DIR] [--runs N]``. With ``--dir`` the stores are
kept (and reused when they are already there).
"""

import argparse
import json
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.scripted import random_event
from benchmarks.startup import as_installed, first_frame  # the daemon spawned to its first frame
from engine import Phase, Rules, apply, new_game
from firmware.store import DB_NAME, Store
from firmware.table import person_stats
from firmware.table.seat import seats_from_meta

ROOT = Path(__file__).resolve().parent.parent

NAMES = ("Ann", "Bob", "Cy", "Di", "김민준", "Zoë")
COLOURS = ("Red", "Blue", "Green", "Yellow")
TARGET_MS, TARGET_RATIO = 300, 1.5
DISTINCT = 300  # games played out once, then stored again and again with other names and times
T0 = 1_700_000_000.0  # the first game's start


def _games(seed: int = 21):
    """DISTINCT finished games: (colours, rules, events, winner)."""
    rng = random.Random(seed)
    out = []
    for _ in range(DISTINCT):
        n = rng.choice((1, 2, 2, 3, 4))
        rules = Rules(columns_to_win=rng.choice((1, 2, 3)) if n == 1 else 3)
        state, events = new_game(COLOURS[:n], rules), []
        while state.phase is not Phase.OVER:
            event = random_event(state, rng, stop_chance=0.4)
            state = apply(state, event)
            events.append(event)
        out.append((COLOURS[:n], rules, events, state.winner))
    return out


def _plan(count: int):
    """The count games to store: (colours, rules, events, winner, seats, start), oldest first."""
    rng = random.Random(count)
    played = _games()
    for i in range(count):
        colours, rules, events, winner = played[i % DISTINCT]
        names = rng.sample(NAMES, len(colours))
        seats = [{"colour": c, "bot": None, "name": m} for c, m in zip(colours, names)]
        yield colours, rules, events, winner, seats, T0 + i * 3600.0


class _Clock:
    def __init__(self):
        self.now = T0

    def __call__(self):
        self.now += 0.5
        return self.now


def fill_writes(state_dir: Path, count: int) -> None:
    """The games through the store's own writes, each tally kept as the box keeps it (no disk waits: setup)."""
    clock = _Clock()
    with Store.open(state_dir, clock=clock) as store:
        store._db.execute("PRAGMA synchronous=OFF")
        for colours, rules, events, winner, seats, start in _plan(count):
            clock.now = start
            g = store.new_game(colours, rules, meta={"seats": seats})
            for e in events:
                store.append(g.id, e)
            t = person_stats.tally(colours, seats_from_meta({"seats": seats}, colours), rules, events, winner)
            person_stats.keep_tally(store, g.id, t)


def write_records(folder: Path, count: int) -> None:
    """The games as game records (what ``cantstop-box export`` writes), one file per game."""
    folder.mkdir(parents=True, exist_ok=True)
    iso = lambda s: time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(s))  # noqa: E731
    for i, (colours, rules, events, winner, seats, start) in enumerate(_plan(count), 1):
        obj = {"players": list(colours), "rules": rules.to_json(), "events": [e.to_json() for e in events],
               "status": "finished", "started": iso(start), "finished": iso(start + 1200), "winner": winner,
               "meta": {"seats": seats}}
        (folder / f"game-{i:05d}.json").write_text(json.dumps(obj, ensure_ascii=False), encoding="utf-8")


def fill_import(state_dir: Path, count: int) -> float:
    """The games written as records, then brought in with ``cantstop-box import``; seconds the import took."""
    records = state_dir.parent / f"{state_dir.name}-records"
    write_records(records, count)
    t = time.perf_counter()
    _command("import", str(records), "--state-dir", str(state_dir), check=True)
    took = time.perf_counter() - t
    shutil.rmtree(records, ignore_errors=True)
    return took


def open_one_game(state_dir: Path) -> None:
    """Leave one game open, a few turns in (what the box resumes)."""
    rng = random.Random(3)
    with Store.open(state_dir) as store:
        seats = [{"colour": c, "bot": None, "name": n} for c, n in zip(COLOURS[:2], NAMES)]
        g = store.new_game(COLOURS[:2], Rules(), meta={"seats": seats})
        state = new_game(COLOURS[:2], Rules())
        for _ in range(40):
            event = random_event(state, rng, stop_chance=0.4)
            if apply(state, event).phase is Phase.OVER:
                break
            state = apply(state, event)
            store.append(g.id, event)


def close_open_game(state_dir: Path) -> None:
    with Store.open(state_dir) as store:
        game = store.open_game()
        if game is not None:
            store.abandon(game.id)


def _command(*words, check=False) -> float:
    """Seconds for a whole ``cantstop-box`` command, process start to exit."""
    t = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "boxcli.cli", *words], cwd=ROOT, env=as_installed(),
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    took = time.perf_counter() - t
    if done.returncode != 0 and check is not None and (check or "import" not in words):
        raise RuntimeError(f"cantstop-box {' '.join(words)} failed: {done.stderr.strip()}")
    return took


def _probe(*args) -> list[float]:
    """One probe of benchmarks/scale_probes.py in a fresh process (bytecode cached, as installed): its seconds."""
    done = subprocess.run([sys.executable, "-m", "benchmarks.scale_probes", *map(str, args)], cwd=ROOT,
                          env=as_installed(), capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(done.stderr.strip())
    return json.loads(done.stdout.splitlines()[-1])


def _in_box(state_dir: Path, runs: int, *, drop_sums: bool = False) -> list[float]:
    """Statistics (first open, later opens) and the Continue list, in a fresh process like a box just started.

    ``drop_sums`` first removes the kept sums of the tallies, as a store saved
    by a version before them: the first open then adds up every tally, once.
    """
    return _probe("in-box", state_dir, "--runs", runs, "--names", *NAMES, *(["--drop-sums"] if drop_sums else []))


def _store_part(state_dir: Path, runs: int, game: int) -> list[float]:
    """The store's part of a start and of the commands, in one process with its imports done (best of runs).

    A few milliseconds each, in one process: measure() asks for four times
    ``--runs`` of them, so that the machine's load cannot decide a ratio.
    (What is timed: ``scale_probes.store_part``.)
    """
    return _probe("store-part", state_dir, "--runs", runs, "--game", game)


def best(f, runs: int) -> float:
    """The least of ``runs`` calls of ``f`` (each returns seconds): the machine's load only ever adds."""
    return min(f() for _ in range(runs))


def measure(state_dir: Path, runs: int) -> dict:
    row = {}
    close_open_game(state_dir)
    row["first frame, empty"] = best(lambda: first_frame(state_dir), runs)
    row["history"] = best(lambda: _command("history", "--state-dir", str(state_dir)), runs)
    with Store.open(state_dir, readonly=True) as store:
        some = store.games(limit=1)[0].id // 2 or 1
    row["export one game"] = best(lambda: _command("export", str(some), "--state-dir", str(state_dir)), runs)
    row["start: the store's part"], row["history: the store's part"], row["export: the store's part"] = \
        _store_part(state_dir, 4 * runs, some)
    row["statistics, once: adding up every tally"] = _in_box(state_dir, 1, drop_sums=True)[0]
    boxes = [_in_box(state_dir, runs) for _ in range(runs)]  # a first opening is once per process: a process each
    row["statistics, first"], row["statistics, later"], row["continue list"] = (min(b[i] for b in boxes)
                                                                                for i in range(3))
    open_one_game(state_dir)
    row["first frame, resuming"] = best(lambda: first_frame(state_dir), runs)
    row["resume: the store's part"] = _store_part(state_dir, 4 * runs, some)[0]
    close_open_game(state_dir)
    row["store size"] = sum(f.stat().st_size for f in state_dir.iterdir() if f.name.startswith(DB_NAME))
    return row


TARGETED = ("start: the store's part", "resume: the store's part", "history: the store's part",
            "statistics, first", "statistics, later", "continue list", "export: the store's part")
ORDER = (*TARGETED, "first frame, empty", "first frame, resuming", "history", "export one game",
         "statistics, once: adding up every tally", "store size")


#: The rows timed from process start: Python and the box's imports come first, whatever the store holds.
FROM_START = ("first frame, empty", "first frame, resuming", "history", "export one game")


def _ms(seconds: float) -> str:
    """A time in ms, with two decimals below 10 ms (a sub-millisecond step is not "0 ms")."""
    return f"{seconds * 1000:.2f} ms" if seconds < 0.01 else f"{seconds * 1000:.0f} ms"


def table(results: dict[int, dict], baseline: dict) -> str:
    """The figures per store size, the store's part of each judged against the targets."""
    sizes = sorted(results)
    head = ["", *(f"{n:,} games" for n in sizes), f"x vs {sizes[0]:,}", "target"]
    rows = [head]
    worst_ok = True
    for key in ORDER:
        cells = [key]
        for n in sizes:
            v = results[n][key]
            cells.append(f"{v / 1e6:.1f} MB" if key == "store size" else _ms(v))
        first, last = results[sizes[0]][key], results[sizes[-1]][key]
        ratio = last / first if first else float("inf")
        cells.append(f"{ratio:.2f}")
        if key == "store size":
            cells.append("(grows with the games)")
        elif key not in TARGETED and key not in FROM_START:
            cells.append("(once per store)")
        else:
            under, flat = last * 1000 < TARGET_MS, ratio <= TARGET_RATIO
            worst_ok &= under and flat
            verdict = ("ok" if under and flat else
                       f"{'under' if under else 'OVER'} {TARGET_MS} ms; "
                       f"{'' if flat else 'NOT '}within {TARGET_RATIO}x ({(last - first) * 1000:+.2f} ms)")
            if key in FROM_START:
                verdict = f"{_ms(last - baseline.get(key, 0.0))} over no games; {verdict}"
            cells.append(verdict)
        rows.append(cells)
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    lines = ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))) for r in rows]
    lines.append("with no games stored at all: " + ", ".join(f"{k} {v * 1000:.0f} ms" for k, v in baseline.items())
                 + " (Python and the imports: the machine's load moves these by hundreds of ms)")
    lines.append("every figure on target" if worst_ok else "some figures miss their target")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="only 100 and 1,000 games")
    ap.add_argument("--games", type=int, nargs="+", help="the store sizes (default 100 1000 10000)")
    ap.add_argument("--fill", choices=("writes", "import"), default="writes", help="how the stores are built")
    ap.add_argument("--runs", type=int, default=5, help="runs per figure (the best is shown)")
    ap.add_argument("--dir", help="keep the stores here (and reuse them)")
    args = ap.parse_args(argv)
    sizes = args.games or ([100, 1000] if args.quick else [100, 1000, 10000])
    root = Path(args.dir) if args.dir else Path(tempfile.mkdtemp(prefix="cantstop-scale-"))
    results = {}
    try:
        nothing = root / "no-games"
        nothing.mkdir(parents=True, exist_ok=True)
        first_frame(nothing)  # fills the bytecode cache (startup.as_installed)
        baseline = {"first frame, empty": best(lambda: first_frame(nothing), args.runs),
                    "history": best(lambda: _command("history", "--state-dir", str(nothing), check=None), args.runs)}
        baseline["first frame, resuming"] = baseline["first frame, empty"]
        baseline["export one game"] = baseline["history"]
        for n in sizes:
            state_dir = root / f"{args.fill}-{n}"
            if not (state_dir / DB_NAME).exists():
                t = time.perf_counter()
                took = fill_writes(state_dir, n) if args.fill == "writes" else fill_import(state_dir, n)
                extra = f" (the import: {took:.1f} s)" if took else ""
                print(f"built {n:,} games with {args.fill} in {time.perf_counter() - t:.1f} s{extra}", flush=True)
            results[n] = measure(state_dir, args.runs)
        print(table(results, baseline))
    finally:
        if not args.dir:
            shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
