"""``cantstop-box history``: the saved games, newest first, a page at a time.

It shows the newest 20 games; ``-n N`` shows the newest N, ``--before G``
the page of games older than game G (the next page back: the last line says
which G to ask for), ``--all`` every game (slow with years of games: each
one shown is replayed to find damage).

One row per game: number, start (local time), players (by name, with the
colour of their pieces: "Ann (Red)"; a seat without a name by its colour; a
seat the box played marked "box": "Cat (Green, box)"; a person renamed since
by the name they go by now, as everywhere),
turns reached (every player's turn counts), rounds (each player's turn once:
what the box's win screen counts), winner, duration and status ("set aside":
left for another, and Continue on the box's menu reopens it). ``--json``
prints a list of objects instead (times as ISO 8601 in UTC, duration in
seconds; the keys are listed in docs/store.md). Export one with
``cantstop-box export N``.

The duration is play time, kept by a clock that cannot jump. A game whose
dates cannot be right (a Pi without a clock battery before NTP set the
clock, or a clock that jumped during the game) shows "date unknown", and an
older game of that kind "?" for its duration. Columns line up by display
width (a Hangul or kanji character takes two); names are printed escaped.
"""

import argparse
import json
import sys

from boxcli.cli import UsageError, shown, write_stdout
from boxcli.export import add_config_argument, add_state_dir_argument, open_store
from firmware.store import GameSummary, StoreError
from firmware.table import roster
from firmware.table.names import escaped, pad, width
from firmware.table.records import (MAX_GAME_NUMBER, bots, duration_text, names, rounds, started_text, status_text,
                                    summary_json, winner_name)

DESCRIPTION = __doc__


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_state_dir_argument(parser)
    add_config_argument(parser)
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("-n", "--limit", metavar="N", type=_positive,
                        help=f"how many games a page shows (default {PAGE})")
    parser.add_argument("--before", metavar="GAME", type=_game_number,
                        help="the page of games older than game number GAME (the next page back)")
    parser.add_argument("--all", action="store_true", help="every saved game, however many")


#: The games one page shows unless told: what fits a terminal, quick with any history.
PAGE = 20


def _game_number(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= MAX_GAME_NUMBER:
        raise argparse.ArgumentTypeError(f"must be a game number like 3, not {shown(text)}")
    return value


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= MAX_GAME_NUMBER:
        raise argparse.ArgumentTypeError(f"must be a whole number of games from 1 to {MAX_GAME_NUMBER}, not {shown(text)}")
    return value


def _players_cell(game: GameSummary, name_of=None) -> str:
    """Each seat: "Ann (Red)", "Blue", and a box seat marked: "Green (box)", or "Cat (Red, box)" for the
    person whose seat the box played; each person by the name they go by now (``name_of``: the roster's)."""
    if not game.players:
        return "?"
    cells = []
    for name, colour, bot in zip(names(game, name_of), game.players, bots(game)):
        if name:
            cells.append(f"{name} ({colour}, box)" if bot else f"{name} ({colour})")
        else:
            cells.append(f"{colour} (box)" if bot else colour)
    return ", ".join(escaped(c) for c in cells)


def _winner_cell(game: GameSummary, name_of=None) -> str:
    """The winner as the players' cell names the seat ("Cat (box)" when the box played it), or "-"."""
    name = winner_name(game, name_of)
    if name is None:
        return "-"
    return escaped(f"{name} (box)" if bots(game)[game.winner] else name)


def table(games: list[GameSummary], name_of=None) -> str:
    """A plain text table, columns padded to fit; ``name_of``, the roster's names by id (a rename follows)."""
    head = ("#", "started", "players", "turns", "rounds", "winner", "duration", "status")
    rows = [head]
    for g in games:
        rows.append((
            str(g.id),
            started_text(g),
            _players_cell(g, name_of),
            str(g.turns),
            str(rounds(g)),
            _winner_cell(g, name_of),
            duration_text(g.duration),
            status_text(g),
        ))
    widths = [max(width(r[i]) for r in rows) for i in range(len(head))]
    right = {0, 3, 4, 6}
    lines = []
    for r in rows:
        cells = [pad(c, w, right=i in right) for i, (c, w) in enumerate(zip(r, widths))]
        lines.append("  ".join(cells).rstrip())
    for g in games:
        if g.problem:
            lines.append(f"damaged: {escaped(g.problem)}")
    return "\n".join(lines) + "\n"


def run(args) -> int:
    if args.all and (args.limit is not None or args.before is not None):
        raise UsageError("--all shows every game: leave out -n and --before")
    limit = None if args.all else (args.limit or PAGE)
    store = open_store(args)
    try:
        try:
            games = store.games(limit=limit, check=True, before=args.before)
            older = bool(games) and bool(store.games(limit=1, before=games[-1].id))
            total = store.count_games()
            people = roster.load(store, ())  # each person by the name they go by now
        except StoreError as err:
            raise UsageError(str(err)) from None
    finally:
        store.close()
    if not games:
        if args.before is not None and total:
            raise UsageError(f"no saved games before game {args.before}")
        raise UsageError(f"no saved games in {store.path.parent}")
    if args.json:
        write_stdout(json.dumps([summary_json(g) for g in games], ensure_ascii=False, indent=1) + "\n")
    else:
        write_stdout(table(games, people.name_of))
        if older:  # on standard error: the table on standard output stays a table
            more = f" -n {args.limit}" if args.limit else ""
            print(f"{len(games)} of {total} games shown; older ones: cantstop-box history{more} "
                  f"--before {games[-1].id} (or --all)", file=sys.stderr)
    return 0
