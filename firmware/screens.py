"""The renderer: one view (:mod:`firmware.views`) in, one 128x64 1-bit frame out.

``render(view)`` is pure: the same view always gives a pixel-identical image
(mode "1", lit pixel = 1), drawn only with the pinned Spleen bitmap fonts of
:mod:`hw.fonts` and plain shapes, so frames can be checked against golden PNGs.

Every game screen shares one frame:

- the *top bar* (rows 0..8): the player's seat symbol and colour name on the
  left, a short status on the right (``T5``, ``1 free``); an ``alert``
  replaces it, drawn inverted;
- the *body* (rows 11..54), with the key facts in the large or huge font;
- the *legend* (rows 56..63): ``view.keys`` in the small font, each button
  name in an inverted box (``ROLL:roll`` shows a boxed ROLL, then "roll").

Players are told apart by a drawn seat symbol (filled square, hollow square,
filled circle, cross: :func:`seat_symbol`), shown next to every colour name
and on the board. Text never runs off the screen: it is word-wrapped or cut
with ``..`` to fit; :func:`clipped_texts` reports any text that had to be cut,
so tests can check that sample views fit.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator

from PIL import Image, ImageDraw

from hw import fonts

from .views import (
    BoardView,
    DiceView,
    HintView,
    InstructionsView,
    MenuView,
    MessageView,
    MoveView,
    OffView,
    Option,
    PickView,
    SetupView,
    StatsView,
    TurnView,
    View,
    WinView,
)

WIDTH, HEIGHT = 128, 64
BODY_TOP = 11  # first body row, below the top bar and its rule
BODY_BOTTOM = 54  # last body row, above the legend
LEGEND_Y = 56

#: Seat index -> the symbol drawn for that seat.
SEAT_SYMBOLS = ("filled square", "hollow square", "filled circle", "cross")

CELLS = fonts.CELLS

# --------------------------------------------------------------------------
# text helpers

_clip_log: list[str] | None = None


@contextlib.contextmanager
def clipped_texts() -> Iterator[list[str]]:
    """Collect every text the renderer had to cut to fit (for tests and the gallery)."""
    global _clip_log
    saved, _clip_log = _clip_log, []
    try:
        yield _clip_log
    finally:
        _clip_log = saved


def _note_clip(text: str) -> None:
    if _clip_log is not None:
        _clip_log.append(text)


@functools.cache
def _font(name: str):
    return fonts.load(name)


def width_of(text: str, font: str) -> int:
    """Width in pixels of ``text`` in a fixed-cell font."""
    return len(text) * CELLS[font][0]


def max_chars(width: int, font: str) -> int:
    """How many characters of ``font`` fit in ``width`` pixels."""
    return max(0, width // CELLS[font][0])


def fit(text: str, width: int, font: str) -> str:
    """``text`` cut (ending in ``..``) so it fits ``width`` pixels; a cut is noted."""
    n = max_chars(width, font)
    if len(text) <= n:
        return text
    _note_clip(text)
    return text[: max(0, n - 2)].rstrip() + ".." if n >= 3 else text[:n]


def wrap(text: str, width: int, font: str) -> list[str]:
    """Word-wrap ``text`` into lines that fit ``width``; a word too long for a line is split."""
    n = max(1, max_chars(width, font))
    lines: list[str] = []
    line = ""
    for word in text.split():
        while len(word) > n:
            if line:
                lines.append(line)
                line = ""
            lines.append(word[:n])
            word = word[n:]
        if not line:
            line = word
        elif len(line) + 1 + len(word) <= n:
            line += " " + word
        else:
            lines.append(line)
            line = word
    if line or not lines:
        lines.append(line)
    return lines


def wrap_all(lines: tuple[str, ...] | list[str], width: int, font: str) -> list[str]:
    """Each line word-wrapped, in order."""
    out: list[str] = []
    for line in lines:
        out.extend(wrap(line, width, font))
    return out


def _text(draw: ImageDraw.ImageDraw, xy: tuple[int, int], text: str, font: str, fill: int = 1,
          width: int | None = None) -> None:
    """Draw ``text`` at ``xy``, cut to ``width`` (default: to the right edge)."""
    x, y = xy
    if width is None:
        width = WIDTH - x
    draw.text((x, y), fit(text, width, font), font=_font(font), fill=fill)


def _center(draw, y: int, text: str, font: str, fill: int = 1, x0: int = 0, x1: int = WIDTH) -> None:
    text = fit(text, x1 - x0, font)
    x = x0 + (x1 - x0 - width_of(text, font)) // 2
    draw.text((x, y), text, font=_font(font), fill=fill)


def _lines_at(draw, y: int, lines: list[str], font: str, pitch: int, x: int = 0, fill: int = 1) -> int:
    for line in lines:
        _text(draw, (x, y), line, font, fill)
        y += pitch
    return y


#: Vertical space a line of each font needs (ink rows, without the empty cell margins).
PITCH = {"small": 8, "medium": 11, "large": 14, "huge": 20}
#: Offset from a cell's top to its first inked row.
INK_TOP = {"small": 0, "medium": 1, "large": 2, "huge": 4}

# --------------------------------------------------------------------------
# seat symbols


def seat_symbol(seat: int | None) -> str:
    """The name of the symbol drawn for ``seat`` (0..3): "filled square", "hollow square", ..."""
    if seat is None:
        return ""
    return SEAT_SYMBOLS[seat % len(SEAT_SYMBOLS)]


def draw_seat(draw: ImageDraw.ImageDraw, x: int, y: int, seat: int | None, size: int = 7, fill: int = 1) -> None:
    """Draw ``seat``'s symbol in the ``size`` x ``size`` square whose top left is (x, y)."""
    if seat is None:
        return
    kind = seat % len(SEAT_SYMBOLS)
    x1, y1 = x + size - 1, y + size - 1
    if kind == 0:
        draw.rectangle((x, y, x1, y1), fill=fill)
    elif kind == 1:
        draw.rectangle((x, y, x1, y1), outline=fill)
    elif kind == 2:
        if size <= 3:
            draw.point([(x + 1, y), (x, y + 1), (x + 1, y + 1), (x + 2, y + 1), (x + 1, y + 2)], fill=fill)
        else:
            draw.ellipse((x, y, x1, y1), fill=fill)
    else:
        draw.line((x, y, x1, y1), fill=fill)
        draw.line((x, y1, x1, y), fill=fill)
        if size >= 7:  # a bolder cross reads better at arm's length
            draw.line((x + 1, y, x1, y1 - 1), fill=fill)
            draw.line((x, y + 1, x1 - 1, y1), fill=fill)
            draw.line((x + 1, y1, x1, y + 1), fill=fill)
            draw.line((x, y1 - 1, x1 - 1, y), fill=fill)


