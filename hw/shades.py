"""A frame in the terminal: half blocks, lit pixels in the terminal's colour and grey ones in grey.

Each terminal cell shows two pixels stacked (``▀`` top, ``▄`` bottom). A pixel
is dark (level 0), lit (``LIT`` and up) or grey (between). Every pair has an
exact picture with the terminal's own colours plus one grey (256-colour SGR):

- no grey: the plain half block, as on a 1-bit screen;
- grey with dark: the grey pixel's half block, drawn in grey;
- grey with grey: a full block in grey;
- grey with lit: the lit pixel's half block, on a grey background.

So the 256x64 SSD1322's highlight (lit words on a grey fill) and its grey
board pieces look as on the glass. Colours are reset with SGR 39/49 only, so a
faint (dimmed) frame stays faint.
"""

from __future__ import annotations

from PIL import Image

LIT = 0xC0  # this level and up shows lit; 1 up to it, grey
GREY_FG = "\x1b[38;5;244m"
GREY_BG = "\x1b[48;5;240m"
PLAIN = "\x1b[39;49m"
BLOCKS = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}


def kind(level: int) -> int:
    """0 dark, 1 grey, 2 lit."""
    return 0 if level == 0 else 2 if level >= LIT else 1


def cell(top: int, bottom: int) -> tuple[str, str]:
    """(colour escape or "", character) for a cell of two pixel kinds.

    >>> cell(2, 0), cell(1, 0), cell(1, 1), cell(1, 2)
    (('', '▀'), ('\\x1b[38;5;244m', '▀'), ('\\x1b[38;5;244m', '█'), ('\\x1b[48;5;240m', '▄'))
    """
    if 1 not in (top, bottom):
        return "", BLOCKS[top == 2, bottom == 2]
    if 2 in (top, bottom):
        return GREY_BG, BLOCKS[top == 2, bottom == 2]
    return GREY_FG, BLOCKS[top == 1, bottom == 1]


_KINDS = bytes(kind(v) for v in range(256))


def shaded_rows(image: Image.Image) -> list[str]:
    """One string per pair of pixel rows of a frame (1-bit or grey), with colour escapes only where grey is."""
    width, height = image.size
    if height % 2:
        raise ValueError(f"frame height must be even, not {height}")
    kinds = image.convert("L").tobytes().translate(_KINDS)
    rows = []
    for y in range(0, height, 2):
        top, bottom = kinds[y * width:(y + 1) * width], kinds[(y + 1) * width:(y + 2) * width]
        if 1 not in top and 1 not in bottom:  # no grey (every row of a 1-bit frame): plain half blocks
            rows.append("".join(BLOCKS[t == 2, b == 2] for t, b in zip(top, bottom)))
            continue
        rows.append(_styled(cell(t, b) for t, b in zip(top, bottom)))
    return rows


def _styled(cells) -> str:
    """A row of (colour escape or "", character) cells as text: an escape only where the colour changes."""
    parts, style = [], ""
    for colour, char in cells:
        if colour != style:
            parts.append((PLAIN if style else "") + colour)
            style = colour
        parts.append(char)
    if style:
        parts.append(PLAIN)
    return "".join(parts)


#: A cell of four pixels, two by two (bits: 1 top left, 2 top right, 4 bottom left, 8 bottom right).
QUADRANTS = " ▘▝▀▖▌▞▛▗▚▐▜▄▙▟█"


def quadrant(kinds: tuple[int, int, int, int]) -> tuple[str, str]:
    """(colour escape or "", character) for a cell of four pixel kinds (top left, top right, bottom left, right).

    Exact with two kinds in the cell, as :func:`cell`; with all three (an edge of a grey highlight) the
    grey pixels go with the dark ones, or the dark with the grey when grey is the most:

    >>> quadrant((2, 0, 0, 2)), quadrant((1, 1, 0, 0)), quadrant((2, 1, 1, 1)), quadrant((2, 1, 0, 0))
    (('', '▚'), ('\\x1b[38;5;244m', '▀'), ('\\x1b[48;5;240m', '▘'), ('', '▘'))
    """
    if 1 in kinds and 0 in kinds and 2 in kinds:
        grey_wins = kinds.count(1) > kinds.count(0)
        kinds = tuple((1 if grey_wins else 0) if k in (0, 1) else 2 for k in kinds)
    if 1 not in kinds:
        return "", QUADRANTS[sum(1 << i for i, k in enumerate(kinds) if k == 2)]
    if 2 in kinds:
        return GREY_BG, QUADRANTS[sum(1 << i for i, k in enumerate(kinds) if k == 2)]
    return GREY_FG, QUADRANTS[sum(1 << i for i, k in enumerate(kinds) if k == 1)]


def quadrant_rows(image: Image.Image) -> list[str]:
    """The frame at half its width: one string per pair of pixel rows, a cell per two pixel columns (128 cells
    by 32 rows for 256x64), for a terminal too narrow for :func:`shaded_rows`'s cell per column."""
    width, height = image.size
    if height % 2 or width % 2:
        raise ValueError(f"a half-width frame needs an even width and height, not {width}x{height}")
    kinds = image.convert("L").tobytes().translate(_KINDS)
    rows = []
    for y in range(0, height, 2):
        top, bottom = kinds[y * width:(y + 1) * width], kinds[(y + 1) * width:(y + 2) * width]
        rows.append(_styled(quadrant((top[x], top[x + 1], bottom[x], bottom[x + 1])) for x in range(0, width, 2)))
    return rows
