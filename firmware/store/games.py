"""Stored games as values: what a read gives back, and how stored rows become a game.

Pure: no connection here. :func:`replay_rows` turns a game row and its event
rows into a :class:`StoredGame` (and, for an open game, the :class:`Cursor`
the store keeps to check the next append or undo); :func:`check_row` finds
damaged columns. A problem found is returned, never raised, so one bad row
never hides the others.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import engine
from engine import CantStopError, Event, GameState, IllegalEventError, Phase, Record, RecordError, Roll, Rules

from . import jsontext
from .errors import StoreGameError, one_line

STATUSES = ("open", "finished", "abandoned")

#: No box stored a game before this (2021-01-01 UTC): an earlier date is a clock that was never set.
EARLIEST = 1_609_459_200.0
#: How far the wall clock may drift from the clock that cannot jump before a game's dates are distrusted.
JUMP = 60.0
#: The most one gap between two events adds to a game's play time (a table left alone, a box that was off).
GAP_CAP = 600.0


@dataclass(frozen=True)
class StoredGame:
    """One game as stored: players, rules, meta, its events and how it ended.

    ``status`` is ``"open"``, ``"finished"``, ``"abandoned"`` or ``"damaged"``;
    a damaged game has ``problem`` (``"game 12, event 57: ..."``) and
    ``events`` holds only the prefix that replays.
    """

    id: int
    players: tuple[str, ...]
    rules: Rules
    meta: dict
    events: tuple[Event, ...]
    started: float
    finished: float | None
    winner: int | None
    status: str
    problem: str | None = None
    times: tuple[float, ...] = field(default=(), repr=False)
    """When each event of ``events`` was saved (same length)."""
    damaged_rows: tuple[tuple[int, str | None], ...] = field(default=(), repr=False)
    """For a damaged game, the stored rows from the bad one on: (seq, payload text; None for a row too big to read)."""
    elapsed: float | None = None
    """Seconds of play up to the last event, by a clock that cannot jump (None: a game from before it was kept)."""
    clock_jumped: bool = False
    """The wall clock jumped while the game was played: its dates are not to be trusted."""

    def record(self) -> Record:
        """The game record of CONTRACT.md (for a damaged game: the prefix that replays)."""
        return Record(self.players, self.rules, self.events)

    def replay(self) -> GameState:
        """The state after the events."""
        return engine.replay(engine.new_game(self.players, self.rules), self.events)


@dataclass(frozen=True)
class GameSummary:
    """One line of history: who played, how long, who won."""

    id: int
    players: tuple[str, ...]
    rules: Rules
    meta: dict
    started: float
    finished: float | None
    winner: int | None
    turns: int
    """Turns played or under way, every player's counted (0 before the first roll)."""
    status: str
    problem: str | None
    events: int
    last_event: float | None
    elapsed: float | None = None
    """Seconds of play by a clock that cannot jump, kept with each event (None: a game from before it was kept)."""
    clock_jumped: bool = False
    """The store saw the wall clock jump during the game."""

    @property
    def ended(self) -> float:
        """When play last happened: the finish of a won game, else the last event (or the start)."""
        if self.status == "finished" and self.finished is not None:
            return self.finished
        return self.last_event if self.last_event is not None else self.started

    @property
    def date_known(self) -> bool:
        """Whether the wall-clock dates can be right: after :data:`EARLIEST`, in order, no jump seen.

        A Pi without a clock battery starts at an old date until NTP sets the
        clock: a game begun before that has a start that is not its start.
        """
        return date_known(self.started, self.ended, self.elapsed, self.clock_jumped)

    @property
    def duration(self) -> float | None:
        """Seconds of play: kept by a clock that cannot jump; for an older game the wall-clock span if
        its dates can be right; None when there is no honest figure."""
        if _seconds(self.elapsed) is not None:
            return self.elapsed
        if not self.date_known:
            return None
        return max(0.0, self.ended - self.started)


def _seconds(value) -> float | None:
    return value if is_time(value) and value >= 0 else None


