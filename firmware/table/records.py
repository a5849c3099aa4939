"""What a stored game looks like to its readers: a game record (CONTRACT.md) and a history row.

The command line (``export``, ``history``) and the web view show stored games
the same way, so the shapes live here, beside the store, and both use them:

- :func:`record_json`, :func:`format_record`: a stored game as its record, the
  contract's keys plus optional ones (``id``, ``status``, the dates, ``elapsed``,
  ``winner``, ``meta``, and a damaged game's ``problem`` and ``damaged_events``);
- :func:`summary_json`, :func:`names`, :func:`shown_names`, :func:`winner_name`,
  :func:`rounds`, :func:`started_text`, :func:`status_text`, :func:`duration_text`:
  a history row's cells, as words and as JSON.

>>> duration_text(45), duration_text(725), duration_text(3780), duration_text(None)
('45s', '12m 05s', '1h 03m', '?')
"""

from __future__ import annotations

import json
import time
from datetime import datetime, timezone

from firmware.store import GameSummary, StoredGame
from firmware.store.games import date_known
from firmware.table.seat import called, seats_from_meta

#: The biggest whole number SQLite stores: game numbers and counts past it cannot name anything.
MAX_GAME_NUMBER = 2**63 - 1

DATE_UNKNOWN = "date unknown"
DURATION_UNKNOWN = "?"


def iso(seconds: float | None) -> str | None:
    """``seconds`` since the epoch as ISO 8601 in UTC, e.g. ``2026-05-09T14:03:00Z``."""
    if seconds is None:
        return None
    return datetime.fromtimestamp(seconds, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


# -- a game record -------------------------------------------------------------


def record_json(game: StoredGame) -> dict:
    """The contract's record of ``game`` plus optional keys (never changing a contract key)."""
    obj = game.record().to_json()
    obj["id"] = game.id
    obj["status"] = game.status
    obj["started"] = iso(game.started)
    obj["finished"] = iso(game.finished)
    ended = game.finished if game.finished is not None else (game.times[-1] if game.times else None)
    obj["date_known"] = date_known(game.started, ended, game.elapsed, game.clock_jumped)
    if game.elapsed is not None:
        obj["elapsed"] = round(game.elapsed, 3)
    obj["winner"] = game.winner
    obj["meta"] = game.meta
    if game.problem:
        obj["problem"] = game.problem
        obj["damaged_events"] = [{"event": seq, "stored": text} for seq, text in game.damaged_rows]
    return obj


def format_record(obj: dict) -> str:
    """JSON text with one event per line: readable, diffable, still plain JSON."""
    lines = []
    for key, value in obj.items():
        if key == "events" and value:
            inner = ",\n".join("    " + json.dumps(e) for e in value)
            lines.append(f'  "events": [\n{inner}\n  ]')
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


# -- a history row -------------------------------------------------------------


def duration_text(seconds: float | None) -> str:
    """``45s``, ``12m 05s``, ``1h 03m``; ``?`` when there is no honest figure."""
    if seconds is None:
        return DURATION_UNKNOWN
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds}s"
    minutes, secs = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes}m {secs:02d}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h {minutes:02d}m"


def names(game: GameSummary, name_of=None) -> list[str | None]:
    """Each seat's player's name as stored in the game's meta, None where it had none; with ``name_of`` (the
    roster's :meth:`~firmware.table.roster.Roster.name_of`), the name its person goes by now."""
    seats = seats_from_meta(game.meta if isinstance(game.meta, dict) else None, game.players)
    return [called(s, name_of) if name_of else s.name for s in seats]


def bots(game: GameSummary) -> list[str | None]:
    """Each seat's box player ("strong", "rule28") where the box played it, None where a person did."""
    return [s.bot for s in seats_from_meta(game.meta if isinstance(game.meta, dict) else None, game.players)]


def shown_names(game: GameSummary, name_of=None) -> list[str]:
    """Each seat as the box called it: the player's name (the person's now, with ``name_of``), else the colour."""
    return [name or colour for name, colour in zip(names(game, name_of), game.players)]


def winner_name(game: GameSummary, name_of=None) -> str | None:
    if game.winner is None or not 0 <= game.winner < len(game.players):
        return None
    return shown_names(game, name_of)[game.winner]


def started_text(game: GameSummary) -> str:
    """The start in local time, or "date unknown" when the game's dates cannot be right."""
    if not game.date_known:
        return DATE_UNKNOWN
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(game.started))


def rounds(game: GameSummary) -> int:
    """Rounds begun: every player's turn once, as the box counts them (its round N and "after N rounds")."""
    return -(-game.turns // max(1, len(game.players)))


def summary_json(game: GameSummary) -> dict:
    return {
        "id": game.id,
        "players": list(game.players),
        "names": names(game),
        "bots": bots(game),  # added after the keys above, which stay as they were
        "rules": game.rules.to_json(),
        "meta": game.meta,
        "started": iso(game.started),
        "finished": iso(game.finished),
        "duration": None if game.duration is None else round(game.duration, 3),
        "date_known": game.date_known,
        "turns": game.turns,
        "rounds": rounds(game),
        "events": game.events,
        "winner": game.winner,
        "winner_name": winner_name(game),
        "status": game.status,
        "problem": game.problem,
    }


def status_text(game: GameSummary) -> str:
    """The status as the table reads it: a game set aside that the menu's Continue can reopen is
    "set aside", not "abandoned" (the stored status, which ``--json`` keeps)."""
    if game.status == "abandoned" and not game.problem:
        return "set aside"
    return game.status
