"""The camera's view in the emulator: its last picture in coloured half blocks, and one line of what it said.

The camera's process keeps its pictures as files (the last photo, and the
board as it read it, with its rings); :class:`CameraView` looks at them from a
thread of its own, a stat every half second, and reads a picture again only
when its file changed, and never one bigger than it should be: the box's loop
reads no file for it. The terminal draws :meth:`CameraView.lines` beside its
frame (:class:`hw.terminal.TerminalDisplay`'s ``side``), each cell two pixels
stacked (``▀``: the top pixel's colour on the bottom one's), in 24-bit colour. Shrunk
that small, a ring two pixels thin would average away: colours named as marks (the
camera's rings) are kept, in every block that holds enough of one.
"""

from __future__ import annotations

import io
import logging
import os
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from PIL import Image, ImageChops

log = logging.getLogger(__name__)

#: A picture file bigger than this is not read (the camera's are a few hundred kB).
MAX_BYTES = 8 * 1024 * 1024
#: Nor one of more pixels than this (a small file can hold a huge picture).
MAX_PIXELS = 4096 * 4096
#: Seconds between two looks at the files.
EVERY = 0.5
#: The picture is kept at most this many pixels wide once read: a panel is never wider.
KEPT_WIDTH = 160
#: A block shrunk into one pixel shows a mark's colour when this share of it, at least, is that colour
#: (each channel within MARK_SLACK): a ring around a piece survives, a photo's noise does not.
MARK_SHARE, MARK_SLACK = 0.04, 12
#: Fewer rows than this for the picture, and the panel is its line alone (a strip would show nothing).
MIN_ROWS = 3
HALF = "▀"
PLAIN = "\x1b[39;49m"


def fg(rgb: tuple[int, int, int]) -> str:
    return "\x1b[38;2;%d;%d;%dm" % rgb


def bg(rgb: tuple[int, int, int]) -> str:
    return "\x1b[48;2;%d;%d;%dm" % rgb


def fitted(size: tuple[int, int], cols: int, rows: int) -> tuple[int, int]:
    """The picture's size in pixels to fit ``cols`` x ``rows`` cells (two pixels a cell, stacked), its shape kept.

    >>> fitted((960, 540), 48, 20), fitted((300, 600), 48, 20), fitted((10, 10), 0, 5)
    ((48, 27), (20, 40), (0, 0))
    """
    width, height = size
    if cols < 1 or rows < 1 or width < 1 or height < 1:
        return 0, 0
    scale = min(cols / width, 2 * rows / height)
    return max(1, min(cols, round(width * scale))), max(1, min(2 * rows, round(height * scale)))


def shrink(image: Image.Image, size: tuple[int, int], marks: Sequence[tuple[int, int, int]] = ()) -> Image.Image:
    """``image`` (RGB) averaged down to ``size``, then each pixel whose block holds enough of a ``marks`` colour
    painted that colour (a later mark over an earlier one)."""
    small = image.resize(size, Image.Resampling.BOX)
    level = max(1, round(255 * MARK_SHARE))
    for colour in marks:
        r, g, b = image.point([255 if abs(v - c) <= MARK_SLACK else 0 for c in colour for v in range(256)]).split()
        near = ImageChops.darker(ImageChops.darker(r, g), b)  # every channel near the mark's
        hit = near.resize(size, Image.Resampling.BOX).point(lambda v: 255 if v >= level else 0)
        small.paste(colour, mask=hit)
    return small


def picture_rows(image: Image.Image, cols: int, rows: int, marks: Sequence[tuple[int, int, int]] = ()) -> list[str]:
    """``image`` in at most ``cols`` x ``rows`` cells: a string a row, a colour escape only where it changes."""
    width, height = fitted(image.size, cols, rows)
    if width == 0:
        return []
    small = shrink(image.convert("RGB"), (width, height), marks)
    pixels = list(zip(*[iter(small.tobytes())] * 3))
    lines = []
    for y in range(0, height, 2):
        top = pixels[y * width:(y + 1) * width]
        bottom = pixels[(y + 1) * width:(y + 2) * width] if y + 1 < height else None
        parts, was_fg, was_bg = [], None, None
        for x, up in enumerate(top):
            if up != was_fg:
                parts.append(fg(up))
                was_fg = up
            down = bottom[x] if bottom is not None else None  # an odd last row: the terminal's own background
            if down != was_bg:
                parts.append(bg(down))
                was_bg = down
            parts.append(HALF)
        parts.append(PLAIN)
        lines.append("".join(parts))
    return lines


