"""``cantstop-box import FILE|DIR``: bring saved games back, from a backup or from game records.

FILE is a backup (``cantstop-box backup``) or one game record (CONTRACT.md,
as ``cantstop-box export`` writes it); DIR is a folder of records, its
``*.json`` files (not the state views, ``*.view.json``). Each game keeps who played (the seats' names in ``meta``),
when (``started``, ``finished``; a record without them takes its file's
time) and how it ended (a winning stop, else ``status`` and ``winner``); a
game not finished comes in abandoned, to be continued from the menu.

A game already in the store (the same players, rules and events, and the
same start to the second when the record says when it started) is refused,
so importing twice adds nothing; a record that is not a game record, or
whose events the rules do not allow, is refused; each refusal is one line,
and a summary line ends. Exit status 0 when nothing was illegal (duplicates
are no error), 2 otherwise.

The box must be stopped first (``sudo systemctl stop cantstop-box``): the
store takes one writer at a time, and while the box runs it is the box.
See docs/backup.md.
"""

import argparse
import json
import sys
from dataclasses import replace
from datetime import datetime
from pathlib import Path

from engine import Record, RecordError
from firmware.commands.cli import UsageError, shown, write_stdout
from firmware.commands.export import add_config_argument, add_state_dir_argument, store_dir
from firmware.store import Store, StoreError, StoreLockedError, StoreWriteError
from firmware.store.copies import Importer, Refused, backup_fact, backup_games, checked, is_store_file, record_files
from firmware.table import person_stats, roster as rosters
from firmware.table.seat import seats_from_meta

DESCRIPTION = __doc__


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("source", metavar="FILE|DIR", help="a backup file, a game record, or a folder of records")
    add_state_dir_argument(parser)
    add_config_argument(parser)


def _time(value, what: str) -> float | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise Refused(f"{what} must be a time like 2026-05-09T14:03:00Z, not {shown(str(value))}")
    try:
        when = datetime.fromisoformat(value)
    except ValueError:
        raise Refused(f"{what} must be a time like 2026-05-09T14:03:00Z, not {shown(value)}") from None
    if when.tzinfo is None:
        raise Refused(f"{what} must say its time zone (a Z for UTC), not {shown(value)}")
    return when.timestamp()


def record_game(path: Path):
    """The game in one record file (Refused when it is not a legal game record)."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise Refused("not a game record (not UTF-8 text)") from None
    except OSError as err:
        raise Refused(f"cannot read it: {err.strerror or err}") from None
    try:
        obj = json.loads(text)
    except ValueError as err:
        raise Refused(f"not a game record (not JSON: {err})") from None
    try:
        record = Record.from_json(obj)
    except RecordError as err:
        raise Refused(f"not a game record ({err})") from None
    started = _time(obj.get("started"), "started")
    finished = _time(obj.get("finished"), "finished")
    status = obj.get("status") if obj.get("status") in ("finished", "abandoned", "open") else None
    known = started is not None
    if started is None:
        started = path.stat().st_mtime
    return checked(record.players, record.rules, obj.get("meta"), record.events, started=started,
                   finished=finished, status=status, winner=obj.get("winner"), started_known=known)


def incoming(source: Path):
    """(label, game or Refused) for every game in ``source``."""
    if source.is_dir():
        files = record_files(source)
        if not files:
            raise UsageError(f"no game records (*.json) in {source}")
        for path in files:
            try:
                yield path.name, record_game(path)
            except Refused as why:
                yield path.name, why
    elif is_store_file(source):
        try:
            yield from backup_games(source)
        except StoreError as err:
            raise UsageError(f"{source}: {err}") from None
    elif source.is_file():
        try:
            yield source.name, record_game(source)
        except Refused as why:
            yield source.name, why
    else:
        raise UsageError(f"{source}: no such file or folder")


def _tally(game) -> dict | None:
    if game.status != "finished":
        return None
    return person_stats.tally(game.players, seats_from_meta(game.meta, game.players), game.rules, game.events,
                              game.winner)


def fit_people(game, roster):
    """``game`` with a seat's person id kept only where this store's roster knows that id by the seat's name.

    Ids are a store's own: id 3 of another box may be somebody else here. A
    seat whose id does not fit counts by its name, as games from before ids.
    """
    seats = game.meta.get("seats") if isinstance(game.meta, dict) else None
    if not isinstance(seats, list):
        return game
    fitted = []
    for seat in seats:
        if isinstance(seat, dict) and "person" in seat:
            name = roster.name_of(seat["person"]) if type(seat["person"]) is int else None
            if name is None or rosters.fold(name) != rosters.fold(str(seat.get("name"))):
                seat = {k: v for k, v in seat.items() if k != "person"}
        fitted.append(seat)
    return replace(game, meta=dict(game.meta, seats=fitted))


def _roster_from_backup(store, source: Path):
    """A store without a roster of its own takes the backup's (so the games' person ids mean the same people)."""
    if not is_store_file(source) or store.fact(rosters.ROSTER_KEY) is not None:
        return
    theirs = backup_fact(source, rosters.ROSTER_KEY)
    if theirs is not None:
        store.put_fact(rosters.ROSTER_KEY, theirs)


def run(args) -> int:
    source = Path(args.source)
    if not source.exists():
        raise UsageError(f"{source}: no such file or folder")
    state_dir = store_dir(args)
    try:
        store = Store.open(state_dir)
    except StoreLockedError as err:
        raise UsageError(f"{err}: stop the box first (sudo systemctl stop cantstop-box), import, "
                         "then start it again") from None
    except StoreError as err:
        raise UsageError(str(err)) from None
    duplicates = illegal = 0
    try:
        if store.cannot_save:
            raise UsageError(store.cannot_save)
        _roster_from_backup(store, source)
        roster = rosters.load(store, ())
        importer = Importer(store, _tally)
        for label, game in incoming(source):
            if not isinstance(game, Refused):
                try:
                    importer.offer(fit_people(game, roster))
                    continue
                except Refused as why:
                    game = why
            duplicate = str(game).startswith("already in the store")
            duplicates += duplicate
            illegal += not duplicate
            print(f"cantstop-box import: {label}: refused: {game}", file=sys.stderr)
        importer.flush()
        if importer.added:  # the statistics' sums take the new games in now, not at the box's first opening
            person_stats.load_sums(store, seats_from_meta)
    except StoreWriteError as err:
        raise UsageError(f"{err} (the games imported before it are kept)") from None
    finally:
        store.close()
    write_stdout(f"imported {importer.added} games into {state_dir}; refused {duplicates} already there "
                 f"and {illegal} not legal\n")
    return 2 if illegal else 0
