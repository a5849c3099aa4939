"""The three events of a game: a roll (carrying its dice), a move, a stop.

Randomness is an input: a :class:`Roll` carries the dice that were drawn, so
applying events is deterministic and a game is its list of events.
A player's choice between two throws, roll again or stop, is a
:class:`Decision` (a roll decided is not yet an event: the dice are not out).

>>> Roll((2, 3, 4, 5)).to_json()
{'roll': [2, 3, 4, 5]}
>>> Move.of(9, 5)
Move(sums=(5, 9))
>>> event_from_json({"move": [7, 7]}) == Move((7, 7))
True
>>> event_from_json({"stop": True})
Stop()
>>> Decision("stop")
<Decision.STOP: 'stop'>
"""

from dataclasses import dataclass
from enum import Enum

from .errors import IllegalEventError, RecordError


def _is_int(value) -> bool:
    return type(value) is int


@dataclass(frozen=True, slots=True)
class Roll:
    """All four dice rolled; ``dice`` in the order drawn (d1, d2, d3, d4)."""

    dice: tuple[int, int, int, int]

    def __post_init__(self):
        dice = self.dice
        if type(dice) is not tuple:
            dice = tuple(dice)
            object.__setattr__(self, "dice", dice)
        if len(dice) != 4 or not all(type(d) is int and 1 <= d <= 6 for d in dice):
            raise IllegalEventError(f"dice must be four whole numbers 1 to 6, not {list(dice)!r}")

    def to_json(self) -> dict:
        return {"roll": list(self.dice)}

    def __str__(self) -> str:
        return "roll " + " ".join(map(str, self.dice))


@dataclass(frozen=True, slots=True)
class Move:
    """Advance runners: one entry per step, sorted ascending, e.g. (5, 9) or (7, 7)."""

    sums: tuple[int, ...]

    def __post_init__(self):
        sums = self.sums
        if type(sums) is not tuple or any(sums[i] > sums[i + 1] for i in range(len(sums) - 1)):
            sums = tuple(sorted(sums))
            object.__setattr__(self, "sums", sums)
        if not 1 <= len(sums) <= 2 or not all(type(s) is int and 2 <= s <= 12 for s in sums):
            raise IllegalEventError(f"a move is one or two sums 2 to 12, not {list(sums)!r}")

    @classmethod
    def of(cls, *sums: int) -> "Move":
        """The move that advances the given sums, in any order."""
        return cls(tuple(sorted(sums)))

    def to_json(self) -> dict:
        return {"move": list(self.sums)}

    def __str__(self) -> str:
        return "move " + "+".join(map(str, self.sums))


@dataclass(frozen=True, slots=True)
class Stop:
    """End the turn, keeping the progress: runners become markers."""

    def to_json(self) -> dict:
        return {"stop": True}

    def __str__(self) -> str:
        return "stop"


STOP = Stop()

Event = Roll | Move | Stop


class Decision(Enum):
    """Roll (again) or stop: what a player decides before a throw (phases ROLL and DECIDE)."""

    ROLL = "roll"
    STOP = "stop"


def event_from_json(obj) -> Event:
    """Parse one record event; raise :class:`RecordError` saying what is wrong.

    Keys other than ``roll``, ``move`` and ``stop`` are ignored (the record may
    grow optional keys), but exactly one of those three must be present.
    """
    if not isinstance(obj, dict):
        raise RecordError("must be an object like {\"roll\": [...]}, {\"move\": [...]} or {\"stop\": true}")
    kinds = [k for k in ("roll", "move", "stop") if k in obj]
    if len(kinds) != 1:
        if not kinds:
            raise RecordError("has none of the keys roll, move, stop")
        raise RecordError(f"has more than one of the keys {', '.join(kinds)}")
    kind = kinds[0]
    value = obj[kind]
    if kind == "roll":
        if not (isinstance(value, list) and len(value) == 4 and all(_is_int(d) and 1 <= d <= 6 for d in value)):
            raise RecordError(f"roll must be a list of four whole numbers 1 to 6, not {_show(value)}")
        return Roll(tuple(value))
    if kind == "move":
        if not (isinstance(value, list) and 1 <= len(value) <= 2 and all(_is_int(s) and 2 <= s <= 12 for s in value)):
            raise RecordError(f"move must be a list of one or two sums 2 to 12, not {_show(value)}")
        return Move(tuple(sorted(value)))
    if value is not True:
        raise RecordError(f"stop must be true, not {_show(value)}")
    return STOP


def _show(value) -> str:
    import json

    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
