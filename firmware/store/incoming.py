"""Games brought into a store: checked, bounded, told apart from the games already there, and saved.

:func:`checked` turns what a backup or a record says into an :class:`Incoming`
game whose events replay (or :class:`Refused`, one line). :class:`Importer`
adds closed games to a store that this process holds the lock of, many games
per transaction, refusing a game already there. What makes two games *the
same*: the same players in the same order, the same rules and the same
events, and the same start to the second when the incoming game says when it
started. The games are found by a fingerprint of their events, each stored
game hashed at most once (only those of the same players, rules, count of
events and, when known, start second), so telling 10,000 twins apart takes
10,000 look-ups, not 10,000 times 10,000 comparisons.

The bounds (:data:`MAX_EVENTS` and the rest) are far above any game played;
they keep a hostile or broken file from filling the memory of a Pi or the
card (docs/backup.md, *Bounds*). A cell is read, and kept, within the bounds
of the store's one guarded reader (:mod:`.jsontext`): a game imported never
reads as damaged.
"""

from __future__ import annotations

import hashlib
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass

import engine
from engine import CantStopError, Event, IllegalEventError, Rules

from . import jsontext
from .errors import one_line
from .games import turns_played
from .jsontext import dump as _dump

#: The most events one game may have: a long game has a few hundred, a 4-player game of
#: players who never stop of their own about 4,500 (random play, 300 games).
MAX_EVENTS = 50_000
#: The longest event's JSON text (characters): a real one is at most 22 (``{"roll":[1,2,3,4]}``). A game's
#: players, rules and meta are read and kept within the store's own bound (:data:`.jsontext.CELL_CHARS`).
MAX_EVENT_CHARS = 1024
#: The most games (or records) one import reads: ten games a day for 27 years.
MAX_GAMES = 100_000


class Refused(Exception):
    """An incoming game that is not added: why, in one line."""


@dataclass(frozen=True)
class Incoming:
    """A closed game to add: who played, when, what happened and how it ended."""

    players: tuple[str, ...]
    rules: Rules
    meta: dict
    events: tuple[Event, ...]
    started: float
    finished: float | None
    status: str  # "finished" or "abandoned"
    winner: int | None
    times: tuple[float, ...]  # when each event was saved
    turns: int = 0  # turns begun, as the store keeps them for history
    started_known: bool = True  # False when the record did not say (the file's time stands in)
    elapsed: tuple[float | None, ...] | None = None  # each event's seconds of play (None: not kept)
    clock_jumped: bool = False  # the dates are not to be trusted (the box saw its clock jump)


def parse_cell(text, what: str, *, limit: int = jsontext.CELL_CHARS):
    """A stored cell's value, read as the store reads one (:func:`.jsontext.load`); Refused naming ``what``."""
    try:
        return jsontext.load(text, limit=limit)
    except jsontext.CellError as err:
        raise Refused(f"{what}: {err}") from None


def kept_cell(value, what: str) -> str:
    """``value``'s text as the store keeps it; Refused when the store would not read it back (too long or deep)."""
    try:
        text = _dump(value)
    except (TypeError, ValueError, RecursionError):
        raise Refused(f"{what}: not JSON data") from None
    if len(text) > jsontext.CELL_CHARS:
        raise Refused(f"{what}: too big to keep ({len(text):,} characters; at most {jsontext.CELL_CHARS:,}, and a "
                      "real game's take under 1,000)")
    if jsontext.nesting(text) > jsontext.MAX_DEPTH:
        raise Refused(f"{what}: nested more than {jsontext.MAX_DEPTH} deep")
    return text


def bounded_meta(meta) -> dict:
    """The meta to keep (an object, else none); Refused when the store would not read it back."""
    if not isinstance(meta, dict):
        return {}
    kept_cell(meta, "meta")
    return meta


_CANON: dict[Event, str] = {}  # an event's text as the store keeps it: the same few hundred again and again


def payload_text(event: Event) -> str:
    text = _CANON.get(event)
    if text is None:
        text = _dump(event.to_json())
        if len(_CANON) < 4096:
            _CANON[event] = text
    return text