def date_known(started, ended, elapsed=None, clock_jumped: bool = False) -> bool:
    """Whether a game's wall-clock dates can be right (see :attr:`GameSummary.date_known`)."""
    if clock_jumped or not is_time(started) or started < EARLIEST:
        return False
    if ended is not None and (not is_time(ended) or ended < started):
        return False
    elapsed = _seconds(elapsed)
    return elapsed is None or ended is None or ended - started >= elapsed - JUMP


@dataclass
class Cursor:
    """What the store keeps of an open game: not the whole game, only what the next append or undo needs.

    ``seq`` events so far and the ``state`` after them; ``undo`` the moves and
    stops since the last roll, each with the state before it. A roll is never
    undone, so nothing before it is needed: ``undo`` holds at most a move and
    a stop.
    """

    seq: int
    state: GameState
    undo: list[tuple[Event, GameState]] = field(default_factory=list)
    elapsed: float | None = 0.0  # seconds of play at the last event (None: an older game, not known)
    wall: float | None = None  # the wall clock at the last event (or the start)
    mono: float | None = None  # the clock that cannot jump then, if this process saw it (None: since a restart)

    def clock_step(self, wall: float, mono: float) -> tuple[float | None, bool]:
        """The play time of an event saved now, and whether the wall clock jumped since the last one.

        Each gap counts by the clock that cannot jump when this process saw
        the previous event, else (after a restart) by the wall clock, and
        never more than :data:`GAP_CAP`. A gap where the wall clock moved
        otherwise than the steady one, or backwards across a restart, is a jump.
        """
        jumped = False
        if self.mono is not None:
            gap = mono - self.mono
            jumped = self.wall is not None and abs((wall - self.wall) - gap) > JUMP
        elif self.wall is not None:
            gap = wall - self.wall
            jumped = gap < -JUMP
        else:
            gap = 0.0
        self.wall, self.mono = wall, mono
        if self.elapsed is None:
            return None, jumped
        self.elapsed += min(max(gap, 0.0), GAP_CAP)
        return self.elapsed, jumped

    def push(self, event: Event, state: GameState) -> None:
        if isinstance(event, Roll):
            self.undo.clear()
        else:
            self.undo.append((event, self.state))
        self.seq += 1
        self.state = state

    def pop(self, game_id: int) -> Event:
        """Take back the last event; StoreGameError for a roll or an empty game."""
        if self.seq == 0:
            raise StoreGameError(f"game {game_id} has no event to undo")
        if not self.undo:
            raise StoreGameError("cannot undo a roll: the dice once drawn stay drawn")
        event, self.state = self.undo.pop()
        self.seq -= 1
        return event


def turns_played(state: GameState | None) -> int:
    """Turns begun: the engine's turn number, less the next turn if it has not been rolled yet."""
    if state is None:
        return 0
    return state.turn - (1 if state.phase is Phase.ROLL else 0)


def is_time(value) -> bool:
    return type(value) in (int, float) and math.isfinite(value)


def parse_players(text) -> tuple[str, ...]:
    players = jsontext.load(text)
    if not isinstance(players, list):
        raise ValueError("players must be a list")
    return tuple(players)


def check_row(row: dict) -> str | None:
    """Find damaged columns in a game row (a dict), replace them by safe values; the problem, or None.

    ``started`` becomes None (the reader fills in a time it knows), a bad
    ``finished``, ``winner`` or ``turns`` None, an unknown ``status``
    ``"abandoned"``.
    """
    found = []
    if not is_time(row["started"]):
        found.append(f"started is not a time ({row['started']!r:.20})")
        row["started"] = None
    if row["finished"] is not None and not is_time(row["finished"]):
        found.append(f"finished is not a time ({row['finished']!r:.20})")
        row["finished"] = None
    winner = row["winner"]
    if winner is not None:
        try:
            count = len(parse_players(row["players"]))
        except (ValueError, TypeError):
            count = None  # the replay reports the players (and a game without them has no winner)
        if count is None:
            row["winner"] = None
        elif type(winner) is not int or not 0 <= winner < count:
            found.append(f"winner {winner!r:.20} is not a player")
            row["winner"] = None
    turns = row.get("turns")
    if turns is not None and (type(turns) is not int or turns < 0):
        found.append(f"turns {turns!r:.20} is not a count")
        row["turns"] = None
    if row["status"] not in STATUSES:
        found.append(f"status {row['status']!r:.20} is unknown")
        row["status"] = "abandoned"
    if row["problem"] is not None and not isinstance(row["problem"], str):
        row["problem"] = str(row["problem"])
    return f"game {row['id']}: {'; '.join(found)}" if found else None


