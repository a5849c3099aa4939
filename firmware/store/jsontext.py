"""How the store writes JSON (game rows, events, facts) and reads it back: one encoder, one guarded reader.

``json.dumps`` with options builds a new encoder at every call, a third of
the cost of an event's text; an import writes hundreds of thousands of them.

Every stored JSON cell is read through :func:`load`: a cell edited by hand,
damaged on the card or brought by another program may be anything, and
``json.loads`` of text nested 100,000 deep raises ``RecursionError`` (which
no reader expects), while a cell of 50 MB would be read whole into memory.
:func:`load` turns every such cell into one :class:`CellError` (a
``ValueError``, one line), which the readers take as a damaged game or a
damaged fact. The SQL that fetches cells fetches at most :data:`CELL_CHARS`
(:data:`FACT_CHARS` for a fact) of each and only the size of a bigger one,
which it hands on as :class:`Unread`: ``load`` of that is the same error.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from itertools import accumulate

#: The JSON text of ``obj`` as the store keeps it: no spaces, characters as they are, ValueError for NaN.
dump = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode

#: The deepest a stored value nests (a game's meta is 3 deep, the statistics' sums 4): deeper is damage.
MAX_DEPTH = 32
#: The most characters a game row's cell (players, rules, meta) or an event holds: the box's are under 1,000.
CELL_CHARS = 64 * 1024
#: The most characters a fact holds (the statistics' sums: a few hundred per person).
FACT_CHARS = 1024 * 1024


class CellError(ValueError):
    """A stored cell that does not read as JSON: not JSON, nested too deep or too big (its ``str`` is one line)."""


@dataclass(frozen=True)
class Unread:
    """A stored cell too big to fetch: only its size (characters) was read."""

    size: int


def _reject_constant(name: str):
    raise ValueError(f"{name} is not JSON")


_decode = json.JSONDecoder(parse_constant=_reject_constant).decode
_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*+"')
_NOT_BRACKETS = re.compile(r'[^\[\]{}]++')
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def load(text, *, limit: int | None = CELL_CHARS, depth: int = MAX_DEPTH):
    """The value of a stored JSON cell; :class:`CellError` for one that is not JSON text, is longer than
    ``limit`` characters (None: no limit) or nests deeper than ``depth``."""
    if isinstance(text, Unread):
        raise CellError(f"too big to read ({text.size:,} characters; at most {limit or CELL_CHARS:,})")
    if isinstance(text, bytes):  # a cell stored as a BLOB
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise CellError("not valid JSON (not UTF-8 text)") from None
    if not isinstance(text, str):
        raise CellError("not valid JSON" if text is not None else "missing")
    if limit is not None and len(text) > limit:
        raise CellError(f"too big to read ({len(text):,} characters; at most {limit:,})")
    try:
        value = _decode(text)
    except RecursionError:  # nested hundreds deep: the decoder gives up before the check below
        raise CellError(f"not valid JSON: nested more than {depth} deep") from None
    except ValueError:  # not JSON, NaN, an integer longer than Python reads
        raise CellError("not valid JSON") from None
    if text.count("[") + text.count("{") > depth and nesting(text) > depth:
        raise CellError(f"not valid JSON: nested more than {depth} deep")
    return value


def nesting(text: str) -> int:
    """How deep valid JSON text nests (``[]`` is 1), counted over its brackets outside strings at C speed."""
    marks = _NOT_BRACKETS.sub("", _STRINGS.sub("", text))
    return max(accumulate(map(_STEP.__getitem__, marks)), default=0)


def sized(column: str, limit: int = CELL_CHARS, name: str | None = None) -> str:
    """SQL selecting ``column`` (as ``name``) only when it holds at most ``limit`` characters, else minus
    its size: a bigger cell is never fetched into Python (see :func:`fetched`).

    A column of TEXT affinity never gives back a whole number (SQLite stores a number put in it as
    text), so a number here is a size. One ``length()``: SQLite reads a big text once to count it
    (50 MB for a 50 MB cell, freed at once), where asking for it twice would hold it twice.
    """
    return f"CASE WHEN length({column}) <= {int(limit)} THEN {column} ELSE -length({column}) END AS {name or column}"


def fetched(value):
    """A cell selected by :func:`sized`: its value, or :class:`Unread` when it was too big to fetch."""
    return Unread(-value) if type(value) is int else value
