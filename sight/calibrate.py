"""The camera set up from a photo of the empty board: what every later check reads against.

A :class:`Calibration` holds where the markers' corners lie on the board's
plane (:class:`sight.markers.Anchors`), the layout of the 83 spaces (a
standard one fitted to the board, or one placed from a person's taps on the
phone), and the empty board itself, straightened onto the plane with its
colours read against the markers' white and black: the look of every space
and of the board between them under the table's own light. It goes to JSON
(the store keeps it, so a restore brings it back) with the empty board as a
JPEG inside, about 150 kilobytes.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass

import cv2
import numpy as np

from . import grid, markers
from .layout import Layout
from .photometry import CLIP
from .raster import Raster, light

#: The JSON's own version: a later reader refuses what it does not know instead of misreading it.
VERSION = 1
#: A kept set-up's picture is refused beyond this (the store reads a fact of a megabyte at most).
MAX_PICTURE = 700_000
#: Below this, the fitted grid is not believed to have found the spaces (the fit's score, 0..1: how alike the
#: spaces look where it put them). Over 500 rendered set-ups, every fit that found the spaces scored 0.598 or more;
#: the two that scored under 0.5 had found nothing (a board blown out to white), 3 to 7 cm off.
FOUND = 0.5
#: A set-up photo with more of the board than this blown out to white: too bright to see the spaces in.
BLOWN = 0.3


#: What a refused set-up asks of the table, as the screen says it: the light, the corner tags, the spaces (clear
#: the board, the tags on its corners), or a board whose spaces only a person can place, on a paired phone.
KINDS = ("light", "markers", "spaces", "phone")


class CalibrationError(ValueError):
    """The photo cannot set the camera up: one line (why, and what to do) and its ``kind`` (:data:`KINDS`), which
    the box's screen says in the table's own language."""

    def __init__(self, why: str, kind: str = "spaces"):
        super().__init__(why)
        assert kind in KINDS, kind
        self.kind = kind


@dataclass(frozen=True)
class Calibration:
    """Everything a check reads a photo against."""

    layout: Layout
    anchors: markers.Anchors
    raster: Raster
    empty: np.ndarray  # the empty board on the raster, in the markers' white (float32, HxWx3, about 0..1)
    score: float = 0.0  # how well the layout fits the spaces (the grid's fit; 1 for one placed by taps)
    to_plane: np.ndarray | None = None  # the set-up photo's map to the plane (3x3): where a fixed camera sees it

    def to_json(self) -> dict:
        # the empty board as a JPEG of high quality: its loss (a grey level or two) is below the photo's own
        # noise, and it keeps a set-up near 150 KB where a PNG of a noisy photo took 500 (the store reads a
        # fact of a megabyte at most)
        jpeg = cv2.imencode(".jpg", np.clip(self.empty * 200, 0, 255).astype(np.uint8),
                           [cv2.IMWRITE_JPEG_QUALITY, 95])[1].tobytes()
        return {"version": VERSION, "layout": self.layout.to_json(), "anchors": self.anchors.to_json(),
                "raster": {"origin": list(self.raster.origin), "size": list(self.raster.size),
                           "scale": self.raster.scale},
                "empty": base64.b64encode(jpeg).decode("ascii"), "score": round(self.score, 4),
                **({"to_plane": [float(v) for v in self.to_plane.ravel()]} if self.to_plane is not None else {})}

    @classmethod
    def from_json(cls, raw) -> Calibration:
        """A calibration kept as JSON; ValueError (one line) when it is not one this version reads."""
        if not isinstance(raw, dict) or raw.get("version") != VERSION:
            raise ValueError("not a camera set-up this version reads: set the camera up again")
        try:
            layout = Layout.from_json(raw["layout"])
            anchors = markers.Anchors.from_json(raw["anchors"])
            r = raw["raster"]
            raster = Raster((float(r["origin"][0]), float(r["origin"][1])), (int(r["size"][0]), int(r["size"][1])),
                            float(r["scale"]))
            text = raw["empty"]
            if not isinstance(text, str) or len(text) > MAX_PICTURE * 4 // 3 + 4:
                raise ValueError("the empty board's picture is too big")
            image = cv2.imdecode(np.frombuffer(base64.b64decode(text, validate=True), np.uint8), cv2.IMREAD_COLOR)
            to_plane = _map(raw.get("to_plane"))
        except (KeyError, TypeError, IndexError, ValueError) as err:
            raise ValueError(f"not a camera set-up: {err}") from None
        if image is None or image.shape[1::-1] != raster.size:
            raise ValueError("not a camera set-up: the empty board's picture does not fit its raster")
        return cls(layout, anchors, raster, image.astype(np.float32) / 200, float(raw.get("score", 0.0)), to_plane)


def _map(raw) -> np.ndarray | None:
    """A kept 3x3 map (nine numbers), or None when the set-up kept none (one made before it was kept)."""
    if raw is None:
        return None
    if not isinstance(raw, list) or len(raw) != 9:
        raise ValueError("the set-up's map is not nine numbers")
    out = np.array([float(v) for v in raw], np.float64).reshape(3, 3)
    if not np.isfinite(out).all() or abs(np.linalg.det(out)) < 1e-12:
        raise ValueError("the set-up's map is not a map")
    return out


def canonical(straight: np.ndarray, raster: Raster, anchors: markers.Anchors) -> np.ndarray:
    """A straightened photo in the markers' white: 1 their paper, channel by channel (float32, NaN where no
    marker could say: every marker hidden). Their black is not taken off: a tag's ink catches glare and haze
    more than the paper does, and dark pieces are told by their chroma, not their depth."""
    lit = light(straight, raster, anchors)
    centres = {i: c.mean(axis=0) for i, c in anchors.corners.items()}
    white = lit.field(raster, centres)
    return straight.astype(np.float32) / np.maximum(white, 8.0)


def calibrate(photo: np.ndarray, heights: dict[int, int], like: Layout, *, fitted: bool = True,
              raster: Raster | None = None) -> Calibration:
    """The camera set up from ``photo`` of the empty board, all four markers in it.

    ``like`` is the layout to start from: a standard one, placed by the fit (``fitted``) where the board's spaces
    are, or one already placed (from taps on the phone), then kept as it is."""
    found = markers.find(photo, markers.nominal(like.markers, like.marker_mm))
    try:
        anchors = markers.anchors(found, like.markers)
    except markers.MarkersError as err:
        raise CalibrationError(str(err), err.kind) from None
    raster = raster or Raster.around(like.markers, like.marker_mm)
    to_plane = markers.plane_map(found, anchors)
    straight = raster.straighten(photo, to_plane)
    lit = light(straight, raster, anchors)
    if len(lit.white) < 3:
        raise CalibrationError("the markers' paper is not evenly lit: light the board evenly, without glare", "light")
    empty = canonical(straight, raster, anchors)
    if fitted:
        layout, score = grid.fit(straight, raster, heights, like)
        believed = grid.believable(layout, like)
        if score < FOUND or not believed:
            seen = raster.seen(photo.shape[1::-1], to_plane)
            if float((straight >= CLIP).all(axis=2)[seen].mean()) > BLOWN:
                raise CalibrationError("the board is lit too brightly: the camera sees white where its spaces are "
                                       "(dim the lamp or turn it away)", "light")
            if score < FOUND:
                raise CalibrationError("cannot find the board's spaces between the markers: "
                                       "is the board empty, and are the markers on its corners?", "spaces")
            # the board's own look drew the fit off its spaces (coloured lanes): a person places them
            raise CalibrationError("this board's look hides where its spaces are: "
                                   "mark each column's ends on a paired phone's camera page", "phone")
    else:
        layout, score = like, 1.0
    return Calibration(layout, anchors, raster, np.nan_to_num(empty, nan=0.0), score, to_plane)
