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
import os
import stat
import sys
from dataclasses import replace
from datetime import datetime
from pathlib import Path

from engine import Record, RecordError, parse_json
from boxcli.cli import UsageError, shown, write_stdout
from boxcli.export import add_config_argument, add_state_dir_argument, store_dir
from boxcli.replay import MAX_RECORD_BYTES, read_limited
from firmware.store import Store, StoreError, StoreLockedError, StoreWriteError
from firmware.store.backupfile import Backup, is_store_file
from firmware.store.games import is_time
from firmware.store.incoming import MAX_EVENTS, MAX_GAMES, Importer, Refused, checked, too_many_events
from firmware.table import person_stats, roster as rosters
from firmware.table.names import escaped
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


def read_record(path: Path) -> tuple[str, float]:
    """The text of a record file and its modification time; Refused for what is no record to read.

    Its size is asked first: a file over :data:`MAX_RECORD_BYTES` is refused unread, and one that
    grows while read is cut at the limit (``read_limited``), so a sparse 8 GB file costs a ``stat``.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)  # a FIFO does not block the open
    except OSError as err:
        raise Refused(f"cannot read it: {err.strerror or err}") from None
    with open(fd, "rb") as f:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise Refused("not a file")
        if info.st_size > MAX_RECORD_BYTES:
            raise Refused(f"{info.st_size / 1e6:,.0f} MB: bigger than {MAX_RECORD_BYTES // (1024 * 1024)} MB, "
                          "not a game record (a long game is under 100 KB)")
        try:
            data = read_limited(f)
        except ValueError as err:
            raise Refused(str(err)) from None
        except OSError as err:
            raise Refused(f"cannot read it: {err.strerror or err}") from None
    try:
        return data.decode("utf-8-sig"), info.st_mtime
    except UnicodeDecodeError:
        raise Refused("not a game record (not UTF-8 text)") from None


def record_game(path: Path):
    """The game in one record file (Refused when it is not a legal game record)."""
    text, mtime = read_record(path)
    try:
        obj = parse_json(text)  # strict, as replay reads it; any depth is one line
    except RecordError as err:
        raise Refused(f"not a game record ({str(err).replace('not valid JSON', 'not JSON', 1)})") from None
    if isinstance(obj, dict) and isinstance(obj.get("events"), list) and len(obj["events"]) > MAX_EVENTS:
        raise Refused(too_many_events(len(obj["events"])))
    try:
        record = Record.from_json(obj)
    except RecordError as err:
        raise Refused(f"not a game record ({err})") from None
    started = _time(obj.get("started"), "started")
    finished = _time(obj.get("finished"), "finished")
    status = obj.get("status") if obj.get("status") in ("finished", "abandoned", "open") else None
    elapsed = obj.get("elapsed")
    if elapsed is not None and not (is_time(elapsed) and elapsed >= 0):
        raise Refused(f"elapsed must be the seconds of play, not {shown(str(elapsed))}")
    known = started is not None
    if started is None:
        started = mtime
    return checked(record.players, record.rules, obj.get("meta"), record.events, started=started,
                   finished=finished, status=status, winner=obj.get("winner"), started_known=known,
                   elapsed=elapsed, clock_jumped=obj.get("date_known") is False)


def record_files(folder: Path) -> list[Path]:
    """The game records of a folder: its ``*.json`` files, by name (not the state views, ``*.view.json``)."""
    found = []
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                name = entry.name
                if Path(name).suffix == ".json" and not name.endswith(".view.json") and entry.is_file():
                    found.append(Path(entry.path))
                    if len(found) > MAX_GAMES:
                        raise UsageError(f"{folder}: more than {MAX_GAMES:,} game records (ten games a day "
                                         "for 27 years): import them a folder at a time")
    except OSError as err:
        raise UsageError(f"cannot read {folder}: {err.strerror or err}") from None
    if not found:
        raise UsageError(f"no game records (*.json) in {folder}")
    return sorted(found)


def incoming(source: Path, backup: Backup | None, files: list[Path] | None):
    """(label, game or Refused) for every game in ``source``."""
    if backup is not None:
        try:
            yield from backup.games()
        except StoreError as err:
            raise UsageError(f"{source}: {err}") from None
        return
    for path in files if files is not None else [source]:
        try:
            yield path.name, record_game(path)
        except Refused as why:
            yield path.name, why


def _tally(game) -> dict | None:
    if game.status != "finished":
        return None
    return person_stats.tally(game.players, seats_from_meta(game.meta, game.players), game.rules, game.events,
                              game.winner)


def fit_people(game, roster, theirs=None):
    """``game`` with a seat's person id kept only where it means the same person here: this store's roster knows
    that id by the seat's name, or by the name the backup's roster (``theirs``) gives that id now.

    Ids are a store's own: id 3 of another box may be somebody else here. A
    seat whose id does not fit counts by its name, as games from before ids.
    A person renamed after the game (Cat, now Dee) is the backup's id 3 by
    their name now, not by the seat's name then: the id stays (issue 47, item 2:
    a box seat's person was lost on import).
    """
    seats = game.meta.get("seats") if isinstance(game.meta, dict) else None
    if not isinstance(seats, list):
        return game
    fitted = []
    for seat in seats:
        if isinstance(seat, dict) and "person" in seat:
            person = seat["person"] if type(seat["person"]) is int else None
            name = roster.name_of(person) if person is not None else None
            then = rosters.fold(str(seat.get("name")))
            now = theirs.name_of(person) if theirs is not None and person is not None else None
            if name is None or (rosters.fold(name) != then and (now is None or rosters.fold(now) != rosters.fold(name))):
                seat = {k: v for k, v in seat.items() if k != "person"}
        fitted.append(seat)
    return replace(game, meta=dict(game.meta, seats=fitted))


def _backup_roster(backup: Backup | None):
    """The backup's own roster (its ids and the names they go by now), or None."""
    if backup is None:
        return None
    try:
        raw = backup.roster()
    except Refused:
        return None
    return rosters.from_fact(raw, ()) if raw is not None else None


