"""The board and the live game as HTML: every name and stored text escaped.

The markup carries what a test (or a curious player) needs to read the
board back: each square is ``data-col``/``data-step``, each piece names its
``data-seat`` (and ``data-mark``, its symbol), a runner is ``class="runner"``,
a claimed column ``data-owner``.

Each player's pieces are drawn with their colour's symbol, the one the box's
screen draws for that colour (:func:`firmware.table.seat.symbols`): Blue keeps
its symbol whatever seat it takes, on the page as on the box.
"""

from __future__ import annotations

from html import escape

from engine import HEIGHTS, GameState

from firmware.table.seat import symbols

from .live import Live
from .text import TEXT

#: CSS colours for the usual names of the pieces' colours; other names take one by their symbol.
PIECE_COLOURS = {
    "red": "#d7263d", "blue": "#1b6ef3", "green": "#1f9d55", "yellow": "#f4c20d", "white": "#f5f5f5",
    "black": "#222222", "orange": "#f77f00", "purple": "#8e44ad", "pink": "#ff6fb5", "brown": "#8d5a2b",
    "grey": "#8a8f98", "gray": "#8a8f98", "cyan": "#17becf", "teal": "#148f77",
}
FALLBACK = ("#d7263d", "#1b6ef3", "#1f9d55", "#f4c20d")
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


def seat_style(colours: tuple[str, ...], marks: tuple[int, ...] = ()) -> str:
    """CSS custom properties --p0..--p3, one per seat's colour (no stored text reaches the CSS)."""
    return ";".join(f"--p{i}:{colour_css(c, marks[i] if i < len(marks) else i)}" for i, c in enumerate(colours))


def board(state: GameState, moved: tuple[int, ...] = (), marks: tuple[int, ...] = ()) -> str:
    """The eleven columns, bottom square 1, with markers (each seat's symbol in ``marks``), runners and claims."""
    cols = []
    n = len(state.players)
    for c in range(2, 13):
        owner = state.claimed[c]
        cells = []
        for step in range(HEIGHTS[c], 0, -1):
            pieces = "".join(piece(i, marks, f' data-seat="{i}"') for i in range(n) if state.markers[i][c] == step)
            if state.runners[c] == step:
                pieces += '<span class="runner" title="runner">▲</span>'
            cells.append(f'<div class="sq" data-col="{c}" data-step="{step}">{pieces}</div>')
        attrs = f' data-owner="{owner}"' if owner >= 0 else ""
        classes = "col" + (f" claimed p{owner}" if owner >= 0 else "") + (" moved" if c in moved else "")
        cols.append(f'<div class="{classes}" data-col="{c}"{attrs}><div class="squares">{"".join(cells)}</div>'
                    f'<div class="num">{c}</div></div>')
    return f'<div class="board" role="img" aria-label="board">{"".join(cols)}</div>'


def players(live: Live, t: dict) -> str:
    current = live.state.current if live.state is not None and not live.state.is_over else None
    winner = live.state.winner if live.state is not None else None
    items = []
    for i, name in enumerate(live.names):
        classes = "player" + (" current" if i == current else "") + (" winner" if i == winner else "")
        claims = live.state.claims_of(i) if live.state is not None else ()
        claimed = f' <span class="claims">{e(t["claimed"])} {e(" ".join(map(str, claims)))}</span>' if claims else ""
        bot = " 🤖" if live.bots and live.bots[i] else ""
        items.append(f'<li class="{classes}" data-seat="{i}">{piece(i, live.marks)} '
                     f'<span class="name">{e(name)}</span>{bot}{claimed}</li>')
    return f'<ul class="players">{"".join(items)}</ul>'


