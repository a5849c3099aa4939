"""The pieces' colours as the camera judges them: against the markers' white, never as fixed camera values.

A colour is kept as it would look on the markers' white paper (0 the
printed black, 1 the paper), so the table's lamp, warm or cold, bright or
dim, changes nothing. Each kind starts from its name's usual plastic
(:data:`NOMINAL`) and learns the table's own pieces from every check that
found them where the game says (:func:`learnt`).

A pixel is judged by its chroma (how it departs from grey, relative to its
brightness: a face of a piece in shade keeps its chroma) and a little by its
brightness (white and black pieces have no chroma to speak of).

>>> p = Palette.of(["Red", "Blue"], runner="white")
>>> sorted(p.kinds)
['Blue', 'Red', 'runner']
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .layout import RUNNER

#: The usual plastic of each colour name, on the markers' white (B, G, R: OpenCV's order), and of the runners.
NOMINAL = {
    "red": (0.13, 0.13, 0.70),
    "blue": (0.62, 0.30, 0.10),
    "green": (0.25, 0.52, 0.12),
    "yellow": (0.12, 0.75, 0.88),
    "orange": (0.10, 0.42, 0.90),
    "purple": (0.50, 0.16, 0.42),
    "white": (0.86, 0.86, 0.86),
    "black": (0.07, 0.07, 0.07),
    "pink": (0.62, 0.45, 0.92),
    "brown": (0.12, 0.25, 0.42),
    "grey": (0.45, 0.45, 0.45),
    "gray": (0.45, 0.45, 0.45),
}
#: A pixel further than this (chroma units) from every kind's colour is none of them (a hand, a die, a cup).
REACH = 0.55
#: A piece's lit face or rim can look like a colour this near its own (red's face orange, never blue).
FACE = 1.0
#: How much a learnt colour moves toward what a check found (0..1).
LEARN = 0.5


def features(bgr: np.ndarray) -> np.ndarray:
    """Each pixel's chroma (3, relative to its brightness) and its log brightness: (..., 4)."""
    c = np.maximum(np.asarray(bgr, dtype=np.float32), 0.0)
    i = c.mean(axis=-1, keepdims=True)
    chroma = (c - i) / np.maximum(i, 0.06)
    return np.concatenate([chroma, np.log(np.maximum(i, 0.02))], axis=-1)


def distance(feats: np.ndarray, colour: np.ndarray) -> np.ndarray:
    """How far pixels' features lie from one colour's: chroma mostly, brightness a quarter (shade varies)."""
    ref = features(colour)
    d_chroma = np.linalg.norm(feats[..., :3] - ref[:3], axis=-1)
    d_bright = np.abs(feats[..., 3] - ref[3])
    # grey kinds (white, black) are told apart by brightness alone; coloured ones mostly by chroma
    weight = 0.25 if np.linalg.norm(ref[:3]) > 0.3 else 0.6
    return d_chroma + weight * np.maximum(d_bright - 0.35, 0.0)


class PaletteError(ValueError):
    """A colour the camera cannot tell apart from another (one line)."""


@dataclass(frozen=True)
class Palette:
    """The kinds a check may find (the seats' colours and the runner) and how each looks at this table."""

    kinds: dict = field(default_factory=dict)  # kind -> BGR on the markers' white

    @classmethod
    def of(cls, colours, runner: str = "white", learnt: dict | None = None) -> Palette:
        """The seats' ``colours`` (the config's names) and the runner's; a name the camera has no colour for
        must have been learnt (PaletteError otherwise)."""
        kinds = {}
        for name in list(colours) + [RUNNER]:
            key = runner if name == RUNNER else name
            if learnt and name in learnt:
                kinds[name] = np.asarray(learnt[name], dtype=np.float32)
            elif key.casefold() in NOMINAL:
                kinds[name] = np.asarray(NOMINAL[key.casefold()], dtype=np.float32)
            else:
                raise PaletteError(f"the camera does not know the colour {name!r}: show it the pieces first")
        names = list(kinds)
        for a in range(len(names)):
            for b in range(a + 1, len(names)):
                if float(distance(features(kinds[names[a]]), kinds[names[b]])) < 0.25:
                    raise PaletteError(f"{names[a]} and {names[b]} look alike to the camera")
        return cls(kinds)

    def classify(self, bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each pixel's nearest kind (an index into :meth:`names`, -1 for none within :data:`REACH`) and how near."""
        best, near = self.nearest(bgr)
        return np.where(near <= REACH, best, -1), near

    def nearest(self, bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each pixel's nearest kind (an index into :meth:`names`), however far, and how near."""
        feats = features(bgr)
        dists = np.stack([distance(feats, c) for c in self.kinds.values()], axis=-1)
        best = dists.argmin(axis=-1)
        return best, np.take_along_axis(dists, best[..., None], axis=-1)[..., 0]

    def alike(self, kind: str, other: str) -> bool:
        """Whether a piece of ``kind``, lit or seen at its rim, can look like ``other``: the same kind, the runners'
        white (a glint), or a colour within :data:`FACE` of its own."""
        if kind == other or other == RUNNER:
            return True
        return float(distance(features(self.kinds[kind]), self.kinds[other])) < FACE

    def names(self) -> list[str]:
        return list(self.kinds)

    def learnt(self, found: dict) -> Palette:
        """This palette moved toward the colours a check found (kind -> BGR median), :data:`LEARN` of the way."""
        kinds = dict(self.kinds)
        for kind, colour in found.items():
            if kind in kinds:
                kinds[kind] = (1 - LEARN) * kinds[kind] + LEARN * np.asarray(colour, dtype=np.float32)
        return Palette(kinds)

    def to_json(self) -> dict:
        return {k: [round(float(v), 4) for v in c] for k, c in self.kinds.items()}