def _roster_from_backup(store, backup: Backup | None) -> str | None:
    """A store without a roster of its own takes the backup's (so the games' person ids mean the same people);
    why it is refused, or None."""
    if backup is None or store.fact(rosters.ROSTER_KEY) is not None:
        return None
    try:
        theirs = backup.roster()
    except Refused as why:
        return f"{why}; its games count by their names"
    if theirs is not None:
        store.put_fact(rosters.ROSTER_KEY, theirs)
    return None


def _source(source: Path):
    """(the backup, the record files) to read: one of them, or neither for one record; UsageError if none."""
    try:
        mode = os.stat(source).st_mode
    except OSError as err:
        if isinstance(err, FileNotFoundError):
            raise UsageError(f"{source}: no such file or folder") from None
        raise UsageError(f"cannot read {source}: {err.strerror or err}") from None
    if stat.S_ISDIR(mode):
        return None, record_files(source)
    if not stat.S_ISREG(mode):
        raise UsageError(f"{source}: not a file or a folder")
    if not is_store_file(source):
        return None, None
    try:
        return Backup(source), None
    except StoreError as err:
        raise UsageError(f"{source}: {err}") from None


def _refused(label: str, why) -> None:
    print(escaped(f"cantstop-box import: {label}: refused: {why}"), file=sys.stderr)


def run(args) -> int:
    source = Path(args.source)
    backup, files = _source(source)  # a backup no box could read stops here, before anything is written
    try:
        return _import(args, source, backup, files)
    finally:
        if backup is not None:
            backup.close()


def _import(args, source: Path, backup: Backup | None, files: list[Path] | None) -> int:
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
        roster_refused = _roster_from_backup(store, backup)
        if roster_refused is not None:
            _refused(f"{source.name}, its roster", roster_refused)
        roster, theirs = rosters.load(store, ()), _backup_roster(backup)
        importer = Importer(store, _tally)
        for label, game in incoming(source, backup, files):
            if not isinstance(game, Refused):
                try:
                    importer.offer(fit_people(game, roster, theirs))
                    continue
                except Refused as why:
                    game = why
            duplicate = str(game).startswith("already in the store")
            duplicates += duplicate
            illegal += not duplicate
            _refused(label, game)
        importer.flush()
        if importer.added:  # the statistics' sums take the new games in now, not at the box's first opening
            person_stats.load_sums(store, seats_from_meta)
    except StoreWriteError as err:
        raise UsageError(f"{err} (the games imported before it are kept)") from None
    finally:
        store.close()
    write_stdout(f"imported {_games(importer.added)} into {state_dir}; refused {duplicates} already there "
                 f"and {illegal} not legal\n")
    return 2 if illegal or roster_refused is not None else 0


def _games(n: int) -> str:
    return f"{n} game" if n == 1 else f"{n} games"