def dice(live: Live, t: dict) -> str:
    if not live.dice:
        return ""
    faces = "".join(f'<span class="die">{d}</span>' for d in live.dice)
    opts = []
    for o in live.options:
        classes = "opt" + (" chosen" if o.chosen else "") + (" illegal" if o.effect == "none" else "")
        (a, b), (c, d) = o.pairs
        text = t["illegal"] if o.effect == "none" else o.text
        opts.append(f'<li class="{classes}" data-label="{e(o.label)}"><b>{e(o.label)}</b> '
                    f'<span class="pair">{a}+{b} · {c}+{d}</span> <span class="sums">→ {e(text)}</span>'
                    + (f' <span class="tag">{e(t["chosen"])}</span>' if o.chosen else "") + "</li>")
    return (f'<section class="dice"><h2>{e(t["dice"])}</h2><div class="faces">{faces}</div>'
            f'<ol class="options">{"".join(opts)}</ol></section>')


def status_line(live: Live, t: dict) -> str:
    box = {"on": t["box_on"], "off": t["box_off"], "quiet": t["box_quiet"]}.get(live.box, t["box_unknown"])
    parts = [f'<span class="badge box-{e(live.box)}" id="box">{e(box)}</span>']
    if live.status == "over":
        parts.append(f'<span class="badge over">{e(t["over"])}</span>')
    if live.status == "damaged":
        parts.append(f'<span class="badge damaged">{e(t["damaged"])}</span>')
    return f'<div class="status">{"".join(parts)}</div>'


def live_fragment(live: Live) -> str:
    """The part of the live page that changes: everything below the header."""
    t = TEXT[live.lang]
    if live.state is None and live.status == "damaged":  # a game whose players do not read: no board to draw
        return (f'<div id="game" data-status="damaged" data-box="{e(live.box)}" data-game="{live.game_id}">'
                f'{status_line(live, t)}<h1>{e(t["game"])} {live.game_id}</h1>'
                f'<p class="problem">{e(live.problem or "")}</p></div>')
    if live.state is None:
        text = t["no_store"] if live.problem else t["no_game"]
        return f'<div id="game" data-status="{e(live.status)}" data-box="{e(live.box)}">{status_line(live, t)}' \
               f'<p class="empty">{e(text)}</p></div>'
    g = live.state
    head = f'<h1>{e(t["game"])} {live.game_id}</h1>'
    bust = ""
    if live.bust is not None:
        from firmware.words import percent

        bust = f'<p class="bust">{e(t["bust"])}: <b>{e(percent(live.bust))}</b></p>'
    screen = ""
    if live.screen is not None:
        title, lines, keys = live.screen
        body = "".join(f"<li>{e(line)}</li>" for line in lines)
        screen = (f'<section class="screen"><h2>{e(t["screen"])}</h2><div class="oled"><p class="title">{e(title)}</p>'
                  f'<ul>{body}</ul><p class="keys">{e(keys)}</p></div></section>')
    last = f'<p class="last">{e(t["last"])}: {e(live.last)}</p>' if live.last else ""
    problem = f'<p class="problem">{e(live.problem)}</p>' if live.problem else ""
    recap = recap_table(live, t) if live.recap else ""
    return (f'<div id="game" data-status="{e(live.status)}" data-box="{e(live.box)}" data-game="{live.game_id}" '
            f'data-events="{live.events}" data-phase="{e(g.phase.value)}" data-current="{g.current}" '
            f'style="{seat_style(live.colours, live.marks)}">'
            f'<div class="play"><div class="top">{status_line(live, t)}{head}{problem}{players(live, t)}</div>'
            f'<div class="left">{board(g, live.moved, live.marks)}</div>'
            f'<div class="right">{screen}{dice(live, t)}{bust}{last}{recap}</div></div></div>')


def recap_table(live: Live, t: dict) -> str:
    rows = "".join(f'<tr><td>{piece(i, live.marks)} {e(live.names[i])}</td>'
                   f'<td>{int(s.get("turns", 0))}</td><td>{int(s.get("busts", 0))}</td><td>{int(s.get("best", 0))}</td></tr>'
                   for i, s in enumerate(live.recap) if i < len(live.names))
    return (f'<section class="recap"><h2>{e(t["recap"])}</h2><table><tr><th>{e(t["player"])}</th><th>{e(t["turns"])}</th>'
            f'<th>{e(t["busts"])}</th><th>{e(t["best"])}</th></tr>{rows}</table></section>')
