"""The renderer: one view (:mod:`firmware.views`) in, one frame for the screen's size out.

``render(view)`` is pure: the same view always gives a pixel-identical image
(mode "1", lit pixel = 1; on the 256x64 grey layout mode "L", lit = 255),
drawn only with the pinned bitmap fonts of :mod:`hw.fonts` (Spleen, and Galmuri through :mod:`hw.glyphs`) and plain shapes, so frames can be checked against golden PNGs.
Text never runs off the screen: it is word-wrapped or cut with ``..`` to fit.
``render_checked(view)`` gives the frame together with every text that had to
be cut, so tests can check that sample views fit; ``render_traced(view)`` every
page with the cuts and every text drawn (where, in which font), so a test can
find texts that run off a page or into each other; nothing is kept between calls.
Each size the box has screens for is a :class:`~.kit.Layout` in ``LAYOUTS``
with its painters (``PAINTERS_FOR``); a frame may be several pages where a
small screen shows a long view in turns (``render_pages``).

The package, file by file:

- ``kit``: the frame's geometry, font metrics, text fitting, the per-frame canvas;
- ``icons``: seat symbols, a die, number tags, the runner, scroll marks;
- ``frame``: the top bar and the legend every screen shares;
- ``game``: the turn, dice, pick and move screens;
- ``handover``: what to do on the board after a stop, bust or undo, and the win;
- ``board``: the board overview and one column in words;
- ``lists``: setup, menu and statistics;
- ``messages``: a message, a hint, the safe-to-unplug frame;
- ``people``: one person's statistics, a finished game's recap;
- ``phone``: pairing a phone, its QR code beside the code.
- ``small``: the same families of screens for the 128x32 layout, and its pages;
- ``wide``: the 256x64 layout: these painters, but a turn in play beside a compact board.
"""

from __future__ import annotations

from typing import NamedTuple

from PIL import Image

from ..views import View
from . import board, game, handover, lists, messages, people, phone
from .families import painters
from .icons import SEAT_SYMBOLS, draw_seat, seat_symbol
from .kit import HEIGHT, STANDARD, WIDTH, Canvas, Drawn, Layout, fit, width_of, wrap

__all__ = [
    "HEIGHT", "LAYOUTS", "PAINTERS", "PAINTERS_FOR", "SEAT_SYMBOLS", "STANDARD", "WIDTH", "Drawn", "Frame", "Layout",
    "Traced", "draw_seat", "fit", "layout_for", "render", "render_checked", "render_pages", "render_traced", "seat_symbol",
    "width_of", "wrap",
]

#: View type -> the function that paints it on a canvas.
PAINTERS = painters({"game": game, "handover": handover, "board": board, "lists": lists, "people": people,
                     "messages": messages, "phone": phone})


#: Every size the box has screens for, by (width, height).
LAYOUTS: dict[tuple[int, int], Layout] = {STANDARD.size: STANDARD}

#: A layout's size -> its painters (view type -> function).
PAINTERS_FOR: dict[tuple[int, int], dict] = {STANDARD.size: PAINTERS}


class Frame(NamedTuple):
    """A rendered frame (its first page) and the texts of its view that were cut (or dropped) to fit."""

    image: Image.Image
    cuts: tuple[str, ...]


class Traced(NamedTuple):
    """Every page of a frame, the texts of its view cut (or dropped) to fit, and every text drawn on its pages."""

    pages: tuple[Image.Image, ...]
    cuts: tuple[str, ...]
    texts: tuple[Drawn, ...]


def layout_for(size: tuple[int, int]) -> Layout:
    """The layout the renderer paints ``size`` with: its own, or 128x64 for a size without one."""
    return LAYOUTS.get(tuple(size), STANDARD)


def _paint(view: View, size: tuple[int, int]) -> Canvas:
    """The canvas ``view`` was painted on, in the layout of ``size`` (or 128x64 for a size without one)."""
    layout = layout_for(size)
    try:
        painter = PAINTERS_FOR[layout.size][type(view)]
    except KeyError:
        raise TypeError(f"no screen for {type(view).__name__}") from None
    canvas = Canvas(layout, view.lang)
    painter(canvas, view)
    return canvas


def _fitted(image: Image.Image, size: tuple[int, int]) -> Image.Image:
    """``image`` as it is, or, for a size without its own layout, top-left on a dark frame of ``size``."""
    if image.size == size:
        return image
    out = Image.new(image.mode, size, 0)
    out.paste(image, (0, 0))
    return out


def render_checked(view: View, size: tuple[int, int] = (WIDTH, HEIGHT)) -> Frame:
    """The frame for ``view`` (its first page, an image of ``size``) and what was cut."""
    canvas = _paint(view, size)
    return Frame(_fitted(canvas.pages[0], size), tuple(canvas.cuts))


def render_pages(view: View, size: tuple[int, int] = (WIDTH, HEIGHT)) -> tuple[Image.Image, ...]:
    """Every page of the frame for ``view``: one, unless a small screen shows it in turns."""
    canvas = _paint(view, size)
    return tuple(_fitted(page, size) for page in canvas.pages)


def render_traced(view: View, size: tuple[int, int] = (WIDTH, HEIGHT)) -> Traced:
    """The pages of the frame for ``view`` (as painted, in its layout's size), what was cut, and every text drawn."""
    canvas = _paint(view, size)
    return Traced(tuple(canvas.pages), tuple(canvas.cuts), tuple(canvas.texts))


def render(view: View, size: tuple[int, int] = (WIDTH, HEIGHT)) -> Image.Image:
    """The frame for ``view``: an image of ``size`` (mode "1", lit pixel = 1, on a 1-bit screen; "L" on a grey one)."""
    return render_checked(view, size).image


def _register(layout: Layout, painters: dict) -> None:
    """Add a screen size the box has screens for."""
    LAYOUTS[layout.size] = layout
    PAINTERS_FOR[layout.size] = painters


from . import small, wide  # noqa: E402 - the 128x32 and 256x64 painters use this package's modules

WIDE = wide.LAYOUT
_register(WIDE, wide.PAINTERS_WIDE)
_register(small.LAYOUT, small.PAINTERS)
