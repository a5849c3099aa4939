"""The SQL that reads games: game rows and event rows with pending writes shown, and the quick history list."""

from __future__ import annotations

import sqlite3

from engine import CantStopError, Rules

from . import jsontext
from .games import GameSummary, check_row, is_time, parse_players
from .pending import EventRow, Queue


def game_rows(db: sqlite3.Connection, queue: Queue, version: int, *, status: str | None = None,
              game_id: int | None = None, limit: int | None = None, before: int | None = None) -> list[dict]:
    """Game rows as dicts, newest first, each checked by :func:`check_row` (its problem under ``"damage"``).

    Pending finishes and abandons are shown, so a status filter sees them too, and so are the
    games started while saving failed (:class:`~.pending.SaveGame`: their ids are above every stored one).
    ``before`` keeps only games older than that game number (a page further
    back); the primary key gives each page without reading the older rows.
    """
    touched = sorted(queue.touched_games(closing=True))
    where, params = [], []
    if game_id is not None:
        where.append("id = ?")
        params.append(game_id)
    if before is not None:
        where.append("id < ?")
        params.append(before)
    if status is not None:
        # A pending finish/abandon may change a row's status: fetch those rows too, filter below.
        where.append("(status = ?" + "".join(" OR id = ?" for _ in touched) + ")")
        params += [status, *touched]
    turns = _short("turns") if version >= 2 else "NULL AS turns"
    # the play time is the last event's (it only grows); the primary key (game_id, seq) finds it at once
    clock = (f"{_short('clock_jumped')}, (SELECT {_short('elapsed')} FROM events e WHERE e.game_id = games.id"
             " ORDER BY seq DESC LIMIT 1) AS elapsed" if version >= 4 else "NULL AS clock_jumped, NULL AS elapsed")
    # a hand-edited row must not fill the memory: a JSON cell too big to be a game's is not fetched, only
    # its size, and a text where a number belongs only its start (it is damage all the same)
    cells = ", ".join(jsontext.sized(c) for c in CELLS)
    scalars = ", ".join(_short(c) for c in ("started", "finished", "winner", "status"))
    sql = f"SELECT id, {cells}, {scalars}, {_short('problem', PROBLEM_CHARS)}, {turns}, {clock} FROM games"
    if where:
        sql += " WHERE " + " AND ".join(where)
    sql += " ORDER BY id DESC"
    if limit is not None:
        sql += " LIMIT ?"
        params.append(max(0, int(limit)) + len(touched))
    cur = db.execute(sql, params)
    names = [d[0] for d in cur.description]
    rows = [_unsized(dict(zip(names, r))) for r in cur]
    stored = {r["id"] for r in rows}  # a failed commit that landed after all: the stored row is the one
    new = [r for r in queue.new_rows() if (game_id is None or r["id"] == game_id) and r["id"] not in stored]
    rows = new + rows
    for row in rows:
        row["damage"] = check_row(row)
    if len(queue):  # pending writes touch these rows (a finish, an abandon, a game not saved yet)
        queue.on_game_rows(rows)
        if status is not None:
            rows = [r for r in rows if r["status"] == status]
    if limit is not None:
        rows = rows[: max(0, int(limit))]
    return rows


#: The JSON cells of a game row, fetched only up to jsontext.CELL_CHARS each.
CELLS = ("players", "rules", "meta")
#: The most of a stored problem a reader fetches (the store writes one line; a hand-edited one may be anything).
PROBLEM_CHARS = 1000


def _short(column: str, chars: int = 40, *, named: bool = True) -> str:
    """SQL selecting ``column``, or only the start of a text or blob in it (a number, a time, a status)."""
    return (f"CASE WHEN typeof({column}) IN ('text', 'blob') THEN substr({column}, 1, {int(chars)})"
            f" ELSE {column} END" + (f" AS {column}" if named else ""))


def _unsized(row: dict) -> dict:
    for column in CELLS:
        row[column] = jsontext.fetched(row[column])
    return row


def count_games(db: sqlite3.Connection) -> int:
    """How many games are stored (pending new games are never pending: a new game is saved or refused)."""
    return db.execute("SELECT COUNT(*) FROM games").fetchone()[0]


def event_rows(db: sqlite3.Connection, queue: Queue, game_id: int) -> list[EventRow]:
    """The game's event rows (seq, payload, time) in order, pending appends and undos applied."""
    rows = [(seq, jsontext.fetched(payload), when) for seq, payload, when in db.execute(
        f"SELECT seq, {jsontext.sized('payload')}, {_short('time')} FROM events WHERE game_id = ? ORDER BY seq",
        (game_id,))]
    return queue.on_event_rows(game_id, rows)


def quick_summaries(db: sqlite3.Connection, rows: list[dict], touched: set[int]) -> dict[int, GameSummary]:
    """Summaries of closed games from their rows and a count of their events, without replaying.

    Only for rows that kept their turns when they closed and that no pending
    write touches; a row that does not read cleanly is left to the replay.
    """
    quick = [r for r in rows if r["status"] != "open" and r["turns"] is not None and r["started"] is not None
             and r["id"] not in touched]
    if not quick:
        return {}
    marks = ",".join("?" * len(quick))
    counts = {gid: (n, last) for gid, n, last in db.execute(
        f"SELECT game_id, COUNT(*), MAX({_short('time', named=False)}) FROM events WHERE game_id IN ({marks})"
        " GROUP BY game_id",
        [r["id"] for r in quick])}
    out = {}
    for row in quick:
        n, last = counts.get(row["id"], (0, None))
        try:
            players = parse_players(row["players"])
            rules = Rules.from_json(jsontext.load(row["rules"]))
            meta = jsontext.load(row["meta"])
        except (ValueError, TypeError, CantStopError):
            continue  # unreadable: the replay marks it damaged
        if last is not None and not is_time(last):
            continue  # a damaged event time: the replay finds it
        status = "damaged" if row["problem"] else row["status"]
        out[row["id"]] = GameSummary(row["id"], players, rules, meta if isinstance(meta, dict) else {},
                                     row["started"], row["finished"], row["winner"], row["turns"], status,
                                     row["problem"], n, last, row["elapsed"], bool(row["clock_jumped"]))
    return out


def finished_ids(db: sqlite3.Connection, version: int) -> set[int]:
    """Ids of the games stored finished and undamaged, without reading their rows (pending writes not shown)."""
    if version < 1:
        return set()
    return {r[0] for r in db.execute("SELECT id FROM games WHERE status = 'finished' AND problem IS NULL")}


def finished_check(db: sqlite3.Connection, version: int) -> tuple[int, int]:
    """(how many, the sum of their ids) of the games stored finished and undamaged.

    One row from version 5 (``finished_count``, kept by triggers); a pass over the games before.
    """
    if version < 1:
        return 0, 0
    if version >= 5:
        row = db.execute("SELECT count, total FROM finished_count").fetchone()
        if row is not None:
            return row[0], row[1]
    count, total = db.execute(
        "SELECT COUNT(*), TOTAL(id) FROM games WHERE status = 'finished' AND problem IS NULL").fetchone()
    return count, int(total)