def read_picture(path: Path, max_bytes: int = MAX_BYTES,
                 marks: Sequence[tuple[int, int, int]] = ()) -> Image.Image | None:
    """The picture at ``path``, shrunk to :data:`KEPT_WIDTH` at most (``marks`` kept); None when it is missing,
    bigger than ``max_bytes`` on disk (then it is not read at all), of too many pixels, or not a picture."""
    try:
        with open(path, "rb") as file:
            size = os.fstat(file.fileno()).st_size
            if size > max_bytes:
                log.warning("%s is %d bytes: not read (at most %d)", path, size, max_bytes)
                return None
            data = file.read(max_bytes + 1)
    except OSError:
        return None
    if len(data) > max_bytes:  # it grew since: still not taken
        return None
    try:
        with Image.open(io.BytesIO(data)) as image:
            if image.size[0] * image.size[1] > MAX_PIXELS:
                log.warning("%s is %dx%d: not drawn", path, *image.size)
                return None
            image.draft("RGB", (KEPT_WIDTH, KEPT_WIDTH))  # a JPEG decodes at a fraction of its size
            picture = image.convert("RGB")
    except Exception as err:  # a broken file can raise most anything from its decoder: it is not drawn
        log.debug("%s is not a picture: %s", path, err)
        return None
    if picture.size[0] > KEPT_WIDTH:
        picture = shrink(picture, (KEPT_WIDTH, max(1, round(picture.size[1] * KEPT_WIDTH / picture.size[0]))), marks)
    return picture


def _stamp(path: Path):
    """What tells a file changed: its modification time and size (None: no such file)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


class CameraView:
    """The newest of the camera's picture files (``paths``), and the line ``said()`` gives, for a panel
    (``marks``: the colours kept when it is shrunk, the rings the camera draws).

    :meth:`look` takes one look (a stat of each file; a picture read only when its file changed) and says
    whether the panel changed; :meth:`watch` looks every :data:`EVERY` seconds from its own thread and
    calls ``changed()`` when it did. :meth:`lines` is the panel, for the terminal to draw.
    """

    def __init__(self, paths: Sequence[Path], said: Callable[[], str] = lambda: "",
                 max_bytes: int = MAX_BYTES, marks: Sequence[tuple[int, int, int]] = ()) -> None:
        self.paths = tuple(Path(p) for p in paths)
        self.said = said
        self.max_bytes = max_bytes
        self.marks = tuple(marks)
        self.picture: Image.Image | None = None
        self.line = ""
        self._stamps: dict[Path, object] = {}
        self._lock = threading.Lock()
        self._cache: tuple | None = None  # (picture, line, cols, rows, the lines drawn for them)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def look(self) -> bool:
        """Look at the files and the line once; True when the panel changed."""
        stamps = {path: _stamp(path) for path in self.paths}
        changed = False
        if stamps != self._stamps:
            self._stamps = stamps
            present = [p for p in self.paths if stamps[p] is not None]
            newest = max(present, key=lambda p: stamps[p][0], default=None)  # a tie: the first named
            picture = read_picture(newest, self.max_bytes, self.marks) if newest is not None else None
            with self._lock:
                self.picture = picture  # one that cannot be read shows nothing, rather than an old one
            changed = True
        try:
            line = str(self.said())
        except Exception:  # the line is a developer's help: a fault in it must not stop the pictures
            log.exception("the camera's line")
            line = ""
        if line != self.line:
            with self._lock:
                self.line = line
            changed = True
        return changed

    def lines(self, cols: int, rows: int) -> list[str]:
        """The panel in at most ``cols`` x ``rows`` cells: the picture, then the line (cut to ``cols``)."""
        with self._lock:
            picture, line = self.picture, self.line
            cache = self._cache
        if cache is not None and cache[0] is picture and cache[1:4] == (line, cols, rows):
            return cache[4]
        out = picture_rows(picture, cols, rows - 1, self.marks) if picture is not None and rows - 1 >= MIN_ROWS else []
        if rows > 0 and cols > 0:
            out.append(line[:cols])
        with self._lock:
            self._cache = (picture, line, cols, rows, out)
        return out

    def watch(self, changed: Callable[[], None], every: float = EVERY) -> CameraView:
        """Look every ``every`` seconds from a thread of its own, calling ``changed()`` when the panel changed."""
        def run() -> None:
            while not self._stop.is_set():
                try:
                    if self.look():
                        changed()
                except Exception:
                    log.exception("the camera's view")
                self._stop.wait(every)

        if self._thread is None:
            self._thread = threading.Thread(target=run, name="camera-view", daemon=True)
            self._thread.start()
        return self

    def close(self) -> None:
        """Stop looking."""
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(2.0)
