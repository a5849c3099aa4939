"""The corner tags' printable sheet: the four squares the camera finds the board by (docs/camera.md).

    python -m firmware.devtools.corner_tags build/markers      (make markers)

writes ``corner-tags.pdf`` and ``corner-tags.png`` (A4) and ``corner-tags-letter.pdf`` and
``corner-tags-letter.png`` (US Letter) there, at 300 dpi. The players call the squares corner tags (a
marker is their own piece: docs/glossary.md); in the code they are ArUco markers, drawn by
:func:`sight.markers.drawn` at exactly :data:`sight.layout.MARKER_MM` across.

Each tag keeps :data:`MARGIN_MM` of white paper around its black square (the camera reads the table's white
there: :data:`sight.raster.PAPER`), and a strip on its outer side that names its corner, with an arrow up the
columns; a dashed line to cut along goes round both. The sheet holds the tags where they go on the board
(the bottom-left one at the bottom left), a sketch of the board drawn from the camera's own layout with the
tags' places on its corners (their numbers, never a second copy of a tag), and a 50 mm ruler to check the
print's scale. Black and white only: the PDF keeps it
losslessly (Pillow writes a 1-bit image with CCITT G4), on a page of the paper's size.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw

from engine import HEIGHTS
from hw import fonts
from sight.layout import MARKER_IDS, MARKER_MM, STANDARD_MARKERS, centred
from sight.markers import drawn

#: Dots per inch of the sheet (a tag's 36 mm square is 425 pixels).
DPI = 300
#: The papers, their width and height in millimetres, and the files each is written to (without suffix).
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
STEMS = {"a4": "corner-tags", "letter": "corner-tags-letter"}
#: White paper around a tag's black square, every side (at least 0.4 of the half side: sight.raster.PAPER).
MARGIN_MM = 9.0
#: The strip beyond the margin, on the tag's outer side, that names its corner.
STRIP_MM = 10.0
#: Where each tag goes, seen from the player who reads the column numbers upright (column 2 on the left,
#: the columns' bottoms nearest them): sight.layout's order of MARKER_IDS.
CORNERS = dict(zip(MARKER_IDS, ("bottom-left", "bottom-right", "top-right", "top-left")))
TITLE = "Can't Stop box: the camera's four corner tags"
#: The ruler's length: measure it on the print.
RULER_MM = 50

BLACK, WHITE = 0, 1


def px(mm: float) -> int:
    """Millimetres on paper as the sheet's pixels.

    >>> px(MARKER_MM), px(25.4)
    (425, 300)
    """
    return round(mm * DPI / 25.4)


@dataclass(frozen=True)
class Piece:
    """One tag to cut out, in the sheet's pixels: its black square's top-left corner and side, and the cut line's
    rectangle (left, top, right, bottom) round its margin and its strip."""

    marker: int
    square: tuple[int, int]
    side: int
    cut: tuple[int, int, int, int]

    @property
    def top_row(self) -> bool:
        return CORNERS[self.marker].startswith("top")


def pieces(paper: str = "a4") -> tuple[Piece, ...]:
    """The four tags on a sheet of ``paper``, each where it goes on the board (a top tag's strip above it, a
    bottom tag's below: the strip is on the board's edge side)."""
    width, _ = PAPERS[paper]
    side, margin, strip = px(MARKER_MM), math.ceil(MARGIN_MM * DPI / 25.4), px(STRIP_MM)  # the margin never less
    box = side + 2 * margin
    gap = px(72.0)  # between the two columns of tags: the arrow and the board's sketch
    left = (px(width) - 2 * box - gap) // 2
    rows = {"top": px(30.0), "bottom": px(150.0)}  # the top of each row's piece
    out = []
    for marker, corner in CORNERS.items():
        row, column = corner.split("-")
        x = left if column == "left" else left + box + gap
        y = rows[row]
        square_y = y + strip + margin if row == "top" else y + margin
        out.append(Piece(marker, (x + margin, square_y), side, (x, y, x + box, y + box + strip)))
    return tuple(out)


class _Sheet:
    """A page of 1-bit pixels and what is drawn on it (text in the box's own bitmap font, scaled up whole)."""

    def __init__(self, paper: str) -> None:
        w, h = PAPERS[paper]
        self.image = Image.new("1", (px(w), px(h)), WHITE)
        self.draw = ImageDraw.Draw(self.image)
        self.width = self.image.width

    def text(self, x: int, y: int, text: str, size: str = "huge", scale: int = 2, align: str = "left") -> None:
        """``text`` with its top at ``y``; ``x`` its left, centre or right (``align``)."""
        cw, ch = fonts.CELLS[size]
        line = Image.new("1", (cw * len(text), ch), WHITE)
        ImageDraw.Draw(line).text((0, 0), text, font=fonts.load(size), fill=BLACK)
        line = line.resize((line.width * scale, line.height * scale), Image.NEAREST)
        left = {"left": x, "centre": x - line.width // 2, "right": x - line.width}[align]
        self.image.paste(line, (left, y))

    def arrow(self, x: int, top: int, bottom: int, head: int, shaft: int) -> None:
        """An arrow up, its tip at (``x``, ``top``)."""
        self.draw.polygon([(x, top), (x - head, top + head * 3 // 2), (x + head, top + head * 3 // 2)], fill=BLACK)
        self.draw.rectangle((x - shaft // 2, top + head, x + shaft - shaft // 2, bottom), fill=BLACK)

    def dashed(self, box: tuple[int, int, int, int], dash: int, gap: int, width: int) -> None:
        """A dashed rectangle just outside ``box``: the paper inside it stays whole."""
        left, top, right, bottom = box
        lo, hi = -width, 0
        for a, b, fixed, horizontal in ((left, right, top + lo, True), (left, right, bottom + hi, True),
                                        (top, bottom, left + lo, False), (top, bottom, right + hi, False)):
            start = a - width
            while start < b + width:
                end = min(start + dash, b + width)
                if horizontal:
                    self.draw.rectangle((start, fixed, end - 1, fixed + width - 1), fill=BLACK)
                else:
                    self.draw.rectangle((fixed, start, fixed + width - 1, end - 1), fill=BLACK)
                start += dash + gap


def _piece(sheet: _Sheet, piece: Piece) -> None:
    x, y = piece.square
    sheet.image.paste(Image.fromarray(drawn(piece.marker, piece.side)).convert("1"), (x, y))
    left, top, right, bottom = piece.cut
    strip_top = top if piece.top_row else bottom - px(STRIP_MM)
    middle = strip_top + px(STRIP_MM) // 2
    sheet.arrow(left + px(4.0), middle - px(3.2), middle + px(3.2), px(2.0), px(0.8))
    cw, ch = fonts.CELLS["huge"]
    sheet.text(left + px(8.0), middle - ch, CORNERS[piece.marker])
    cw, ch = fonts.CELLS["large"]
    sheet.text(right - px(1.5), middle - ch, f"tag {piece.marker}", size="large", align="right")
    sheet.dashed(piece.cut, px(2.0), px(1.5), 2)


def _board(sheet: _Sheet, centre: tuple[int, int], across_mm: float) -> None:
    """The board from above, drawn from the camera's standard layout: its columns, their numbers, and the four
    tags on its corners (``across_mm`` on paper for the layout's whole width)."""
    layout = centred(HEIGHTS, markers=STANDARD_MARKERS)
    reach = max(abs(v) for m in layout.markers for v in m) + MARKER_MM / 2 + MARGIN_MM
    scale = across_mm / (2 * reach)
    cx, cy = centre

    def at(x: float, y: float) -> tuple[int, int]:
        return cx + px(x * scale), cy - px(y * scale)

    half = px(reach * scale)
    sheet.draw.rectangle((cx - half, cy - half, cx + half, cy + half), outline=BLACK, width=4)
    w, h = (px(v * scale) // 2 for v in layout.space)
    for column, _step, (x, y) in layout.spaces():
        sx, sy = at(x, y)
        sheet.draw.rectangle((sx - w, sy - h, sx + w, sy + h), outline=BLACK, width=2)
    _, ch = fonts.CELLS["huge"]
    for c in layout.columns:
        sx, sy = at(c.bottom[0], c.bottom[1] - c.pitch())
        sheet.text(sx + 1, sy - ch // 2, str(c.total), scale=1, align="centre")
    half = px(MARKER_MM * scale) // 2
    for marker, (x, y) in zip(MARKER_IDS, layout.markers):
        # the tag's place and number, never the tag itself: a second copy of a tag in the camera's view (this
        # sheet's rest left on the table) would make both untrustworthy (sight.markers.find)
        sx, sy = at(x, y)
        sheet.draw.rectangle((sx - half, sy - half, sx + half, sy + half), outline=BLACK, width=4)
        sheet.text(sx + 1, sy - ch // 2, str(marker), scale=1, align="centre")


def _ruler(sheet: _Sheet, cx: int, y: int) -> None:
    """A 50 mm line with a tick every millimetre (longer each 5 and 10), numbered in centimetres."""
    x0 = cx - px(RULER_MM / 2)
    sheet.draw.rectangle((x0, y, x0 + px(RULER_MM), y + 2), fill=BLACK)
    _, ch = fonts.CELLS["large"]
    for mm in range(RULER_MM + 1):
        x = x0 + px(mm)
        tall = px(4.0) if mm % 10 == 0 else px(2.5) if mm % 5 == 0 else px(1.5)
        sheet.draw.rectangle((x, y, x + 2, y + tall), fill=BLACK)
        if mm % 10 == 0:
            sheet.text(x + 1, y + px(4.6), f"{mm // 10}", size="large", align="centre")
    sheet.text(x0 + px(RULER_MM) + px(3.0), y + px(4.6), "cm", size="large")


def draw(paper: str = "a4") -> Image.Image:
    """The sheet for ``paper`` ("a4" or "letter"), 1-bit at :data:`DPI`."""
    if paper not in PAPERS:
        raise ValueError(f"no paper called {paper!r}: {', '.join(PAPERS)}")
    sheet = _Sheet(paper)
    cx = sheet.width // 2
    sheet.text(cx, px(12.0), TITLE, scale=3, align="centre")
    sheet.text(cx, px(20.5), "Print at 100%, no scaling (\"actual size\"): the ruler at the bottom must be 50 mm.",
               size="large", align="centre")
    for piece in pieces(paper):
        _piece(sheet, piece)
    # the middle: which way is up the columns, and the board with the tags where they go
    _, ch = fonts.CELLS["huge"]
    sheet.text(cx, px(31.0), "up the columns", align="centre")
    sheet.arrow(cx, px(37.0), px(82.0), px(5.0), px(2.0))
    _board(sheet, (cx, px(120.0)), 64.0)
    for i, line in enumerate(("The board from the player who reads", "the column numbers upright: column 2",
                              "on the left, the bottoms nearest them.")):
        sheet.text(cx, px(155.0 + 4.0 * i), line, size="large", align="centre")
    ruler_y = px(228.0)
    sheet.text(cx, ruler_y - px(6.0), f"This ruler must measure {RULER_MM} mm:", size="large", align="centre")
    _ruler(sheet, cx, ruler_y)
    for i, line in enumerate((
            "Cut along the dashed lines, keeping the white border whole. Stick each tag flat on its",
            "corner of the board, its arrow up the columns, covering no space: every space between the",
            "four. Leave them there once the camera is set up; if one moves, set the camera up again.")):
        sheet.text(cx, px(243.0 + 4.5 * i), line, size="large", align="centre")
    return sheet.image


def write(folder: str | Path) -> list[Path]:
    """Every sheet as a PDF (the paper's page size) and a PNG (300 dpi), in ``folder`` (made if missing)."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for paper, stem in STEMS.items():
        image = draw(paper)
        pdf, png = out / f"{stem}.pdf", out / f"{stem}.png"
        image.save(pdf, "PDF", resolution=float(DPI), title=TITLE)
        image.save(png, dpi=(DPI, DPI), optimize=True)
        written += [pdf, png]
    return written


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m firmware.devtools.corner_tags FOLDER", file=sys.stderr)
        return 2
    for path in write(args[0]):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
