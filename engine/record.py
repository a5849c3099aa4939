"""The game record and the state view of CONTRACT.md.

A record is ``{"players": [...], "rules": {...}, "events": [...]}``; replaying
its events from a new game gives the state, and :func:`state_view` gives the
contract's JSON view of a state.

>>> rec = Record.from_json({"players": ["Red", "Blue"], "events": [{"roll": [2, 3, 4, 5]}, {"move": [7, 7]}]})
>>> view = state_view(rec.replay())
>>> view["phase"], view["runners"], view["can_stop"]
('decide', {'7': 2}, True)
"""

import json
from dataclasses import dataclass, field

from .errors import CantStopError, IllegalEventError, RecordError, RulesError
from .events import Event, event_from_json
from .game import apply, can_stop
from .odds import bust_chance
from .rules import Rules
from .state import GameState, Phase, new_game


@dataclass(frozen=True)
class Record:
    """Players, rules and the events of one game, in order."""

    players: tuple[str, ...]
    rules: Rules = Rules()
    events: tuple[Event, ...] = field(default=())

    @classmethod
    def from_json(cls, obj) -> "Record":
        """A record from parsed JSON; raises :class:`RecordError` naming the problem.

        Schema errors in an event are numbered like ``event 3: ...``. Keys the
        contract does not know are ignored at the top level and in events.
        """
        players, rules, raw = _header(obj)
        return cls(players, rules, tuple(_event(i, item) for i, item in enumerate(raw, 1)))

    @classmethod
    def from_text(cls, text: str) -> "Record":
        """A record from JSON text; invalid JSON is a :class:`RecordError`."""
        return cls.from_json(parse_json(text))

    def to_json(self) -> dict:
        return {
            "players": list(self.players),
            "rules": self.rules.to_json(),
            "events": [e.to_json() for e in self.events],
        }

    def new_game(self) -> GameState:
        return new_game(self.players, self.rules)

    def replay(self) -> GameState:
        """The state after every event; an illegal event raises, numbered from 1."""
        return replay(self.new_game(), self.events)


def parse_json(text: str):
    """Strict JSON: no NaN or Infinity, no repeated keys; errors are one-line :class:`RecordError`."""
    try:
        return json.loads(text, parse_constant=_reject_constant, object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as err:
        raise RecordError(f"not valid JSON: {err.msg} at line {err.lineno} column {err.colno}") from None
    except _BadConstant as err:
        raise RecordError(f"not valid JSON: {err} is not a number JSON allows") from None
    except _RepeatedKey as err:
        raise RecordError(f"not valid JSON: the key {json.dumps(str(err))} appears twice in one object") from None
    except RecursionError:
        raise RecordError("not valid JSON: nested too deeply") from None
    except ValueError as err:  # an integer longer than Python's int-from-text limit
        raise RecordError(f"not valid JSON: {str(err).split(';')[0]}") from None


def replay_json(obj) -> GameState:
    """Replay a parsed record event by event: the first bad event, in order, is the one reported.

    A schema error and an illegal event are both numbered (``event 3: ...``),
    so a record whose event 1 is illegal reports event 1 even if event 9 is
    malformed.
    """
    players, rules, raw = _header(obj)
    state = new_game(players, rules)
    for i, item in enumerate(raw, 1):
        try:
            state = apply(state, _event(i, item))
        except IllegalEventError as err:
            raise err.at(i) from None
    return state


def _header(obj) -> tuple[tuple[str, ...], Rules, list]:
    """Players, rules and the raw events list of a parsed record."""
    if not isinstance(obj, dict):
        raise RecordError("the record must be a JSON object with players and events")
    players = obj.get("players")
    if not (isinstance(players, list) and 1 <= len(players) <= 4):
        raise RecordError("players must be a list of 1 to 4 names")
    for i, name in enumerate(players, 1):
        if not isinstance(name, str) or not name.strip():
            raise RecordError(f"player {i} must be a non-empty name, not {json.dumps(name)}")
    try:
        rules = Rules.from_json(obj.get("rules"))
    except RulesError as err:
        text = str(err)
        raise RecordError(text if text.startswith("rules ") else f"rules: {text}") from None
    if "events" not in obj:
        raise RecordError("events is missing (use [] for a game not yet started)")
    raw = obj["events"]
    if not isinstance(raw, list):
        raise RecordError("events must be a list")
    return tuple(players), rules, raw


def _event(i: int, item) -> Event:
    try:
        return event_from_json(item)
    except RecordError as err:
        raise RecordError(f"event {i}: {err}") from None


def replay(state: GameState, events, first: int = 1) -> GameState:
    """Apply ``events`` in order; an illegal one raises :class:`IllegalEventError` with its number."""
    for i, event in enumerate(events, first):
        try:
            state = apply(state, event)
        except IllegalEventError as err:
            raise err.at(i) from None
    return state


def state_view(state: GameState) -> dict:
    """The contract's state view of ``state`` (a JSON-ready dict)."""
    phase = state.phase
    deciding = phase is Phase.ROLL or phase is Phase.DECIDE
    view = {
        "players": list(state.players),
        "current": state.current,
        "phase": phase.value,
        "dice": list(state.dice) if phase is Phase.MOVE else None,
        "moves": [list(m.sums) for m in state.moves],
        "runners": {str(c): s for c, s in state.runner_steps().items()},
        "markers": [{str(c): s for c, s in state.marker_steps(i).items()} for i in range(len(state.players))],
        "claimed": {str(c): p for c, p in state.claimed_columns().items()},
        "winner": state.winner,
        "can_stop": can_stop(state),
        "bust_chance": bust_chance(state) if deciding else None,
    }
    return view


__all__ = ["Record", "parse_json", "replay", "replay_json", "state_view", "CantStopError"]


class _BadConstant(ValueError):
    pass


class _RepeatedKey(ValueError):
    pass


def _unique_keys(pairs) -> dict:
    """A JSON object whose keys are all different: a repeated key makes a record ambiguous."""
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen = set()
        for key, _ in pairs:
            if key in seen:
                raise _RepeatedKey(key)
            seen.add(key)
    return obj


def _reject_constant(name: str):
    """json.loads accepts NaN and Infinity; the record format (strict JSON) does not."""
    raise _BadConstant(name)
