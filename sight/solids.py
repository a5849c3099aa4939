"""The pieces as solids: placed on their spaces, shaded by the lamp, cast soft shadows, drawn far to near.

A piece stands on the board's plane (z = 0) with its base centred where
:func:`place` puts it: the space's centre, or one of up to five slots when
several pieces share a space, a millimetre or so off as a hand leaves it.
Its vertices go through the camera (:mod:`.camera_model`), so a tall piece
leans away from the image's centre; each visible face is filled with its
Lambertian shade plus the plastic's highlight, drawn four times finer than
the picture and shrunk (smooth edges). Pieces are drawn farthest first.
"""

from __future__ import annotations

import functools
import math
import zlib
from typing import NamedTuple

import cv2
import numpy as np

from .art import Edition
from .camera_model import Lens, Pose, project
from .layout import RUNNER, Layout, Piece
from .light import Lamp

SEGMENTS = 24  # facets around a round piece
_SUPER = 4  # drawn this many times finer, then shrunk
_SHIFT = 4


class Placed(NamedTuple):
    """A piece where it stands: base centre (mm), turn (radians), size (mm) and plastic (linear RGB)."""

    x: float
    y: float
    yaw: float
    width: float
    height: float
    albedo: tuple[float, float, float]


def linear(rgb) -> tuple[float, float, float]:
    """sRGB 0..255 to linear light 0..1 (power 2.2)."""
    return tuple((c / 255.0) ** 2.2 for c in rgb)  # type: ignore[return-value]


# ---- where the pieces stand ---------------------------------------------------------

#: Slots on a space for 1..5 pieces, in units of the slot spacing.
_SLOTS = {
    1: ((0.0, 0.0),),
    2: ((-0.5, 0.0), (0.5, 0.0)),
    3: ((-0.5, -0.4), (0.5, -0.4), (0.0, 0.45)),
    4: ((-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5), (0.5, 0.5)),
    5: ((-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5), (0.5, 0.5), (0.0, 0.0)),
}


def place(layout: Layout, pieces, edition: Edition, seed: int) -> list[Placed]:
    """Each piece's stand: shared spaces split into slots, every piece a little off and turned at random.

    The same pieces on the same table stand the same way (``seed`` and the pieces pick the offsets).
    """
    key = repr(sorted(tuple(p) for p in pieces)).encode()
    rng = np.random.default_rng([seed, zlib.crc32(key)])
    spaces: dict[tuple[int, int], list[Piece]] = {}
    for p in pieces:
        p = Piece(*p)
        layout.column(p.column).at(p.step)  # ValueError for a space the board has not
        spaces.setdefault((p.column, p.step), []).append(p)
    out = []
    for (column, step), here in sorted(spaces.items()):
        col = layout.column(column)
        cx, cy = col.at(step)
        order = list(rng.permutation(len(here)))
        slots = _SLOTS[min(5, len(here))]
        for slot_index, piece_index in enumerate(order):
            piece = here[piece_index]
            size = edition.runner_mm if piece.kind == RUNNER else edition.piece_mm
            dx = min(size[0] * 1.05, layout.space[0] * 0.75)
            dy = min(size[0] * 1.05, col.pitch() * 0.75)
            sx, sy = slots[slot_index % len(slots)]
            if slot_index >= 5:  # a sixth piece and more: somewhere in between
                sx, sy = rng.uniform(-0.5, 0.5, 2)
            jitter = rng.normal(0, 0.35 if len(here) == 1 else 0.6, 2) * min(3.0, size[0] * 0.15)
            colour = edition.runner if piece.kind == RUNNER else edition.colour(piece.kind)
            out.append(Placed(cx + sx * dx + jitter[0], cy + sy * dy + jitter[1], float(rng.uniform(0, 2 * np.pi)),
                              size[0], size[1], linear(colour)))
    return out


# ---- the solids ------------------------------------------------------------------------


