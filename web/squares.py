"""The board as HTML: the eleven columns drawn, and the same positions as a list a screen reader reads.

The markup carries what a test (or a curious player) needs to read the
board back: each square is ``data-col``/``data-step``, each piece names its
``data-seat`` (and ``data-mark``, its symbol), a runner is ``class="runner"``,
a claimed column ``data-owner``; the runners lost to a bust stay drawn,
ghosted (``class="lost"``), until the next roll.

Each player's pieces are drawn with their colour's symbol, the one the box's
screen draws for that colour (:func:`firmware.table.seat.symbols`): Blue keeps
its symbol whatever seat it takes, on the page as on the box. Every colour
here is at least 3:1 against the board's squares (``--sqbg`` in style.css;
a test computes it).
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape

from engine import HEIGHTS, GameState

from firmware.table.seat import symbols

from .patch import El

#: CSS colours for the usual names of the pieces' colours; other names take one by their symbol.
PIECE_COLOURS = {
    "red": "#e0303f", "blue": "#4c8dff", "green": "#1f9d55", "yellow": "#f4c20d", "white": "#f5f5f5",
    "black": "#6e6e6e", "orange": "#f77f00", "purple": "#a66bd3", "pink": "#ff6fb5", "brown": "#a8703f",
    "grey": "#8a8f98", "gray": "#8a8f98", "cyan": "#17becf", "teal": "#1a9e84",
}
FALLBACK = ("#e0303f", "#4c8dff", "#1f9d55", "#f4c20d")
#: The box's four seat symbols (filled square, hollow square, filled circle, cross), by symbol number.
MARKS = ("■", "□", "●", "✕")


def e(text) -> str:
    """Text for HTML (and for attributes): every ``<``, ``&`` and quote escaped."""
    return escape("" if text is None else str(text), quote=True)


def colour_css(colour: str, mark: int) -> str:
    return PIECE_COLOURS.get(str(colour).strip().lower(), FALLBACK[mark % len(FALLBACK)])


def marks_of(palette: tuple[str, ...], colours: tuple[str, ...]) -> tuple[int, ...]:
    """Each seat's symbol, in turn order: its colour's, as the box draws it (``palette``: the config's colours)."""
    return symbols(tuple(palette), tuple(colours))


def piece(seat: int, marks: tuple[int, ...], extra: str = "") -> str:
    """One of ``seat``'s pieces (or its badge): its colour (``p<seat>``) and its colour's symbol."""
    mark = marks[seat] if seat < len(marks) else seat
    return f'<span class="piece p{seat}"{extra} data-mark="{mark}">{MARKS[mark % len(MARKS)]}</span>'


SEATS = 4


def colour_key(colour: str, mark: int) -> str:
    """The stylesheet's name for a seat's colour: the colour's own where the page knows it ("red"), else its
    symbol's ("m2"), so an unknown colour keeps one CSS colour whatever seat it takes."""
    name = str(colour).strip().lower()
    return name if name in PIECE_COLOURS else f"m{mark % len(FALLBACK)}"


def seat_classes(colours: tuple[str, ...], marks: tuple[int, ...] = ()) -> str:
    """Classes that set --p0..--p3 to each seat's colour (seats.css): the page's policy allows no inline style,
    which a browser drops, and then every seat took the stylesheet's colours in turn order (issue 46, item 1).
    No stored text reaches the CSS: a class names only a known colour or a symbol."""
    return " ".join(f"s{i}-{colour_key(c, marks[i] if i < len(marks) else i)}" for i, c in enumerate(colours[:SEATS]))


def seats_css() -> str:
    """The rules behind :func:`seat_classes`: for each seat, each known colour and each symbol's."""
    rules = []
    for i in range(SEATS):
        rules += [f".s{i}-{name}{{--p{i}:{css}}}" for name, css in PIECE_COLOURS.items()]
        rules += [f".s{i}-m{m}{{--p{i}:{css}}}" for m, css in enumerate(FALLBACK)]
    return "\n".join(rules) + "\n"


def board(state: GameState, moved: tuple[int, ...] = (), marks: tuple[int, ...] = (), *,
          names: tuple[str, ...] = (), t: Mapping[str, str] | None = None, lost: dict | None = None,
          lost_seat: int = 0) -> str:
    """The eleven columns, bottom square 1, with markers (each seat's symbol in ``marks``), runners and claims;
    ``lost``: runners a bust just cost (column -> square), drawn ghosted. With ``t`` (the page's words) and
    ``names``, the positions as a list for a screen reader too (the drawing itself is hidden from it)."""
    return "".join(part.html() for part in board_parts(state, moved, marks, names=names, t=t, lost=lost,
                                                       lost_seat=lost_seat))


def board_parts(state: GameState, moved: tuple[int, ...] = (), marks: tuple[int, ...] = (), *,
                names: tuple[str, ...] = (), t: Mapping[str, str] | None = None, lost: dict | None = None,
                lost_seat: int = 0, ids: bool = False) -> tuple:
    """:func:`board` as elements (:class:`web.patch.El`): the drawing, then the list; ``ids``: each column and
    the list with an id of its own (``g-c7``, each square ``s7-3``, ``g-pos``), so a press sends only the squares
    it changed."""
    cols = []
    n = len(state.players)
    lost = lost or {}
    for c in range(2, 13):
        owner = state.claimed[c]
        cells = []
        for step in range(HEIGHTS[c], 0, -1):
            pieces = "".join(piece(i, marks, f' data-seat="{i}"') for i in range(n) if state.markers[i][c] == step)
            if state.runners[c] == step:
                pieces += '<span class="runner" title="runner">▲</span>'
            if lost.get(c) == step:
                pieces += f'<span class="lost p{lost_seat}">▲</span>'
            cells.append(El("div", (("class", "sq"), ("data-col", c), ("data-step", step),
                                    ("id", f"s{c}-{step}" if ids else None)), (pieces,)))
        classes = "col" + (f" claimed p{owner}" if owner >= 0 else "") + (" moved" if c in moved else "")
        # A claim's owner by shape as well as by its fill (Red's and Green's look alike to many): the owner's
        # symbol beside the column's number, in the page's ink.
        own = piece(owner, marks, ' data-owner-mark=""') if owner >= 0 else ""
        cols.append(El("div", (("class", classes), ("data-col", c), ("data-owner", owner if owner >= 0 else None),
                               ("id", f"g-c{c}" if ids else None)),
                       (El("div", (("class", "squares"), ("id", f"g-q{c}" if ids else None)), cells),
                        f'<div class="num">{c}{own}</div>')))
    drawn = El("div", (("class", "board"), ("data-turn", None if state.is_over else state.current),
                       ("aria-hidden", "true"), ("id", "g-board" if ids else None)), cols)
    if t is None:
        return (drawn,)
    return drawn, positions(state, names, t, ident="g-pos" if ids else None)


def positions(state: GameState, names: tuple[str, ...], t: Mapping[str, str], ident: str | None = None) -> El:
    """The board in words, a column a line: "7: Ann 3, Bob 5; runners 4" or "12: claimed Bob"."""
    def who(i: int) -> str:
        return names[i] if i < len(names) else f"P{i + 1}"

    rows = []
    for c in range(2, 13):
        owner = state.claimed[c]
        if owner >= 0:
            text = f'{t["claimed"]} {who(owner)}'
        else:
            parts = [f"{who(i)} {state.markers[i][c]}" for i in range(len(state.players)) if state.markers[i][c]]
            if state.runners[c]:
                parts.append(f'{t["runner"]} {state.runners[c]}')
            text = ", ".join(parts) or t["nobody"]
        rows.append(f"<li>{c}: {e(text)}</li>")
    # Not an ordered list: its numbers ("1.", "2.") would be read before the columns' own ("2:", "3:").
    return El("ul", (("class", "sr positions"), ("aria-label", t["positions"]), ("id", ident)), ("".join(rows),))
