"""What the camera over the board last saw, as the live page shows it: read from the store and the pictures' times.

The box keeps the camera's last finding in the store (the fact
``camera_seen``: the verdict and the pieces it was read against), and the
camera's process keeps its last photo and the board as it read it beside
the store (:mod:`web.pictures`). The page says the finding in the box's own
words (:mod:`firmware.words`'s camera sentences, in the page's language),
each piece on a claimed column named with the colour that claimed it, as the
box's screen does (:func:`firmware.ui.camera.verdict_lines`), and names each
picture by its time, so a new photo is a new address the page loads.

Nothing here reads a picture, and nothing loads NumPy or OpenCV: a verdict
is plain data (:mod:`sight.verdict`). The set-up (``camera_calibration``, a
large fact) is never read.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from firmware import words
from firmware.camera import said
from firmware.camera.link import READ, SEEN_FACT, VIEW
from sight.verdict import Verdict

from . import pictures

log = logging.getLogger("cantstop.web")


@dataclass(frozen=True)
class Seen:
    """The camera's part of the live page: the last finding (``state`` "" when none is kept) in words, and the
    two pictures' times in nanoseconds (None for a picture not made yet)."""

    state: str = ""
    lines: tuple[str, ...] = ()
    view: int | None = None
    read: int | None = None

    @property
    def at(self) -> float | None:
        """When the camera last read the board (its last photo's time, in seconds)."""
        found = self.view if self.view is not None else self.read
        return None if found is None else found / 1e9


def seen(store, state_dir, lang: str, game=None, colours=(), *, camera: bool = False) -> Seen | None:
    """The camera's part of the live page in ``lang``, or None for a box without a camera (no finding kept, no
    picture, and ``camera`` not set: the config's ``[camera] source`` is off). ``game``: the state the page
    shows (a piece on a claimed column names its owner), ``colours``: its seats' colours."""
    verdict = _verdict(store)
    view, read = pictures.mtime(state_dir, VIEW), pictures.mtime(state_dir, READ)
    if verdict is None and view is None and read is None and not camera:
        return None
    if verdict is None:
        return Seen(view=view, read=read)
    return Seen(verdict.state, finding_lines(words.language(lang), verdict, game, colours), view, read)


def _verdict(store) -> Verdict | None:
    """The last verdict the box kept, None when there is none or it does not read (logged)."""
    if store is None:
        return None
    try:
        kept = store.fact(SEEN_FACT)
    except Exception as err:  # a damaged fact never stops the page
        log.warning("cannot read the camera's last finding: %s", err)
        return None
    if not isinstance(kept, dict):
        return None
    try:
        return Verdict.from_json(kept.get("verdict"))
    except ValueError as err:
        log.warning("the camera's last finding: %s", err)
        return None


def finding_lines(w, verdict: Verdict, game=None, colours=()) -> tuple[str, ...]:
    """What ``verdict`` says to the table, a line a finding, in the words ``w`` speak: the box's own sentences
    (firmware.camera.said), as its screen says them."""
    return said.verdict_lines(w, verdict, game.claimed if game is not None else (), colours)
