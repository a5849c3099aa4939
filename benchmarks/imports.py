"""Import benchmark: ``cantstop-box import`` of a backup and of a folder of records, onto a new card and again.

A store of ``--games`` finished games (default 10,000: years of game nights)
is made with the store's schema (DISTINCT games played out once, stored again
and again with other names and starts, every event with its play time), then
timed, each a whole ``cantstop-box`` process (wall time, the processor time
it took, user and system: the figure to compare on a busy machine, and its
peak memory):

- *backup, new card*: ``import STORE`` into an empty state directory;
- *backup, twins*: the same again into that card (every game already there:
  0 added);
- *records, new card*: the games as ``export`` writes them, one file each,
  ``import DIR`` into an empty state directory;
- *records, twins*: the same folder again into that card;
- *one shape, twins*: ``--games`` records of one game (the same players,
  rules and events: only their starts differ) into a card holding them all,
  the worst case of telling twins apart.

``--code DIR`` runs the commands of another checkout (``git archive REV | tar
-x -C DIR``), to compare before and after a change on the same stores.

Run from the project's root: ``.venv/bin/python -m benchmarks.imports
[--games N] [--code DIR] [--dir DIR]``. Not part of ``make test``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.scripted import random_event
from engine import Phase, Rules, apply, new_game
from firmware.store import DB_NAME, Store
from tests.kit.peak import measure

ROOT = Path(__file__).resolve().parent.parent

NAMES = ("Ann", "Bob", "Cy", "Di", "김민준", "Zoë")
COLOURS = ("Red", "Blue", "Green", "Yellow")
DISTINCT = 300
T0 = 1_700_000_000.0


def _played(seed: int = 21):
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


def _plan(count: int, one_shape: bool = False):
    """(colours, rules, events, winner, seats, start) of each game to store, oldest first."""
    rng = random.Random(count)
    played = _played()
    for i in range(count):
        colours, rules, events, winner = played[0 if one_shape else i % DISTINCT]
        names = rng.sample(NAMES, len(colours))
        seats = [{"colour": c, "bot": None, "name": m} for c, m in zip(colours, names)]
        yield colours, rules, events, winner, seats, T0 + i * 3600.0


def _dump(obj) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def make_store(state_dir: Path, count: int) -> None:
    """A store of ``count`` finished games, rows written straight in (setup, not what is timed)."""
    Store.open(state_dir).close()
    db = sqlite3.connect(state_dir / DB_NAME, isolation_level=None)
    db.execute("PRAGMA synchronous=OFF")
    db.execute("BEGIN")
    for colours, rules, events, winner, seats, start in _plan(count):
        cur = db.execute(
            "INSERT INTO games (players, rules, meta, started, finished, winner, status, turns) "
            "VALUES (?, ?, ?, ?, ?, ?, 'finished', ?)",
            (_dump(list(colours)), _dump(rules.to_json()), _dump({"seats": seats}), start,
             start + 2.0 * len(events), winner, len(events) // 4))
        db.executemany("INSERT INTO events (game_id, seq, payload, time, elapsed) VALUES (?, ?, ?, ?, ?)",
                       [(cur.lastrowid, seq, _dump(e.to_json()), start + 2.0 * seq, 1.5 * seq)
                        for seq, e in enumerate(events, 1)])
    db.execute("COMMIT")
    db.close()


def write_records(folder: Path, count: int, one_shape: bool = False) -> None:
    """The games as ``cantstop-box export`` writes them, one file each."""
    folder.mkdir(parents=True, exist_ok=True)
    iso = lambda s: time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(s))  # noqa: E731
    for i, (colours, rules, events, winner, seats, start) in enumerate(_plan(count, one_shape), 1):
        obj = {"players": list(colours), "rules": rules.to_json(), "events": [e.to_json() for e in events],
               "status": "finished", "started": iso(start), "finished": iso(start + 2.0 * len(events)),
               "elapsed": 1.5 * len(events), "winner": winner, "meta": {"seats": seats}}
        (folder / f"game-{i:05d}.json").write_text(json.dumps(obj, ensure_ascii=False), encoding="utf-8")


def command(code: Path, *words: str) -> tuple[float, float, float, str]:
    """(seconds, processor seconds, peak MB, the summary line) of one ``cantstop-box`` process run from ``code``."""
    m = measure(code, *words)
    out = m.stdout.strip()
    return m.seconds, m.cpu_seconds, m.peak_mb, out.splitlines()[-1] if out else f"exit {m.returncode}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10_000, help="games in the store (default 10,000)")
    ap.add_argument("--code", default=str(ROOT), help="the checkout whose commands are timed (default: this one)")
    ap.add_argument("--dir", help="keep the stores here (made once, reused)")
    args = ap.parse_args(argv)
    code = Path(args.code).resolve()
    root = Path(args.dir) if args.dir else Path(tempfile.mkdtemp(prefix="cantstop-imports-"))
    root.mkdir(parents=True, exist_ok=True)
    n = args.games
    try:
        source, records, shape = root / f"source-{n}", root / f"records-{n}", root / f"one-shape-{n}"
        if not (source / DB_NAME).exists():
            make_store(source, n)
        if not records.exists():
            write_records(records, n)
        if not shape.exists():
            write_records(shape, n, one_shape=True)
        cards = root / f"cards-{os.getpid()}"
        for label, what, card in (("backup, new card", source / DB_NAME, "a"), ("backup, twins", source / DB_NAME, "a"),
                                  ("records, new card", records, "b"), ("records, twins", records, "b"),
                                  ("one shape, new card", shape, "c"), ("one shape, twins", shape, "c")):
            took, cpu, mb, line = command(code, "import", str(what), "--state-dir", str(cards / card))
            print(f"{label:20} {took:7.1f} s {cpu:7.1f} s cpu {mb:5.0f} MB   {line}", flush=True)
        shutil.rmtree(cards, ignore_errors=True)
        print(f"{n:,} games, commands of {code}")
    finally:
        if not args.dir:
            shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