def checked(players, rules: Rules, meta, events, *, started: float, finished: float | None, status: str | None,
            winner, times: tuple[float, ...] | None = None, started_known: bool = True,
            elapsed: tuple[float | None, ...] | float | None = None, clock_jumped: bool = False) -> Incoming:
    """An :class:`Incoming` game whose events replay; :class:`Refused` (one line) when they do not.

    A game whose events end in a win is finished with that winner (a winner
    or status stated otherwise is refused); a game said to be finished
    without a winning event keeps the stated winner (a player, or none), as
    the box's finish does; any other game is added as abandoned (it can be
    continued). ``elapsed`` is each event's play time, or the game's (a
    record's), spread over its events as ``times`` are when not given.
    """
    if len(events) > MAX_EVENTS:
        raise Refused(too_many_events(len(events)))
    try:
        state = engine.new_game(list(players), rules)
    except CantStopError as err:
        raise Refused(one_line(err)[:160]) from None
    kept_cell(list(players), "players")
    for i, event in enumerate(events, 1):
        try:
            state = engine.apply(state, event)
        except IllegalEventError as err:
            raise Refused(str(err.at(i))) from None
    if state.is_over:
        if status not in (None, "finished"):
            raise Refused(f"its events end in a win (player {state.winner}), but it says it was {status}")
        if winner is not None and winner != state.winner:
            raise Refused(f"its events make player {state.winner} the winner, but it says winner {winner!r:.20}")
        status, winner = "finished", state.winner
    elif status == "finished":
        if winner is not None and not (type(winner) is int and 0 <= winner < len(players)):
            raise Refused(f"winner {winner!r:.20} is not a player")
    else:
        status, winner = "abandoned", None
    n = len(events)
    if times is None or len(times) != n:
        end = finished if finished is not None and finished >= started else started
        times = tuple(started + (end - started) * i / max(1, n) for i in range(1, n + 1))
    if elapsed is not None and not isinstance(elapsed, tuple):
        elapsed = tuple(elapsed * i / n for i in range(1, n + 1))
    if elapsed is not None and len(elapsed) != n:
        elapsed = None
    return Incoming(tuple(players), rules, bounded_meta(meta), tuple(events), started,
                    finished if status == "finished" else (finished or (times[-1] if times else started)),
                    status, winner, tuple(times), turns_played(state), started_known, elapsed, bool(clock_jumped))


def too_many_events(count: int) -> str:
    return f"{count:,} events: more than {MAX_EVENTS:,}, and no game is that long (a long one has a few hundred)"


def same_key(players, rules: Rules, count: int) -> tuple[str, str, int]:
    """What two games must share before their events are compared."""
    return _dump(list(players)), _dump(rules.to_json()), count


def fingerprint(payloads) -> bytes:
    """A game's events, as the store keeps their text, in 32 bytes."""
    return hashlib.sha256("\n".join(payloads).encode()).digest()


class _Known:
    """A game the importer compares with: its id (None: added by this import), its start second, its fingerprint."""

    __slots__ = ("game_id", "second", "print")

    def __init__(self, game_id: int | None, second: int, fp: bytes | None):
        self.game_id, self.second, self.print = game_id, second, fp


class _Bucket:
    """Games that share what is compared first; indexed by fingerprint the first time one is looked for."""

    __slots__ = ("games", "by_print")

    def __init__(self):
        self.games: list[_Known] = []
        self.by_print: dict[bytes, _Known] | None = None

    def find(self, fp: bytes, hash_of: Callable[[_Known], bytes]) -> _Known | None:
        if self.by_print is None:
            self.by_print = {}
            for known in self.games:
                if known.print is None:
                    known.print = hash_of(known)  # each stored game hashed once, whatever looks for it
                self.by_print.setdefault(known.print, known)
        return self.by_print.get(fp)

    def add(self, known: _Known) -> None:
        self.games.append(known)
        if self.by_print is not None:
            self.by_print.setdefault(known.print, known)