def _who(player: str | None, bot: bool = False) -> str:
    if player is None:
        return ""
    return f"{player} (bot)" if bot else player


# --------------------------------------------------------------------------
# the shared frame: top bar and legend


def _top_bar(draw, left: str, right: str = "", seat: int | None = None, alert: str | None = None,
             reserve: int = 0) -> None:
    """Symbol + name (or a title) on the left, a short status on the right, a rule below.

    ``reserve`` keeps that many pixels free left of the status for the caller to draw in.
    """
    if alert:
        draw.rectangle((0, 0, WIDTH - 1, 9), fill=1)
        _text(draw, (2, 1), "! " + alert, "small", fill=0, width=WIDTH - 4)
        return
    x = 0
    if seat is not None:
        draw_seat(draw, 0, 1, seat, 7)
        x = 10
    right = fit(right, WIDTH // 2, "small")
    rw = width_of(right, "small")
    if right:
        draw.text((WIDTH - rw + 1, 0), right, font=_font("small"), fill=1)
    _text(draw, (x, 0), left, "small", width=WIDTH - x - rw - reserve - 4)
    draw.line((0, 9, WIDTH - 1, 9), fill=1)


def _legend_tokens(keys: str) -> list[tuple[str, str]]:
    """``"A B C:choose ROLL:ok"`` -> [("A", ""), ("B", ""), ("C", "choose"), ("ROLL", "ok")]."""
    out = []
    for token in keys.split():
        if ":" in token:
            key, label = token.split(":", 1)
            out.append((key, label))
        elif token.upper() == token and any(c.isalpha() for c in token):
            out.append((token, ""))
        else:
            out.append(("", token))
    return out


def _legend(draw, keys: str) -> None:
    """The bottom line: each button name boxed and inverted, followed by what it does now."""
    tokens = _legend_tokens(keys)
    y = LEGEND_Y

    def token_width(key: str, label: str) -> int:
        w = 0
        if key:
            w += width_of(key, "small") + 1
        if label:
            w += (2 if key else 0) + width_of(label, "small") - 1
        return w

    widths = [token_width(k, lab) for k, lab in tokens]
    for gap in (5, 4, 3, 2):
        total = sum(widths) + gap * max(0, len(tokens) - 1)
        if total <= WIDTH:
            break
    x = 0
    for (key, label), w in zip(tokens, widths):
        if x >= WIDTH:
            _note_clip(keys)
            break
        if key:
            key = fit(key, WIDTH - x - 1, "small")
            kw = width_of(key, "small")
            draw.rectangle((x, y, x + kw, y + 7), fill=1)
            draw.text((x + 1, y), key, font=_font("small"), fill=0)
            x += kw + 1
        if label:
            x += 2 if key else 0
            text = fit(label, WIDTH - x + 1, "small")
            draw.text((x, y), text, font=_font("small"), fill=1)
            x += width_of(text, "small") - 1
        x += gap


def _frame(size: tuple[int, int]) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("1", size, 0)
    return image, ImageDraw.Draw(image)


# --------------------------------------------------------------------------
# render


def render(view: View, size: tuple[int, int] = (WIDTH, HEIGHT)) -> Image.Image:
    """The frame for ``view``: a mode "1" image of ``size`` (lit pixel = 1, drawn for 128x64)."""
    try:
        painter = _PAINTERS[type(view)]
    except KeyError:
        raise TypeError(f"no screen for {type(view).__name__}") from None
    image, draw = _frame((WIDTH, HEIGHT))
    painter(draw, view)
    if size != (WIDTH, HEIGHT):
        canvas = Image.new("1", size, 0)
        canvas.paste(image, (0, 0))
        image = canvas
    return image


# ---- turn ----------------------------------------------------------------


def _claim_tags(draw, columns: tuple[int, ...], x_right: int, y: int, font: str = "small") -> int:
    """Claimed columns as inverted number tags ending at ``x_right``; returns the left edge."""
    cw, ch = CELLS[font]
    x = x_right
    for column in reversed(columns):
        text = str(column)
        w = width_of(text, font) + 1
        x -= w
        draw.rectangle((x, y, x + w - 1, y + ch - 1), fill=1)
        draw.text((x + 1, y), text, font=_font(font), fill=0)
        x -= 2
    return x


def _turn(draw, v: TurnView) -> None:
    who = _who(v.player, v.bot)
    status = f"turn {v.turn}"
    tags_w = sum(width_of(str(c), "small") + 3 for c in v.claims)
    if tags_w + width_of(status, "small") + width_of(who, "small") + 14 > WIDTH:
        status = f"T{v.turn}"
    _top_bar(draw, who, status, v.seat, v.alert, reserve=tags_w + 2)
    if v.claims and not v.alert:
        # claimed columns as inverted tags just left of the status
        _claim_tags(draw, v.claims, WIDTH - width_of(status, "small") - 3, 0)
    heading = f"{v.player} (bot)" if v.bot else f"{v.player}'s turn"
    space = BODY_BOTTOM - BODY_TOP + 1
    layout = None
    for head_font, note_font in (("large", "medium"), ("large", "small"), ("medium", "small")):
        notes = wrap_all(v.note, WIDTH, note_font)
        need = PITCH[head_font] + 1 + len(notes) * PITCH[note_font]
        if need <= space and width_of(heading, head_font) <= WIDTH:
            layout = head_font, note_font, notes
            break
    if layout is None:
        head_font, note_font = "medium", "small"
        notes = wrap_all(v.note, WIDTH, note_font)
        keep = (space - PITCH[head_font] - 1) // PITCH[note_font]
        if len(notes) > keep:
            _note_clip(" / ".join(v.note))
            notes = notes[:keep]
        layout = head_font, note_font, notes
    head_font, note_font, notes = layout
    _center(draw, BODY_TOP - INK_TOP[head_font], heading, head_font)
    y = BODY_TOP + PITCH[head_font] + 1
    _lines_at(draw, y - INK_TOP[note_font], notes, note_font, PITCH[note_font])
    _legend(draw, v.keys)


# ---- dice ----------------------------------------------------------------


def _die(draw, cx: int, y: int, value: int) -> None:
    """One die: a large digit in a rounded box 18 wide, 15 tall, centred on ``cx``."""
    draw.rounded_rectangle((cx - 9, y, cx + 8, y + 14), radius=3, outline=1)
    draw.text((cx - 4, y + 1), str(value), font=_font("large"), fill=1)


def option_sums_text(option: Option, chosen: str | None = None) -> str:
    """What the option moves, for the big line of its cell: "5+9", "7x2", "7", "2/11", "--"."""
    a, b = option.sums
    if chosen and ":" in chosen and chosen.split(":", 1)[0] == option.label:
        return chosen.split(":", 1)[1]
    if option.effect == "both":
        return f"{a}x2" if a == b else f"{a}+{b}"
    if option.effect == "first":
        return str(a)
    if option.effect == "second":
        return str(b)
    if option.effect == "pick":
        return f"{a}/{b}"
    return "--"


CELL_X = (0, 43, 86)  # left edge of each pairing's cell (42 wide)


def _dice(draw, v: DiceView) -> None:
    chosen_label = v.chosen.split(":", 1)[0] if v.chosen else None
    status = f"box: {chosen_label}" if v.bot and chosen_label else ("box plays" if v.bot else "choose")
    _top_bar(draw, _who(v.player, v.bot), status, v.seat, v.alert)
    for i, value in enumerate(v.dice):
        _die(draw, 16 + 32 * i, BODY_TOP, value)
    y = 27  # label row; sums below it, then the dice as paired
    for i, option in enumerate(v.options):
        x0 = CELL_X[i]
        on = option.label == chosen_label
        fg = 0 if on else 1
        if on:
            draw.rectangle((x0, y - 1, x0 + 41, BODY_BOTTOM), fill=1)
        # the label: a filled tab when the pairing is legal, hollow when not
        tab = (x0 + 15, y, x0 + 26, y + 8)
        if option.effect != "none":
            draw.rectangle(tab, fill=fg)
            draw.text((x0 + 19, y + 1), option.label, font=_font("small"), fill=1 - fg)
        else:
            draw.rectangle(tab, outline=fg)
            draw.text((x0 + 19, y + 1), option.label, font=_font("small"), fill=fg)
        big = option_sums_text(option, v.chosen)
        _center(draw, y + 10 - INK_TOP["large"], big, "large", fill=fg, x0=x0, x1=x0 + 42)
        (p, q), (r, s) = option.pairs
        _center(draw, y + 20, f"{p}+{q} {r}+{s}", "small", fill=fg, x0=x0, x1=x0 + 42)
    _legend(draw, v.keys)


# ---- pick ----------------------------------------------------------------


def _pick(draw, v: PickView) -> None:
    _top_bar(draw, v.player, " ".join(map(str, v.dice)), v.seat, v.alert)
    _center(draw, BODY_TOP - 1, f"{v.label} moves one: which?", "medium")
    for i, (key, column) in enumerate(zip("AB", v.choices)):
        x0 = 2 + i * 64
        box = (x0, 25, x0 + 59, BODY_BOTTOM)
        draw.rounded_rectangle(box, radius=4, outline=1)
        draw.rounded_rectangle((x0 + 5, 32, x0 + 18, 47), radius=2, fill=1)
        draw.text((x0 + 8, 31), key, font=_font("large"), fill=0)
        _center(draw, 25 + 4 - INK_TOP["huge"] + 4, str(column), "huge", x0=x0 + 16, x1=x0 + 60)
    _legend(draw, v.keys)


# ---- move ----------------------------------------------------------------


def step_text(step) -> str:
    """The physical instruction for one runner, without its column: "new runner on 1"."""
    if step.skipped:  # speedy: say which squares it jumped, or the box looks wrong
        verb = "new on" if step.new else "up to"
        return f"{verb} {step.step} past {_ranges(step.skipped)}"
    if step.top:
        return f"new on {step.step}: TOP!" if step.new else f"up to {step.step}: TOP!"
    return f"new runner on {step.step}" if step.new else f"runner up to {step.step}"


def _ranges(squares) -> str:
    """(4, 5, 6, 9) -> "4-6 9": runs of squares in few characters."""
    out, run = [], [squares[0]]
    for sq in squares[1:]:
        if sq == run[-1] + 1:
            run.append(sq)
        else:
            out.append(run)
            run = [sq]
    out.append(run)
    return " ".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else f"{r[0]}" for r in out)


