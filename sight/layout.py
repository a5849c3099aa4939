"""The board as the camera knows it: where each space is on the board's plane, and what stands on it.

The plane's frame is the four printed markers' (docs/camera.md): millimetres,
x to the right, y up the columns, the origin at the board's middle. Marker 0
goes on the bottom-left corner, 1 bottom-right, 2 top-right, 3 top-left. A
:class:`Layout` says where each column's bottom and top spaces are; the spaces
between are evenly spaced, as on every edition's board.

A piece is plain data, ``(column, step, kind)``: ``kind`` is a seat's colour
("Red") or :data:`RUNNER`. Several pieces may share a space (the rules say so).

>>> lay = centred({2: 3, 3: 5, 4: 7, 5: 9, 6: 11, 7: 13, 8: 11, 9: 9, 10: 7, 11: 5, 12: 3})
>>> len(lay.spaces()), lay.column(7).at(7)
(83, (0.0, 0.0))
>>> Layout.from_json(lay.to_json()) == lay
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

#: A piece's kind for the shared runners (the other kinds are the seats' colours).
RUNNER = "runner"
#: The markers' ids in their dictionary (OpenCV's 4x4_50), corner by corner: bottom-left, bottom-right,
#: top-right, top-left.
MARKER_IDS = (0, 1, 2, 3)
#: The standard board (docs/camera.md): a column's pitch and a space's, in millimetres, and the markers' centres.
STANDARD_PITCH = (24.0, 20.0)
STANDARD_MARKERS = ((-150.0, -150.0), (150.0, -150.0), (150.0, 150.0), (-150.0, 150.0))
#: The printed markers' black square, in millimetres (the sheet adds a white margin around it).
MARKER_MM = 36.0


class Piece(NamedTuple):
    """One piece on a space: ``column`` 2..12, ``step`` 1 = bottom, ``kind`` a colour or :data:`RUNNER`."""

    column: int
    step: int
    kind: str


Point = tuple[float, float]


@dataclass(frozen=True)
class Column:
    """One column: its dice sum, its height, and the centres of its bottom and top spaces on the plane."""

    total: int
    height: int
    bottom: Point
    top: Point

    def at(self, step: int) -> Point:
        """The centre of space ``step`` (1 = bottom): evenly spaced from the bottom to the top."""
        if not 1 <= step <= self.height:
            raise ValueError(f"column {self.total} has steps 1 to {self.height}, not {step}")
        f = (step - 1) / (self.height - 1) if self.height > 1 else 0.0
        return (self.bottom[0] + (self.top[0] - self.bottom[0]) * f,
                self.bottom[1] + (self.top[1] - self.bottom[1]) * f)

    def pitch(self) -> float:
        """The distance from one space's centre to the next, in millimetres."""
        dx, dy = self.top[0] - self.bottom[0], self.top[1] - self.bottom[1]
        return (dx * dx + dy * dy) ** 0.5 / max(1, self.height - 1)


@dataclass(frozen=True)
class Layout:
    """Every column's place on the board's plane, a space's size, and the four markers' centres."""

    columns: tuple[Column, ...]
    space: tuple[float, float]  # a space's width and height (mm): what is read around its centre
    markers: tuple[Point, Point, Point, Point] = STANDARD_MARKERS
    marker_mm: float = MARKER_MM

    def column(self, total: int) -> Column:
        for c in self.columns:
            if c.total == total:
                return c
        raise KeyError(f"no column {total}")

    def moved(self, dx: float, dy: float) -> Layout:
        """The same layout slid by ``(dx, dy)`` millimetres on the plane (the markers stay where they are)."""
        return Layout(tuple(Column(c.total, c.height, (c.bottom[0] + dx, c.bottom[1] + dy),
                                   (c.top[0] + dx, c.top[1] + dy)) for c in self.columns),
                      self.space, self.markers, self.marker_mm)

    def spaces(self) -> list[tuple[int, int, Point]]:
        """Every space as ``(column, step, centre)``, column by column from the bottom."""
        return [(c.total, k, c.at(k)) for c in self.columns for k in range(1, c.height + 1)]

    def to_json(self) -> dict:
        return {"columns": [[c.total, c.height, list(c.bottom), list(c.top)] for c in self.columns],
                "space": list(self.space), "markers": [list(m) for m in self.markers], "marker_mm": self.marker_mm}

    @classmethod
    def from_json(cls, raw) -> Layout:
        """A layout kept as JSON (the store's calibration); ValueError when it is not one."""
        try:
            columns = tuple(Column(int(t), int(h), _point(b), _point(p)) for t, h, b, p in raw["columns"])
            space = _point(raw["space"])
            markers = tuple(_point(m) for m in raw["markers"])
            marker_mm = float(raw["marker_mm"])
        except (KeyError, TypeError, ValueError) as err:
            raise ValueError(f"not a board layout: {err}") from None
        if len(markers) != 4 or not columns or min(space) <= 0 or marker_mm <= 0:
            raise ValueError("not a board layout: it needs columns, four markers and a space's size")
        if any(not 1 <= c.height <= 30 for c in columns):
            raise ValueError("not a board layout: a column's height is out of range")
        return cls(columns, space, markers, marker_mm)  # type: ignore[arg-type]


def _point(raw) -> Point:
    x, y = raw
    x, y = float(x), float(y)
    if not (abs(x) < 1e4 and abs(y) < 1e4):
        raise ValueError("a point off the board")
    return (x, y)


def centred(heights: dict[int, int], pitch: tuple[float, float] = STANDARD_PITCH, centre: Point = (0.0, 0.0),
            markers=STANDARD_MARKERS, fill: float = 0.8) -> Layout:
    """The common editions' shape: columns side by side, ``pitch[0]`` apart, their middles on one line, spaces
    ``pitch[1]`` apart; a space's size is ``fill`` of the pitch."""
    dx, dy = pitch
    totals = sorted(heights)
    mid = (len(totals) - 1) / 2
    columns = []
    for i, total in enumerate(totals):
        h = heights[total]
        x = centre[0] + (i - mid) * dx
        columns.append(Column(total, h, (x, centre[1] - (h - 1) / 2 * dy), (x, centre[1] + (h - 1) / 2 * dy)))
    return Layout(tuple(columns), (dx * fill, dy * fill), tuple(markers))


def from_ends(heights: dict[int, int], ends: dict[int, tuple[Point, Point]], markers=STANDARD_MARKERS,
              marker_mm: float = MARKER_MM, fill: float = 0.8) -> Layout:
    """A layout from each column's bottom and top centres (tapped on the phone's photo, mapped to the plane); a
    space's size is ``fill`` of the columns' mean spacing and of the steps' mean pitch."""
    columns = tuple(Column(t, heights[t], ends[t][0], ends[t][1]) for t in sorted(heights))
    pitch = sum(c.pitch() for c in columns) / len(columns)
    mids = [((c.bottom[0] + c.top[0]) / 2, (c.bottom[1] + c.top[1]) / 2) for c in columns]
    gaps = [((b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2) ** 0.5 for a, b in zip(mids, mids[1:])]
    spacing = sum(gaps) / len(gaps) if gaps else pitch
    return Layout(columns, (spacing * fill, pitch * fill), tuple(markers), marker_mm)