class _RowError(Exception):
    pass


def replay_rows(row: dict, rows: list[tuple[int, str, float]]) -> tuple[StoredGame, Cursor | None, str | None]:
    """Parse and replay one game from its (checked) row and event rows.

    Returns the game, a cursor after the events that replay (None if the
    players or rules do not parse), and the problem found (None if none). A game with a problem, found now or
    stored, comes back ``"damaged"`` with the prefix that replays.
    """
    game_id = row["id"]
    players: tuple[str, ...] = ()
    rules = Rules()
    damaged_rows: list[tuple[int, str]] = []
    found = None
    try:
        players = parse_players(row["players"])
        rules = Rules.from_json(jsontext.load(row["rules"]))
        cursor = Cursor(0, engine.new_game(players, rules))
    except (ValueError, TypeError, CantStopError) as err:
        found = f"game {game_id}: players or rules unreadable: {one_line(err)}"
        cursor = None
        damaged_rows = [(s, _kept(p)) for s, p, _ in rows]
    meta, meta_problem = _meta(row["meta"])
    if meta_problem and not found:
        found = f"game {game_id}: meta unreadable: {meta_problem}"
    events: list[Event] = []
    times: list[float] = []
    if cursor is not None:
        for i, (seq, payload, when) in enumerate(rows, 1):
            try:
                event = _event(seq, i, payload, when)
                cursor.push(event, engine.apply(cursor.state, event))
            except (_RowError, RecordError, IllegalEventError) as err:
                message = err.message if isinstance(err, IllegalEventError) else one_line(err)
                found = f"game {game_id}, event {i}: {message}"
                damaged_rows = [(s, _kept(p)) for s, p, _ in rows[i - 1:]]
                break
            events.append(event)
            times.append(when)
    problem = row["problem"] or found
    started = row["started"]
    if started is None:  # damaged: the first event's time is the best guess
        started = times[0] if times else (row["finished"] or 0.0)
    elapsed = _seconds(row.get("elapsed"))
    game = StoredGame(game_id, players, rules, meta, tuple(events), started, row["finished"],
                      row["winner"], "damaged" if problem else row["status"], problem, tuple(times),
                      tuple(damaged_rows), elapsed, bool(row.get("clock_jumped")))
    if cursor is not None:
        cursor.wall = times[-1] if times else (started if is_time(started) else None)
        cursor.elapsed = elapsed if elapsed is not None else _older(started, times)
    return game, cursor, found


def _older(started, times) -> float | None:
    """The play time of a game from before it was kept: its wall-clock span if that can be right, else unknown."""
    if not times:
        return 0.0
    if not date_known(started, times[-1]) or times[-1] - started > GAP_CAP * len(times):
        return None
    return times[-1] - started


def _event(seq, expected: int, payload, when) -> Event:
    if seq != expected:
        raise _RowError(f"missing (the next stored event is number {seq})")
    try:
        obj = jsontext.load(payload)
    except jsontext.CellError as err:
        raise _RowError(str(err)) from None
    event = engine.event_from_json(obj)
    if not is_time(when):
        raise _RowError(f"its time is not a number ({when!r:.20})")
    return event


def _meta(text) -> tuple[dict, str | None]:
    """The meta as a dict ({} for one that is not an object) and, if its cell does not read, why."""
    try:
        meta = jsontext.load(text)
    except jsontext.CellError as err:
        return {}, str(err)
    return (meta if isinstance(meta, dict) else {}), None


def _kept(payload) -> str | None:
    """A damaged event row's text as export keeps it: verbatim, None for one too big to have been read."""
    return None if isinstance(payload, jsontext.Unread) else str(payload)


def summary(game: StoredGame, cursor: Cursor | None) -> GameSummary:
    """The history line of a replayed game."""
    return GameSummary(game.id, game.players, game.rules, game.meta, game.started, game.finished, game.winner,
                       turns_played(cursor.state if cursor else None), game.status, game.problem,
                       len(game.events), game.times[-1] if game.times else None, game.elapsed, game.clock_jumped)