@functools.lru_cache(maxsize=16)
def _mesh(shape: str, width: float, height: float) -> tuple[np.ndarray, tuple[np.ndarray, ...], tuple | None]:
    """A solid's vertices (base centred at the origin), its faces (outward, counter-clockwise) and a ball (centre z, r)."""
    r = width / 2
    ring = np.linspace(0, 2 * np.pi, SEGMENTS, endpoint=False)
    if shape in ("pyramid", "cube"):
        corners = np.array([(r, r), (-r, r), (-r, -r), (r, -r)])
        if shape == "pyramid":
            verts = np.vstack([np.c_[corners, np.zeros(4)], [(0.0, 0.0, height)]])
            return verts, tuple(np.array([i, (i + 1) % 4, 4]) for i in range(4)), None
        verts = np.vstack([np.c_[corners, np.zeros(4)], np.c_[corners, np.full(4, height)]])
        sides = tuple(np.array([i, (i + 1) % 4, 4 + (i + 1) % 4, 4 + i]) for i in range(4))
        return verts, sides + (np.arange(4, 8),), None
    base = np.c_[r * np.cos(ring), r * np.sin(ring), np.zeros(SEGMENTS)]
    n = SEGMENTS
    if shape == "cone":
        verts = np.vstack([base, [(0.0, 0.0, height)]])
        return verts, tuple(np.array([i, (i + 1) % n, n]) for i in range(n)), None
    top_r, top_z, ball = r, height, None
    if shape == "pawn":
        ball_r = r * 0.62
        top_r, top_z = r * 0.45, height - 1.6 * ball_r
        ball = (height - ball_r, ball_r)
    top = np.c_[top_r * np.cos(ring), top_r * np.sin(ring), np.full(n, top_z)]
    verts = np.vstack([base, top])
    sides = tuple(np.array([i, (i + 1) % n, n + (i + 1) % n, n + i]) for i in range(n))
    return verts, sides + (np.arange(n, 2 * n),), ball


def _solid(shape: str, p: Placed):
    verts, faces, ball = _mesh(shape, round(p.width, 2), round(p.height, 2))
    c, s = math.cos(p.yaw), math.sin(p.yaw)
    world = verts @ np.array([[c, s, 0], [-s, c, 0], [0, 0, 1]]) + (p.x, p.y, 0.0)
    return world, faces, ball


def _towards(lamp: Lamp, point) -> tuple[np.ndarray, float]:
    """The unit vector from ``point`` to the lamp, and the lamp's falloff there (1 at the board's centre)."""
    d = np.asarray(lamp.position) - point
    dist = float(np.linalg.norm(d))
    return d / dist, (lamp.reference / dist) ** 2


def draw(image: np.ndarray, lens: Lens, pose: Pose, placed: list[Placed], shape: str, lamp: Lamp, gloss: float) -> None:
    """Draw the pieces into ``image`` (linear RGB, float32, H x W x 3), farthest from the camera first."""
    centre = pose.centre()
    order = sorted(placed, key=lambda p: -np.linalg.norm(centre - (p.x, p.y, p.height / 2)))
    for p in order:
        _draw_one(image, lens, pose, p, shape, lamp, gloss, centre)


def _shades(p: Placed, normals: np.ndarray, points: np.ndarray, lamp: Lamp, gloss: float, eye) -> np.ndarray:
    """Each face's colour (F, 3): the room's light, the lamp's by Lambert, and the plastic's highlight."""
    towards = np.asarray(lamp.position) - points
    dist = np.linalg.norm(towards, axis=1, keepdims=True)
    towards /= dist
    falloff = (lamp.reference / dist[:, 0]) ** 2
    diffuse = np.clip(np.einsum("ij,ij->i", normals, towards), 0, None)
    light = lamp.ambient * (0.55 + 0.45 * np.clip(normals[:, 2], 0, None)) + lamp.direct * diffuse * falloff
    view = eye - points
    half = towards + view / np.linalg.norm(view, axis=1, keepdims=True)
    half /= np.linalg.norm(half, axis=1, keepdims=True)
    spec = np.clip(np.einsum("ij,ij->i", normals, half), 0, None) ** 40 * gloss * 0.5 * lamp.direct * falloff
    return np.asarray(p.albedo)[None, :] * light[:, None] + spec[:, None]


