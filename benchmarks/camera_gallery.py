"""A contact sheet of virtual photos, for people to judge their realism: ``python -m benchmarks.camera_gallery DIR``.

Twelve shots (``--count``) of positions from played games, each at a table of
its own, every other one with a hand over the board; each is also written
whole (PNG of the decoded JPEG, as a reader gets it), and the sheet labels
every tile with its table's camera, edition and what the shot holds.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

from engine import HEIGHTS
from sight import scene
from sight.layout import centred

from .camera_positions import sample_positions

TILE = (640, 360)


def _label(table: scene.Table, shot: scene.Shot, pieces) -> str:
    lens, e = table.lens, table.edition
    extra = [f"{len(pieces)} pieces"]
    if shot.hand is not None:
        extra.append("hand")
    if shot.glare:
        extra.append(f"glare x{len(shot.glare)}")
    return (f"{lens.width}x{lens.height} {lens.fov:.0f}deg k1 {lens.k1:+.2f} | {e.material} {e.space_shape} {e.piece}"
            f" | {table.light.kelvin:.0f}K q{shot.exposure.quality} | " + ", ".join(extra))


def _tile(photo: np.ndarray, label: str) -> np.ndarray:
    w, h = TILE
    scale = min(w / photo.shape[1], h / photo.shape[0])
    small = cv2.resize(photo, (round(photo.shape[1] * scale), round(photo.shape[0] * scale)), interpolation=cv2.INTER_AREA)
    tile = np.full((h + 22, w, 3), 24, np.uint8)
    y, x = (h - small.shape[0]) // 2, (w - small.shape[1]) // 2
    tile[y:y + small.shape[0], x:x + small.shape[1]] = small
    cv2.putText(tile, label, (4, h + 15), cv2.FONT_HERSHEY_SIMPLEX, 0.36, (230, 230, 230), 1, cv2.LINE_AA)
    return tile


def gallery(folder: Path, count: int = 12, seed: int = 1, columns: int = 3) -> Path:
    """Write ``count`` shots and their contact sheet into ``folder``; the sheet's path."""
    folder.mkdir(parents=True, exist_ok=True)
    layout = centred(HEIGHTS)
    rng = np.random.default_rng(seed)
    tiles = []
    for i, (pieces, _colours) in enumerate(sample_positions(count, seed)):
        table = scene.random_table(rng, layout, runner="either")
        shot = scene.random_shot(rng, hand=i % 2 == 1)
        photo = scene.render(layout, pieces, table, shot)
        cv2.imwrite(str(folder / f"shot-{i:02d}.png"), photo)
        tiles.append(_tile(photo, _label(table, shot, pieces)))
    while len(tiles) % columns:
        tiles.append(np.zeros_like(tiles[0]))
    sheet = np.vstack([np.hstack(tiles[r:r + columns]) for r in range(0, len(tiles), columns)])
    path = folder / "contact-sheet.png"
    cv2.imwrite(str(path), sheet)
    return path


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, nargs="?", default=Path("build/camera-gallery"))
    parser.add_argument("--count", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(gallery(args.folder, args.count, args.seed))


if __name__ == "__main__":
    main()
