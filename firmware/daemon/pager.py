"""The pages of the frame on the screen, shown in turns.

A small screen shows a long view as several pages (:func:`firmware.screens.render_pages`):
the daemon shows the first, and every ``PAGE_SECONDS`` the next, back to the first
after the last. A new view starts again at its first page. The pages are
rendered once per view: a flip only hands the next one to the display.
"""

from __future__ import annotations

from PIL import Image

#: Seconds each page of a frame stays on the screen before the next: on a 128x32 panel the move screen's two
#: pages at 3 s each were too quick to read at the table (issue 47, item 8); 5 s reads a page of four words.
PAGE_SECONDS = 5.0


def pages_of(frame) -> tuple[Image.Image, ...]:
    """A renderer's result as pages: a tuple of images as it is, a single image as one page."""
    return (frame,) if isinstance(frame, Image.Image) else tuple(frame)


class Pager:
    """Which page of the current frame is up, and when the next is due (by the caller's clock)."""

    def __init__(self, seconds: float = PAGE_SECONDS) -> None:
        self.seconds = seconds
        self.pages: tuple[Image.Image, ...] = ()
        self.index = 0
        self.due: float | None = None  # when the next page is due; None: one page, nothing to flip

    def start(self, frame, now: float) -> Image.Image:
        """A new frame (an image or its pages): its first page, to show now."""
        self.pages = pages_of(frame)
        self.index = 0
        self.due = now + self.seconds if len(self.pages) > 1 else None
        return self.pages[0]

    def flip(self, now: float) -> Image.Image | None:
        """The next page when it is due (after the last, the first again), else None."""
        if self.due is None or now < self.due:
            return None
        self.index = (self.index + 1) % len(self.pages)
        self.due = now + self.seconds
        return self.pages[self.index]

    def stay(self, now: float) -> None:
        """Keep the page on the screen a whole turn from ``now`` (a screen waking from dim shows it again first)."""
        if self.due is not None:
            self.due = now + self.seconds
