"""A camera over a drawn board: the emulator's and the tests' stand-in for a webcam over a real one.

The board is drawn by :mod:`sight.scene` (an edition, a table, a lamp, a
webcam's lens and noise) with the pieces the players would have put on it:
each watch, the table sets the board as the game says (:meth:`follow`), and
:meth:`nudge` makes one mistake on it (a marker a square off, a runner left on)
or, with one made, puts it right, so the check can be tried by hand. Asked to
set up, the players clear the board first (:meth:`clear`). Every frame has its
own grain, as a webcam's has (the board is drawn once for each state of its pieces: a
laptop running the emulator is not kept busy drawing the same board four times a second).
"""

from __future__ import annotations

import random
import cv2
import numpy as np

from engine import HEIGHTS
from sight import scene
from sight.layout import RUNNER, Piece, centred

#: Each frame's own sensor grain (grey levels, one standard deviation), on the picture drawn once.
GRAIN = 2.0
#: The drawn table's seed: the same edition, camera and lamp every time the emulator starts.
SEED = 49


class DrawnCamera:
    """Frames of a drawn board that follows the game (``state_dir`` is not used: a drawn board keeps nothing)."""

    def __init__(self, state_dir=None, seed: int = SEED) -> None:
        self.layout = centred(HEIGHTS)
        rng = np.random.default_rng(seed)
        self.table = scene.random_table(rng, self.layout, size=(1280, 720))
        self.shot = scene.calm_shot()
        self.rng = random.Random(seed)
        self.expected: tuple[Piece, ...] = ()
        self.pieces: tuple[Piece, ...] = ()
        self.frame = 0
        self._drawn: tuple | None = None  # (pieces, their picture without the frame's grain)

    def follow(self, expected) -> None:
        """The players set the board as the game says."""
        self.expected = tuple(expected)
        self.pieces = self.expected

    def clear(self) -> None:
        """The players take every piece off (to set the camera up)."""
        self.pieces = ()

    def nudge(self) -> None:
        """One mistake on the board, or, with one on it, the board put right."""
        if self.pieces != self.expected:
            self.pieces = self.expected
            return
        markers = [p for p in self.expected if p.kind != RUNNER]
        if not markers:
            self.pieces = self.expected + (Piece(7, 1, RUNNER),)  # a runner left on
            return
        p = self.rng.choice(markers)
        step = p.step + 1 if p.step < HEIGHTS[p.column] else p.step - 1
        self.pieces = tuple(q for q in self.expected if q != p) + (Piece(p.column, step, p.kind),)

    def grab(self) -> np.ndarray:
        """The board as it stands, drawn once for each state of its pieces, with each frame's own grain on it."""
        self.frame += 1
        if self._drawn is None or self._drawn[0] != self.pieces:
            self._drawn = (self.pieces, scene.render(self.layout, self.pieces, self.table, self.shot))
        grain = np.empty(self._drawn[1].shape, np.int16)
        cv2.randn(grain, 0, GRAIN)
        return cv2.add(self._drawn[1], grain, dtype=cv2.CV_8U)

    def close(self) -> None:
        pass