def percent(p: float) -> str:
    """An exact chance as a short percentage: "23.9%", never "0.0%" for a chance above zero."""
    if p <= 0:
        return "0%"
    if p >= 1:
        return "100%"
    if p < 0.001:
        return "<0.1%"
    if p > 0.999:
        return ">99.9%"
    return f"{p * 100:.1f}%"


def _column_tag(draw, x: int, y: int, column: int, fill: int = 1) -> None:
    """A column number in the large font, inverted in a 20 x 12 box."""
    draw.rounded_rectangle((x, y, x + 19, y + 11), radius=2, fill=fill)
    text = str(column)
    draw.text((x + (20 - width_of(text, "large")) // 2, y - 1), text, font=_font("large"), fill=1 - fill)


def _move(draw, v: MoveView) -> None:
    status = f"{v.free_runners} free" if v.can_stop or not v.stop_note else "can't stop"
    _top_bar(draw, _who(v.player, v.bot), status, v.seat, v.alert)
    for i, step in enumerate(v.steps[:2]):
        y = BODY_TOP + i * 14
        _column_tag(draw, 0, y, step.column)
        _text(draw, (24, y), step_text(step), "medium")
    if len(v.steps) > 2:
        _note_clip(repr(v.steps))
    chance = percent(v.bust)
    # the chance in the huge font; the large one when a stop note needs the room
    for font in ("huge", "large"):
        x = width_of(chance, font) + 4
        room = WIDTH - x
        if v.stop_note and not v.can_stop:
            lines = ["can't stop:", *wrap(v.stop_note, room, "small")]
            if len(lines) > 2:
                lines = wrap(v.stop_note, room, "small")
        elif v.bot and v.bot_next:
            lines = ["box will", v.bot_next.upper()]
        else:
            lines = ["bust if you", "roll again"]
        if len(lines) <= 2:
            break
    if len(lines) > 2:
        _note_clip(" ".join(lines))
        lines = lines[:2]
    if font == "huge":
        draw.text((0, BODY_BOTTOM - 18 - INK_TOP["huge"] + 1), chance, font=_font("huge"), fill=1)
    else:
        draw.text((0, BODY_BOTTOM - 13 - INK_TOP["large"] + 1), chance, font=_font("large"), fill=1)
    _lines_at(draw, BODY_BOTTOM - 15, lines, "small", 8, x=x)
    _legend(draw, v.keys)


# ---- win -----------------------------------------------------------------


def _win(draw, v: WinView) -> None:
    if v.player is None:
        _top_bar(draw, "Game over", f"{v.turns} turns", None, v.alert)
        heading = "GAME OVER"
    else:
        _top_bar(draw, v.player, f"{v.turns} turns", v.seat, v.alert)
        heading = f"{v.player.upper()} WINS!"
    claims = "claimed " + " ".join(map(str, v.claims)) if v.claims else "nobody claimed 3"
    if v.player is None and not v.claims:
        claims = f"after {v.turns} turns"
    space = BODY_BOTTOM - BODY_TOP + 1
    chosen = None
    for head_font, note_font in (("huge", "small"), ("large", "medium"), ("large", "small"), ("medium", "small")):
        if width_of(heading, head_font) > WIDTH:
            continue
        notes = wrap_all(v.note, WIDTH, note_font)
        need = PITCH[head_font] + 1 + PITCH["medium"] + 1 + len(notes) * PITCH[note_font]
        if need <= space:
            chosen = head_font, note_font, notes
            break
    if chosen is None:
        head_font, note_font = "medium", "small"
        notes = wrap_all(v.note, WIDTH, note_font)
        keep = max(0, (space - PITCH[head_font] - PITCH["medium"] - 2) // PITCH[note_font])
        if len(notes) > keep:
            _note_clip(" / ".join(v.note))
        chosen = head_font, note_font, notes[:keep]
    head_font, note_font, notes = chosen
    y = BODY_TOP
    _center(draw, y - INK_TOP[head_font], heading, head_font)
    y += PITCH[head_font] + 1
    _center(draw, y - INK_TOP["medium"], claims, "medium")
    y += PITCH["medium"] + 1
    _lines_at(draw, y - INK_TOP[note_font], notes, note_font, PITCH[note_font])
    _legend(draw, v.keys)


# ---- instructions ----------------------------------------------------------


def _instructions(draw, v: InstructionsView) -> None:
    """Physical steps: a title bar, an optional large line, then up to four medium lines."""
    status = f"{v.page}/{v.pages}" if v.pages > 1 else ""
    _top_bar(draw, v.title, status, v.seat, v.alert)
    y = BODY_TOP
    if v.big:
        draw.rectangle((0, y, WIDTH - 1, y + PITCH["large"]), fill=1)
        _center(draw, y + 1 - INK_TOP["large"], fit(v.big, WIDTH - 2, "large"), "large", fill=0)
        y += PITCH["large"] + 3
    keep = (BODY_BOTTOM + 1 - y) // PITCH["medium"]
    lines = list(v.lines)
    if len(lines) > keep or any(width_of(line, "medium") > WIDTH for line in lines):
        _note_clip(" / ".join(v.lines))
    _lines_at(draw, y - INK_TOP["medium"], [fit(line, WIDTH, "medium") for line in lines[:keep]], "medium",
              PITCH["medium"])
    _legend(draw, v.keys)


# ---- board ---------------------------------------------------------------

BOARD_TOP = 11  # top row of the tallest column
BOARD_BOTTOM = 46  # bottom row of every column
BOARD_PITCH = 11  # pixels per column slot
BOARD_LEFT = 4


def _square_rows(height: int, step: int) -> tuple[int, int]:
    """Top and bottom rows of square ``step`` (1 = bottom) in a column: the tallest spans the whole board."""
    span = BOARD_BOTTOM - BOARD_TOP + 1
    bottom = BOARD_BOTTOM - ((step - 1) * span) // 13
    top = BOARD_BOTTOM - (step * span) // 13 + 1
    return top, bottom


def _board(draw, v: BoardView) -> None:
    if v.focus is not None:
        _column_page(draw, v)
        return
    if v.current is not None and v.current < len(v.players):
        _top_bar(draw, v.players[v.current], "board", v.current, v.alert)
    else:
        _top_bar(draw, "Board", "game over", None, v.alert)
    for i, col in enumerate(v.columns[:11]):
        x0 = BOARD_LEFT + i * BOARD_PITCH
        x1 = x0 + 8
        top, _ = _square_rows(col.height, col.height)
        if col.owner is not None:
            draw.rectangle((x0, top - 1, x1, BOARD_BOTTOM + 1), fill=1)
            draw_seat(draw, x0 + 1, top + 1, col.owner, 7, fill=0)
        else:
            draw.rectangle((x0, top - 1, x1, BOARD_BOTTOM + 1), outline=1)
            # a tick on each square boundary, on both edges
            for s in range(1, col.height):
                t, _ = _square_rows(col.height, s)
                draw.point([(x0 + 1, t - 1), (x1 - 1, t - 1)], fill=1)
            pieces = [(seat, step) for seat, step in enumerate(col.markers) if step]
            lanes = (x0 + 1, x0 + 5, x0 + 3)
            for n, (seat, step) in enumerate(pieces):
                t, b = _square_rows(col.height, step)
                y = b - 2
                draw_seat(draw, lanes[n % 3], y, seat, 3)
            if col.runner:
                t, b = _square_rows(col.height, col.runner)
                draw.rectangle((x0 - 1, b - 2, x1 + 1, b), outline=1)
                draw.line((x0, b - 1, x1, b - 1), fill=0)
        label = str(col.column)
        lx = x0 + (9 - width_of(label, "small")) // 2 + 1
        draw.text((lx, BOARD_BOTTOM + 2 + (i % 2) * 0), label, font=_font("small"), fill=1)
    _legend(draw, v.keys)


def _column_page(draw, v: BoardView) -> None:
    """One column in words: who has a marker where, the runner, or who claimed it."""
    col = next((c for c in v.columns if c.column == v.focus), None)
    height = f"({col.height})" if col else ""
    _top_bar(draw, f"Column {v.focus} {height}", "board", None, v.alert)
    if col is None:
        _center(draw, 24, f"no column {v.focus}", "medium")
        _legend(draw, v.keys)
        return
    rows: list[tuple[int | None, str]] = []
    if col.owner is not None:
        owner = v.players[col.owner] if col.owner < len(v.players) else f"P{col.owner + 1}"
        rows.append((col.owner, f"claimed by {owner}"))
    else:
        for seat, step in enumerate(col.markers):
            if step and seat < len(v.players):
                rows.append((seat, f"{v.players[seat]} {step}"))
        if col.runner:
            rows.append((-1, f"runner {col.runner}"))
        if not rows:
            rows.append((None, "no pieces"))
    text_w = TRACK_X - 3
    font = "medium"
    if len(rows) * ROW_PITCH > BODY_BOTTOM + 1 - BODY_TOP or any(
        width_of(t, "medium") > text_w - 10 for _, t in rows
    ):
        font = "small"
    pitch = ROW_PITCH if font == "medium" else 9
    if len(rows) * pitch > BODY_BOTTOM + 1 - BODY_TOP:
        pitch = 8
    keep = (BODY_BOTTOM + 1 - BODY_TOP) // pitch
    if len(rows) > keep:
        _note_clip(repr(rows))
        rows = rows[:keep]
    y = BODY_TOP
    size = 7 if font == "medium" else 6
    for seat, text in rows:
        top = y + (1 if font == "medium" else 0)
        if seat == -1:
            _runner_mark(draw, 0, top + size // 2 - 1, size)
        else:
            draw_seat(draw, 0, top, seat, size)
        _text(draw, (size + 3, y - INK_TOP[font]), text, font, width=text_w - size - 3)
        y += pitch
    _column_track(draw, col, TRACK_X)
    _legend(draw, v.keys)


TRACK_X = 98  # left edge of the drawn column on a column page


def _runner_mark(draw, x: int, y: int, width: int) -> None:
    """The runner: a hollow bar (as it looks on the board overview)."""
    draw.rectangle((x, y, x + width - 1, y + 2), outline=1)


def _column_track(draw, col, x0: int) -> None:
    """The focused column drawn tall on the right: squares as ticks, pieces by seat symbol."""
    n = col.height
    pitch = min(5, (BODY_BOTTOM - BODY_TOP) // max(1, n))
    bottom = BODY_BOTTOM
    x1 = WIDTH - 4
    top = bottom - n * pitch
    if col.owner is not None:
        draw.rectangle((x0, top, x1, bottom), fill=1)
        draw_seat(draw, (x0 + x1) // 2 - 3, top + 2, col.owner, 7, fill=0)
        return
    draw.rectangle((x0, top, x1, bottom), outline=1)
    for s in range(1, n):
        y = bottom - s * pitch
        draw.point([(x0 + 1, y), (x1 - 1, y)], fill=1)
    for seat, step in enumerate(col.markers):
        if step:
            y = bottom - step * pitch + (pitch - 3) // 2 + 1
            draw_seat(draw, x0 + 3 + 6 * (seat % 4), y, seat, 3)
    if col.runner:
        y = bottom - col.runner * pitch
        draw.rectangle((x0 - 3, y, x1 + 3, y + pitch), outline=1)
        draw.line((x0, y, x1, y), fill=1)
        draw.line((x0, y + pitch, x1, y + pitch), fill=1)


# ---- lists ---------------------------------------------------------------


def _scroll_marks(draw, first: int, shown: int, total: int) -> None:
    """Small triangles at the right edge when rows are hidden above or below."""
    if first > 0:
        draw.polygon([(124, BODY_TOP), (127, BODY_TOP + 3), (121, BODY_TOP + 3)], fill=1)
    if first + shown < total:
        draw.polygon([(121, BODY_BOTTOM - 3), (127, BODY_BOTTOM - 3), (124, BODY_BOTTOM)], fill=1)


def _window(cursor: int, total: int, shown: int) -> int:
    """The first row shown so that the cursor row is visible."""
    if total <= shown:
        return 0
    return min(max(0, cursor - shown + 2), total - shown) if cursor >= shown - 1 else 0


ROWS_SHOWN = 4
ROW_PITCH = 11


def _rows(draw, rows: list[tuple[str, str]], cursor: int) -> None:
    first = _window(cursor, len(rows), ROWS_SHOWN)
    shown = rows[first:first + ROWS_SHOWN]
    scroll = len(rows) > ROWS_SHOWN
    right_edge = WIDTH - (8 if scroll else 0)
    for i, (label, value) in enumerate(shown):
        index = first + i
        y = BODY_TOP + i * ROW_PITCH
        on = index == cursor
        if on:
            draw.rectangle((0, y - 1, right_edge - 2, y + ROW_PITCH - 2), fill=1)
        fg = 0 if on else 1
        vw = width_of(value, "medium")
        avail = right_edge - 4
        if value:
            value = fit(value, avail // 2, "medium")
            vw = width_of(value, "medium")
            draw.text((right_edge - 3 - vw, y - 1), value, font=_font("medium"), fill=fg)
        _text(draw, (2, y - 1), label, "medium", fill=fg, width=avail - vw - (6 if value else 0))
    if scroll:
        _scroll_marks(draw, first, len(shown), len(rows))


def _menu(draw, v: MenuView) -> None:
    total = len(v.items)
    _top_bar(draw, v.title, f"{v.cursor + 1}/{total}" if total else "", None, v.alert)
    _rows(draw, [(item, "") for item in v.items], v.cursor)
    _legend(draw, v.keys)


def _setup(draw, v: SetupView) -> None:
    total = len(v.rows)
    _top_bar(draw, v.title, f"{v.cursor + 1}/{total}" if total else "", None, v.alert)
    _rows(draw, [(label, value) for label, value in v.rows], v.cursor)
    _legend(draw, v.keys)


# ---- text screens --------------------------------------------------------


def _body_lines(draw, lines: tuple[str, ...], top: int = BODY_TOP) -> None:
    """Lines word-wrapped to the width, in the medium font when they fit, else the small one."""
    space = BODY_BOTTOM + 1 - top
    for font in ("medium", "small"):
        wrapped = wrap_all(lines, WIDTH, font)
        if len(wrapped) * PITCH[font] <= space:
            break
    keep = space // PITCH[font]
    if len(wrapped) > keep:
        _note_clip(" / ".join(lines))
        wrapped = wrapped[:keep]
    _lines_at(draw, top - INK_TOP[font], wrapped, font, PITCH[font])


def _message(draw, v: MessageView) -> None:
    _top_bar(draw, v.title, "", None, v.alert)
    _body_lines(draw, v.lines)
    _legend(draw, v.keys)


def _hint(draw, v: HintView) -> None:
    status = f"bust {percent(v.bust)}" if v.bust is not None else "hint"
    _top_bar(draw, v.player, status, v.seat, v.alert)
    font = "large" if width_of(v.action, "large") <= WIDTH else "medium"
    _center(draw, BODY_TOP - INK_TOP[font], v.action, font)
    _body_lines(draw, v.reason, BODY_TOP + PITCH[font] + 3)
    _legend(draw, v.keys)


def _stats(draw, v: StatsView) -> None:
    _top_bar(draw, "Wins", f"{v.games} game" + ("" if v.games == 1 else "s"), None, v.alert)
    if not v.rows:
        _center(draw, BODY_TOP + 8, "No games yet", "medium")
        _legend(draw, v.keys)
        return
    rows = list(v.rows)
    font = "medium" if len(rows) <= 4 else "small"
    pitch = ROW_PITCH if font == "medium" else 8
    keep = (BODY_BOTTOM + 1 - BODY_TOP) // pitch
    if len(rows) > keep:
        _note_clip(repr(rows))
        rows = rows[:keep]
    most = max((wins for _, wins in rows), default=0) or 1
    name_w = min(9, max(len(name) for name, _ in rows)) * CELLS[font][0]
    for i, (name, wins) in enumerate(rows):
        y = BODY_TOP + i * pitch
        count = str(wins)
        cw = width_of(count, font)
        _text(draw, (0, y - INK_TOP[font]), name, font, width=name_w)
        draw.text((WIDTH - cw, y - INK_TOP[font]), count, font=_font(font), fill=1)
        bar_x0 = name_w + 4
        bar_len = (WIDTH - cw - 4 - bar_x0) * wins // most
        if bar_len > 0:
            draw.rectangle((bar_x0, y + 1, bar_x0 + bar_len - 1, y + pitch - 4), fill=1)
    _legend(draw, v.keys)


def _off(draw, v: OffView) -> None:
    draw.rectangle((0, 0, WIDTH - 1, HEIGHT - 1), outline=1)
    _center(draw, 10 - INK_TOP["large"], "Safe to", "large")
    _center(draw, 25 - INK_TOP["large"], "unplug", "large")
    lines = wrap(v.reason, WIDTH - 4, "medium")
    if len(lines) > 2:
        _note_clip(v.reason)
        lines = lines[:2]
    y = 42 if len(lines) == 1 else 39
    for line in lines:
        _center(draw, y - INK_TOP["medium"], line, "medium")
        y += PITCH["medium"]


_PAINTERS = {
    TurnView: _turn,
    InstructionsView: _instructions,
    DiceView: _dice,
    PickView: _pick,
    MoveView: _move,
    WinView: _win,
    BoardView: _board,
    MenuView: _menu,
    SetupView: _setup,
    MessageView: _message,
    HintView: _hint,
    StatsView: _stats,
    OffView: _off,
}