class Importer:
    """Adds closed games to a writing store, refusing duplicates; ``tally_of(game)`` gives the fact to keep per game."""

    def __init__(self, store, tally_of: Callable[[Incoming], dict | None] | None = None, *, batch: int = 200):
        self._store = store
        self._tally_of = tally_of
        self._batch = batch
        self._waiting: list[tuple[Incoming, tuple[str, ...]]] = []  # each game with its events' text
        self._shapes: dict[tuple, _Bucket] = {}  # (players, rules, count) -> its games
        self._starts: dict[tuple, _Bucket] = {}  # (players, rules, count, start second) -> its games
        db = store._connection()
        # a game's count of events is its last seq (a seek in the events' key, where COUNT(*) reads them all)
        for game_id, players, rules, started, last in db.execute(
                f"SELECT id, {jsontext.sized('players')}, {jsontext.sized('rules')}, started,"
                " (SELECT MAX(seq) FROM events WHERE game_id = games.id) FROM games"):
            try:
                players, rules = jsontext.load(jsontext.fetched(players)), jsontext.load(jsontext.fetched(rules))
                key = same_key(players, Rules.from_json(rules), last or 0)
                second = int(started)
            except (ValueError, TypeError, OverflowError, RecursionError, CantStopError):
                continue  # a damaged row is no game to compare with
            self._index(key, _Known(game_id, second, None))
        self.added = 0

    def _index(self, key: tuple, known: _Known) -> None:
        self._shapes.setdefault(key, _Bucket()).add(known)
        self._starts.setdefault(key + (known.second,), _Bucket()).add(known)

    def _hash_stored(self, known: _Known) -> bytes:
        rows = self._store._connection().execute(
            "SELECT payload FROM events WHERE game_id = ? ORDER BY seq", (known.game_id,))
        return fingerprint(str(r[0]) for r in rows)

    def offer(self, game: Incoming) -> None:
        """Queue ``game`` to be added (saved by :meth:`flush`, or when a batch is full); :class:`Refused` if known."""
        payloads = tuple(payload_text(e) for e in game.events)
        key = same_key(game.players, game.rules, len(payloads))
        fp = fingerprint(payloads)
        second = int(game.started)
        bucket = self._starts.get(key + (second,)) if game.started_known else self._shapes.get(key)
        twin = bucket.find(fp, self._hash_stored) if bucket is not None else None
        if twin is not None:
            where = f"game {twin.game_id}" if twin.game_id is not None else "an earlier one in this import"
            raise Refused(f"already in the store (the same players, rules, start and events as {where})")
        self._index(key, _Known(None, second, fp))
        self._waiting.append((game, payloads))
        if len(self._waiting) >= self._batch:
            self.flush()

    def flush(self) -> None:
        """Save the queued games in one transaction (StoreWriteError if it fails: none of them is saved)."""
        games, self._waiting = self._waiting, []
        if not games:
            return
        tallies = [self._tally_of(g) if self._tally_of else None for g, _ in games]

        def insert(db: sqlite3.Connection) -> None:
            for (game, payloads), tally in zip(games, tallies):
                cur = db.execute(
                    "INSERT INTO games (players, rules, meta, started, finished, winner, status, turns, clock_jumped)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (_dump(list(game.players)), _dump(game.rules.to_json()), _dump(game.meta), game.started,
                     game.finished, game.winner, game.status, game.turns, 1 if game.clock_jumped else None))
                game_id = cur.lastrowid
                elapsed = game.elapsed or (None,) * len(payloads)
                db.executemany("INSERT INTO events (game_id, seq, payload, time, elapsed) VALUES (?, ?, ?, ?, ?)",
                               [(game_id, seq, payload, when, spent) for seq, (payload, when, spent)
                                in enumerate(zip(payloads, game.times, elapsed), 1)])
                if tally is not None:
                    db.execute("INSERT OR REPLACE INTO facts (key, value, time) VALUES (?, ?, ?)",
                               (f"tally:{game_id}", _dump(tally), time.time()))

        self._store._save([], insert, keep=False)
        self.added += len(games)
