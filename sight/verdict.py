"""A reading turned into what the table needs to hear: the board is right, these pieces are wrong, or unsure.

Only a confident difference is a finding: a piece the game expects that is
surely not on its space, or a piece surely on a space where the game has
none. A piece found up or down its column from where the game has it is one
finding ("moved"), not two. A piece surely not on its space is "missing"
when nothing else in its column is in doubt, or when its square barely
changed from the empty board's (the reading's ``gone``): a blob beside it
that the picture could not settle does not make its absence unsure. Anything the reading could not settle makes the
board *unsure*, never wrong; too much of it, and the camera says it cannot see
the board well, whatever it found.

>>> from sight.layout import Piece
>>> from sight.read import Reading
>>> v = verdict(Reading({Piece(7, 4, "Red"): "no"}, extras=(Piece(7, 5, "Red"),), spaces=83), [Piece(7, 4, "Red")])
>>> v.state, v.wrong
('wrong', (Finding(what='moved', kind='Red', column=7, should=4, seen=5),))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:  # the reading's type only: this module needs no NumPy (the box's loop reads verdicts)
    from .read import Reading

STATES = ("right", "wrong", "unsure", "blind")
WHYS = ("", "markers", "light", "hand")
WHATS = ("moved", "missing", "extra")
#: More of the board's spaces than this unsure: the camera cannot see the board well, and says so rather than
#: what it found (a picture it cannot read a third of is no picture to call a board wrong on: board 249 of make
#: camera-bench, a hand in a corner and the light's fit thrown, 33 spaces unsure and "a runner on 10"). A
#: lamp's glare over a fifth of the board is common at a table (half the boards said so in make camera-bench lost
#: 17 to 24 squares to glare); the rest of such a board is read as well as any, so the table hears which squares
#: the camera could not see rather than a "check the light" that says nothing of the other sixty.
TOO_UNSURE = 0.3
#: More findings than this in one picture: a table makes a slip or two at a hand-over, not this many; the camera
#: misreads the board (its light, a bumped tag), and says it cannot see it well rather than list them.
TOO_MANY = 3
#: This many pieces or more, and nothing else, said moved one space the same way: the reading is shifted (tall
#: pieces leaning far under a camera well off the board's middle, their feet read a space off), not as many slips
#: at once; the camera says it cannot see the board well (seed 50's board 134 of make camera-heldout: a runner and
#: two reds each said a space lower than they stood).
SHIFTED = 3


class Finding(NamedTuple):
    """One thing wrong on the board: ``what`` is "moved" (``should`` -> ``seen``), "missing" (at ``should``) or
    "extra" (at ``seen``), for a piece of ``kind`` in ``column``."""

    what: str
    kind: str
    column: int
    should: int = 0
    seen: int = 0


@dataclass(frozen=True)
class Verdict:
    """``state``: "right", "wrong" (``wrong`` says what), "unsure" (the picture could not settle everything) or
    "blind" (nothing read: ``why`` says, as "markers", "light" or "hand")."""

    state: str
    wrong: tuple = ()
    unsure: tuple = ()  # (column, step) of every space that could not be read
    why: str = ""
    detail: str = ""  # a blind reading's own line (which markers are hidden)

    def to_json(self) -> dict:
        return {"state": self.state, "wrong": [list(f) for f in self.wrong], "unsure": [list(s) for s in self.unsure],
                "why": self.why}

    @classmethod
    def from_json(cls, raw) -> Verdict:
        """A verdict as :meth:`to_json` wrote it; ValueError when it is not one (it crosses a pipe)."""
        try:
            state, why = raw["state"], raw.get("why", "")
            wrong = tuple(Finding(str(w), str(k), int(c), int(s), int(n)) for w, k, c, s, n in raw["wrong"])
            unsure = tuple((int(c), int(k)) for c, k in raw["unsure"])
        except (KeyError, TypeError, ValueError) as err:
            raise ValueError(f"not a verdict: {err}") from None
        if state not in STATES or why not in WHYS or any(f.what not in WHATS for f in wrong) or len(unsure) > 200:
            raise ValueError("not a verdict: unknown words in it")
        return cls(state, wrong, unsure, why)


def verdict(reading: Reading, expected) -> Verdict:
    """What ``reading`` of a photo says of the board against the ``expected`` pieces."""
    if reading.blind:
        return Verdict("blind", why=reading.blind, detail=reading.why)
    expected = tuple(expected)
    doubts = set(reading.doubts)
    wrong: list[Finding] = []
    extras = list(reading.extras)
    for piece in expected:
        status = reading.pieces.get(piece, "unsure")
        if status == "yes":
            continue
        same = [e for e in extras if e.kind == piece.kind and e.column == piece.column]
        if same:
            seen = min(same, key=lambda e: abs(e.step - piece.step))
            extras.remove(seen)
            wrong.append(Finding("moved", piece.kind, piece.column, piece.step, seen.step))
        elif status == "no" and (piece in reading.gone or not any(c == piece.column for c, _ in doubts)):
            wrong.append(Finding("missing", piece.kind, piece.column, piece.step, 0))
        else:
            doubts.add((piece.column, piece.step))
    for e in extras:
        wrong.append(Finding("extra", e.kind, e.column, 0, e.step))
    unsure = tuple(sorted(doubts))
    shifted = len(wrong) >= SHIFTED and len({(f.what, f.seen - f.should) for f in wrong}) == 1 and \
        wrong[0].what == "moved" and abs(wrong[0].seen - wrong[0].should) == 1
    if len(wrong) > TOO_MANY or shifted or reading.spaces and len(doubts) > TOO_UNSURE * reading.spaces:
        return Verdict("blind", unsure=unsure, why="hand" if reading.hand else "light")
    if wrong:
        return Verdict("wrong", tuple(sorted(wrong, key=lambda f: (f.column, f.kind))), unsure)
    return Verdict("unsure" if doubts else "right", (), unsure)
