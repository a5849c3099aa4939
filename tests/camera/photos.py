"""The camera's fixed photos: rendered boards with their truth, for ``make test`` (tests/camera/test_photos.py).

Each case is a game night of :mod:`sight.scene` (its own edition, table, lamp and webcam, by seed): the empty
board's photo the camera is set up from, and one photo of the pieces as they stand (``truth``). The files are
kept, so the reader is tested on the same pixels whatever the renderer becomes; regenerate them only when a
case is meant to change::

    .venv/bin/python -m tests.camera.photos

The cases are the hard ones for a camera at a table: two colours side by side (on one space, and on
neighbouring columns), a runner left on a claimed column's top, a hand over part of the board, and pieces
leaning far off their squares (a webcam well off the board's middle).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import cv2
import numpy as np

from sight.hand import Hand
from sight.layout import RUNNER, Piece, centred

from engine import HEIGHTS

FOLDER = Path(__file__).resolve().parents[1] / "fixtures" / "camera"
#: JPEG quality of the kept photos: a webcam's own is about this, and the files stay small.
QUALITY = 88


@dataclasses.dataclass(frozen=True)
class Case:
    name: str
    seed: int  # the game night (edition, table, camera, lamp)
    colours: tuple[str, ...]
    truth: tuple[Piece, ...]  # what stands on the board in the photo
    hand: Hand | None = None


CASES = (
    Case("side-by-side", 3, ("Red", "Blue", "Green"),
         (Piece(7, 5, "Red"), Piece(7, 5, "Blue"), Piece(6, 5, "Blue"), Piece(8, 5, "Red"), Piece(8, 4, "Green"),
          Piece(4, 2, "Green"), Piece(4, 3, "Red"), Piece(10, 3, "Blue"))),
    Case("runner-on-claimed-top", 9, ("Red", "Blue"),
         (Piece(10, HEIGHTS[10], "Red"), Piece(10, HEIGHTS[10], RUNNER), Piece(6, 4, "Blue"), Piece(8, 2, "Red"),
          Piece(5, 6, "Blue"))),
    Case("hand", 23, ("Red", "Yellow"),
         (Piece(3, 2, "Red"), Piece(6, 3, "Yellow"), Piece(7, 8, "Red"), Piece(9, 4, "Yellow"), Piece(11, 2, "Red")),
         Hand(target=(0.55, -0.35), heading=200.0, height=60.0, rise=0.3, size=1.0, left=False, spread=0.4,
              curl=0.3, tone=(226, 173, 140), sleeve=(40, 60, 120), sleeve_at=80.0, motion=(0.0, 0.0))),
    # a webcam well off the board's middle: pieces lean far off their squares, most of a piece's colour past
    # the square it stands in
    Case("leaning", 104, ("Red", "Yellow", "Green"),
         (Piece(3, 4, "Red"), Piece(5, 7, "Yellow"), Piece(7, 10, "Green"), Piece(9, 7, "Red"), Piece(11, 3, "Yellow"),
          Piece(6, 9, "Yellow"), Piece(8, 8, "Red"), Piece(10, 5, "Green"), Piece(4, 6, "Green"), Piece(2, 2, "Red"),
          Piece(12, 2, "Green"))),
)


def render(case: Case) -> tuple[np.ndarray, np.ndarray]:
    """The case's empty board and its photo with the pieces (BGR)."""
    from sight import scene  # the renderer only to make the files: reading them (load) needs none of it

    layout = centred(HEIGHTS)
    table = scene.random_table(np.random.default_rng(case.seed), layout, size=(1280, 720))
    empty = scene.render(layout, [], table, scene.calm_shot())
    shot = dataclasses.replace(scene.calm_shot(), hand=case.hand, seed=case.seed)
    return empty, scene.render(layout, case.truth, table, shot)


def files(case: Case) -> tuple[Path, Path, Path]:
    return (FOLDER / f"{case.name}-empty.jpg", FOLDER / f"{case.name}.jpg", FOLDER / f"{case.name}.json")


def load(case: Case) -> tuple[np.ndarray, np.ndarray, tuple[Piece, ...], list[str]]:
    """A kept case as the camera gets it: the empty board's photo, the photo, its truth and the seats' colours."""
    empty_path, photo_path, truth_path = files(case)
    truth = json.loads(truth_path.read_text())
    pieces = tuple(Piece(c, k, kind) for c, k, kind in truth["truth"])
    return cv2.imread(str(empty_path)), cv2.imread(str(photo_path)), pieces, truth["colours"]


def main() -> None:
    FOLDER.mkdir(parents=True, exist_ok=True)
    for case in CASES:
        empty, photo = render(case)
        empty_path, photo_path, truth_path = files(case)
        for path, image in ((empty_path, empty), (photo_path, photo)):
            cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, QUALITY])
        truth_path.write_text(json.dumps({"colours": list(case.colours), "truth": [list(p) for p in case.truth],
                                          "hand": case.hand is not None}, indent=1) + "\n")
        print(f"{case.name}: {photo_path.stat().st_size // 1024} KB + {empty_path.stat().st_size // 1024} KB")


if __name__ == "__main__":
    main()