def _draw_one(image, lens, pose, p: Placed, shape, lamp, gloss, eye) -> None:
    world, faces, ball = _solid(shape, p)
    pts = project(lens, pose, world)
    extra = None
    if ball is not None:
        bc = np.array([p.x, p.y, ball[0]])
        c2 = project(lens, pose, bc[None])[0]
        side = np.cross(bc - eye, (0.0, 0.0, 1.0))
        side = side / (np.linalg.norm(side) + 1e-9) * ball[1]
        radius = float(np.linalg.norm(project(lens, pose, (bc + side)[None])[0] - c2))
        extra = (bc, c2, radius)
    lo = np.floor(pts.min(axis=0)) - 2
    hi = np.ceil(pts.max(axis=0)) + 3
    if extra is not None:
        lo = np.minimum(lo, np.floor(extra[1] - extra[2]) - 2)
        hi = np.maximum(hi, np.ceil(extra[1] + extra[2]) + 3)
    h, w = image.shape[:2]
    x0, y0 = int(max(0, lo[0])), int(max(0, lo[1]))
    x1, y1 = int(min(w, hi[0])), int(min(h, hi[1]))
    if x1 <= x0 or y1 <= y0:
        return
    pw, ph = (x1 - x0) * _SUPER, (y1 - y0) * _SUPER
    colour = np.zeros((ph, pw, 3), np.float32)
    alpha = np.zeros((ph, pw), np.float32)
    local = np.round(((pts - (x0, y0)) * _SUPER + (_SUPER - 1) / 2) * (1 << _SHIFT)).astype(np.int32)
    corners = np.array([f[:3] for f in faces])
    a, b, c = world[corners[:, 0]], world[corners[:, 1]], world[corners[:, 2]]
    normals = np.cross(b - a, c - a)
    normals /= np.linalg.norm(normals, axis=1, keepdims=True)
    mids = np.array([world[f].mean(axis=0) for f in faces])
    seen = np.einsum("ij,ij->i", normals, eye - mids) > 0
    rgbs = _shades(p, normals[seen], mids[seen], lamp, gloss, eye)
    for face, rgb in zip((f for f, v in zip(faces, seen) if v), rgbs):
        cv2.fillPoly(colour, [local[face]], (float(rgb[0]), float(rgb[1]), float(rgb[2])), cv2.LINE_8, _SHIFT)
        cv2.fillPoly(alpha, [local[face]], 1.0, cv2.LINE_8, _SHIFT)
    if extra is not None:
        _ball(colour, alpha, p, extra, (x0, y0), pose, lamp, gloss, eye)
    colour = cv2.resize(colour, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
    alpha = cv2.resize(alpha, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)[..., None]
    window = image[y0:y1, x0:x1]
    window *= 1 - alpha
    window += colour


def _ball(colour, alpha, p: Placed, extra, origin, pose: Pose, lamp: Lamp, gloss: float, eye) -> None:
    """A pawn's head: a sphere shaded pixel by pixel (its outline seen as a circle)."""
    centre, c2, radius = extra
    ph, pw = alpha.shape
    ys, xs = np.mgrid[0:ph, 0:pw].astype(np.float32)
    dx = ((xs - (_SUPER - 1) / 2) / _SUPER + origin[0] - c2[0]) / radius
    dy = ((ys - (_SUPER - 1) / 2) / _SUPER + origin[1] - c2[1]) / radius
    d2 = dx * dx + dy * dy
    inside = d2 < 1
    nz = -np.sqrt(np.clip(1 - d2, 0, 1))
    normals = np.stack([dx, dy, nz], axis=-1) @ pose.rotation()  # camera frame to world
    towards, falloff = _towards(lamp, centre)
    diffuse = np.clip(normals @ towards, 0, None)
    light = lamp.ambient * (0.55 + 0.45 * np.clip(normals[..., 2], 0, None)) + lamp.direct * diffuse * falloff
    view = (eye - centre) / np.linalg.norm(eye - centre)
    half = (towards + view) / np.linalg.norm(towards + view)
    spec = np.clip(normals @ half, 0, None) ** 40 * gloss * 0.5 * lamp.direct * falloff
    rgb = light[..., None] * np.asarray(p.albedo, np.float32) + spec[..., None]
    colour[inside] = rgb[inside]
    alpha[inside] = 1.0


# ---- shadows ----------------------------------------------------------------------------


def shadows(image: np.ndarray, lens: Lens, pose: Pose, placed: list[Placed], shape: str, lamp: Lamp) -> None:
    """Darken the board (a linear picture, in place) where the pieces keep the lamp's light off it.

    Each piece's outline is cast along the lamp's rays onto the plane and blurred by the lamp's size;
    and a contact shadow at its foot, where even the room's light hardly reaches.
    """
    if not placed:
        return
    casts, feet, tallest = [], [], 0.0
    for p in placed:
        world, _, ball = _solid(shape, p)
        if ball is not None:
            a = np.linspace(0, 2 * np.pi, 12, endpoint=False)
            ring = np.c_[p.x + ball[1] * np.cos(a), p.y + ball[1] * np.sin(a), np.full(12, ball[0])]
            world = np.vstack([world, ring, [(p.x, p.y, ball[0] + ball[1])]])
        towards, _ = _towards(lamp, np.array([p.x, p.y, 0.0]))
        flat = world[:, :2] - world[:, 2:3] / towards[2] * towards[:2]
        casts.append(project(lens, pose, cv2.convexHull(flat.astype(np.float32)).reshape(-1, 2)))
        base = world[world[:, 2] < 1e-6][:, :2]
        ring = (base - (p.x, p.y)) * 1.18 + (p.x, p.y)
        feet.append(project(lens, pose, ring[cv2.convexHull(ring.astype(np.float32), returnPoints=False).ravel()]))
        tallest = max(tallest, p.height)
    scale = _pixels_per_mm(lens, pose)
    sigma = max(0.6, lamp.softness * tallest * 0.6 * scale)
    foot_sigma = max(0.6, 0.8 * scale)
    h, w = image.shape[:2]
    allpts = np.concatenate(casts + feet)
    pad = int(3 * max(sigma, foot_sigma)) + 2
    x0, y0 = np.maximum(np.floor(allpts.min(axis=0)).astype(int) - pad, 0)
    x1, y1 = np.minimum(np.ceil(allpts.max(axis=0)).astype(int) + pad, (w, h))
    if x1 <= x0 or y1 <= y0:
        return
    cast = np.zeros((y1 - y0, x1 - x0), np.uint8)
    foot = np.zeros_like(cast)
    for pts in casts:
        _fill(cast, pts - (x0, y0))
    for pts in feet:
        _fill(foot, pts - (x0, y0))
    cast_f = cv2.GaussianBlur(cast, (0, 0), sigma).astype(np.float32) / 255
    foot_f = cv2.GaussianBlur(foot, (0, 0), foot_sigma).astype(np.float32) / 255
    towards, _ = _towards(lamp, np.zeros(3))
    lamp_share = lamp.direct * towards[2] / (lamp.ambient + lamp.direct * towards[2])
    dark = np.clip(lamp_share * cast_f + 0.3 * (1 - lamp_share) * foot_f, 0, 0.95)
    image[y0:y1, x0:x1] *= (1 - dark)[..., None]


def _fill(mask: np.ndarray, pts: np.ndarray) -> None:
    cv2.fillPoly(mask, [np.round(pts * (1 << _SHIFT)).astype(np.int32)], 255, cv2.LINE_AA, _SHIFT)


def _pixels_per_mm(lens: Lens, pose: Pose) -> float:
    a, b = project(lens, pose, np.array([[0.0, 0.0], [10.0, 0.0]]))
    return float(np.linalg.norm(b - a)) / 10
