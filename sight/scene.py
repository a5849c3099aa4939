"""A board photographed virtually: a game night's table and camera, a photo's light and shake, the picture.

A :class:`Table` is what stays the same for a game night: the edition (board
and pieces), where the markers were stuck, the table under the board, the
camera's lens and place, the lamp, the camera's processing. A :class:`Shot`
is one photo's share of chance: the camera bumped a little, the light
drifted, glare, blur, noise, JPEG, perhaps a hand over the board.
:func:`render` draws ``pieces`` on ``layout`` as that table's camera sees
them in that shot: a BGR uint8 picture, as OpenCV gives a webcam's frame.
Everything follows from the seeds; nothing reads a clock or a global RNG.

>>> import numpy as np
>>> from .layout import centred
>>> lay = centred({2: 3, 3: 5, 4: 7, 5: 9, 6: 11, 7: 13, 8: 11, 9: 9, 10: 7, 11: 5, 12: 3})
>>> table = random_table(np.random.default_rng(1), lay, size=(640, 480))
>>> photo = render(lay, [(7, 1, "Red"), (7, 1, RUNNER)], table, calm_shot())
>>> photo.shape == (table.lens.height, table.lens.width, 3), photo.dtype.name
(True, 'uint8')
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from . import art, hand as hands, solids, tabletop
from .art import Edition, Stickers
from .camera_model import Lens, Pose, look_down, plane_map
from .camera_model import project as project_points
from .layout import RUNNER, Layout
from .light import Glare, Light, gains, glare, irradiance, vignetting
from .sensor import GAMMA, Exposure, Processing, colour_matrix, develop, jpeg, noise, optics
from .tabletop import Surface

__all__ = ["Table", "Shot", "random_table", "random_shot", "calm_shot", "render", "project", "camera", "sticker_corners",
           "RUNNER"]

#: Resolutions a webcam or a Pi camera is set to, and how often.
RESOLUTIONS = (((1280, 720), 0.7), ((640, 480), 0.15), ((1920, 1080), 0.15))
#: How much glare a board's surface gives, by material.
_SHEEN = {"plastic": 1.0, "wood": 0.6, "print": 0.45}


@dataclass(frozen=True)
class Table:
    """A game night's setting: edition, markers as stuck, table, camera (lens, place, processing), light."""

    edition: Edition
    stickers: Stickers
    surface: Surface
    lens: Lens
    pose: Pose
    light: Light
    processing: Processing
    seed: int  # how pieces stand on their spaces


@dataclass(frozen=True)
class Shot:
    """One photo: the camera bumped (degrees about its axes, mm), the light drifted, glare, sensor, a hand."""

    turn: tuple[float, float, float]
    shift: tuple[float, float, float]
    kelvin: float  # added to the table's light
    brightness: float  # times the table's exposure
    lamp: tuple[float, float, float]  # the lamp moved (mm)
    glare: tuple[Glare, ...]
    exposure: Exposure
    hand: hands.Hand | None
    seed: int  # the sensor's noise


# ---- a table -------------------------------------------------------------------------------


def random_table(rng: np.random.Generator, layout: Layout, runner: str = "white",
                 size: tuple[int, int] | None = None) -> Table:
    """A game night drawn at random: edition, stickers, table, camera, light.

    ``runner``: "white", "black", or "either" (now and then black, as some editions have them);
    ``size``: the camera's (width, height), else one of :data:`RESOLUTIONS` at random.
    """
    edition = art.random_edition(rng)
    if runner != "either":  # (else the edition's own: black about one time in ten)
        edition = art.with_runner(edition, runner)
    stickers = art.random_stickers(rng)
    surface = tabletop.random_surface(rng)
    lens = _random_lens(rng, size)
    half = art.board_half(layout, edition)
    pose = _frame(lens, half, tilt=float(rng.uniform(0, 35)), azimuth=float(rng.uniform(0, 360)),
                  roll=float(rng.uniform(0, 360)), fill=float(rng.uniform(0.45, 0.85)), slack=rng.uniform(-0.7, 0.7, 2))
    light = _random_light(rng, half)
    processing = Processing(balance=float(rng.uniform(0.55, 0.95)), grey_world=float(rng.uniform(0, 0.5)),
                            contrast=float(rng.uniform(0, 0.3)), saturation=float(rng.uniform(0.85, 1.25)),
                            sharpen=float(rng.uniform(0, 0.7)), fringe=float(rng.uniform(0, 0.0015)))
    return Table(edition, stickers, surface, lens, pose, light, processing, int(rng.integers(2**31)))


def _random_lens(rng: np.random.Generator, size: tuple[int, int] | None) -> Lens:
    sizes, weights = zip(*RESOLUTIONS)
    pick = sizes[int(rng.choice(len(sizes), p=weights))]
    width, height = size or pick
    while True:
        fov = float(rng.uniform(55, 80))
        k1 = float(-0.3 + 0.4 * rng.beta(2.0, 2.2))
        k2 = float(rng.uniform(-0.02, 0.08))
        p = rng.normal(0, 0.0008, 2)
        lens = Lens(width, height, fov, k1, k2, float(p[0]), float(p[1]),
                    (float(rng.normal(0, 0.01)), float(rng.normal(0, 0.01))))
        if lens.is_monotonic():
            return lens


def _outline(half) -> np.ndarray:
    hx, hy = half
    t = np.linspace(-1, 1, 11)
    one = np.ones_like(t)
    sides = [np.c_[t * hx, -hy * one], np.c_[hx * one, t * hy], np.c_[-t * hx, hy * one], np.c_[-hx * one, -t * hy]]
    return np.concatenate(sides)


def _frame(lens: Lens, half, tilt: float, azimuth: float, roll: float, fill: float, slack) -> Pose:
    """The camera's place: looking at the board from ``tilt`` off vertical, the board's outline filling
    ``fill`` of the frame (its larger share of width or height), shifted by ``slack`` of the room left."""
    edge = _outline(half)
    size = np.array([lens.width, lens.height], float)
    target = np.zeros(2)
    distance = max(half) * 2 / fill / (2 * math.tan(math.radians(lens.fov) / 2)) * 1.5
    for _ in range(12):
        pose = look_down(tuple(target), distance, tilt, azimuth, roll)
        pts = project_points(lens, pose, edge)
        lo, hi = pts.min(axis=0), pts.max(axis=0)
        distance *= float(((hi - lo) / size).max()) / fill
        pose = look_down(tuple(target), distance, tilt, azimuth, roll)
        pts = project_points(lens, pose, edge)
        lo, hi = pts.min(axis=0), pts.max(axis=0)
        miss = size / 2 + (size - (hi - lo)) / 2 * np.asarray(slack) - (hi + lo) / 2
        base = project_points(lens, pose, np.zeros((1, 2)))[0]
        step = np.zeros((2, 2))
        for i in range(2):
            moved = look_down(tuple(target + np.eye(2)[i]), distance, tilt, azimuth, roll)
            step[:, i] = project_points(lens, moved, np.zeros((1, 2)))[0] - base
        target = target + np.linalg.solve(step, miss)
        if np.abs(miss).max() < 0.05:
            break
    return look_down(tuple(target), distance, tilt, azimuth, roll)


def _random_light(rng: np.random.Generator, half) -> Light:
    hx, hy = half
    corners = np.array([(-hx, -hy), (hx, -hy), (hx, hy), (-hx, hy), (0.0, 0.0)])
    window = bool(rng.random() < 0.25)
    ambient = float(rng.uniform(0.25, 0.8))
    if window:
        az, el = rng.uniform(0, 2 * np.pi), math.radians(rng.uniform(25, 65))
        far = 1e6
        lamp = (far * math.cos(el) * math.cos(az), far * math.cos(el) * math.sin(az), far * math.sin(el))
        reach = 0.33 / math.hypot(hx, hy)
        slope = (float(-math.cos(az) * reach * rng.uniform(0, 1)), float(-math.sin(az) * reach * rng.uniform(0, 1)))
        softness = float(rng.uniform(0.08, 0.3))
    else:
        az = rng.uniform(0, 2 * np.pi)
        off = rng.uniform(0, 700)
        height = float(rng.uniform(350, 1400))
        slope = (0.0, 0.0)
        softness = float(rng.uniform(0.03, 0.15))
        while True:
            lamp = (float(off * math.cos(az)), float(off * math.sin(az)), height)
            probe = Light(5000, 1, lamp, ambient, softness, False, slope, 0.0)
            e = irradiance(probe, corners[:, 0], corners[:, 1])
            if e.max() / e.min() <= 2.0:
                break
            height *= 1.15
    return Light(kelvin=float(rng.uniform(2700, 6500)), exposure=float(2 ** rng.uniform(-0.6, 0.5)),
                 lamp=tuple(float(v) for v in lamp), ambient=ambient, softness=softness, window=window,  # type: ignore[arg-type]
                 slope=slope, vignette=float(rng.uniform(0, 0.35)))


# ---- a shot --------------------------------------------------------------------------------


def random_shot(rng: np.random.Generator, hand: bool = False) -> Shot:
    """One photo's chance: a small bump of the camera, the light's drift, glare (about 3 in 10), blur,
    noise, JPEG at quality 50..95, and a hand over the board if ``hand``."""
    spots: tuple[Glare, ...] = ()
    if rng.random() < 0.3:
        spots = tuple(_random_glare(rng) for _ in range(int(rng.integers(1, 3))))
    motion = (float(rng.uniform(1, 5)), float(rng.uniform(0, 180))) if rng.random() < 0.12 else (0.0, 0.0)
    exposure = Exposure(blur=float(0.2 + 1.3 * rng.beta(1.6, 3.0)), motion=motion, read_noise=float(rng.uniform(0.001, 0.006)),
                        shot_noise=float(rng.uniform(0.0001, 0.0012)), quality=int(rng.integers(50, 96)))
    return Shot(
        turn=tuple(float(v) for v in np.clip(rng.normal(0, 0.5, 3), -1, 1)),  # type: ignore[arg-type]
        shift=tuple(float(v) for v in np.clip(rng.normal(0, 1.0, 3), -2, 2)),  # type: ignore[arg-type]
        kelvin=float(rng.normal(0, 150)), brightness=float(rng.uniform(0.9, 1.1)),
        lamp=tuple(float(v) for v in rng.normal(0, 20, 3)),  # type: ignore[arg-type]
        glare=spots, exposure=exposure, hand=hands.random_hand(rng) if hand else None, seed=int(rng.integers(2**31)),
    )


def _random_glare(rng: np.random.Generator) -> Glare:
    a = float(rng.uniform(8, 45))
    return Glare(float(rng.uniform(-1, 1)), float(rng.uniform(-1, 1)), a, a * float(rng.uniform(0.3, 1.0)),
                 float(rng.uniform(0, 180)), float(rng.uniform(0.6, 3.0)))


def calm_shot() -> Shot:
    """The calibration photo's conditions: the camera as placed, the table's light, no glare, no hand."""
    return Shot((0.0, 0.0, 0.0), (0.0, 0.0, 0.0), 0.0, 1.0, (0.0, 0.0, 0.0), (),
                Exposure(blur=0.5, motion=(0.0, 0.0), read_noise=0.004, shot_noise=0.0006, quality=90), None, 0)


# ---- the picture ---------------------------------------------------------------------------


def camera(table: Table, shot: Shot) -> tuple[Lens, Pose]:
    """The lens and the camera's place for this shot (the table's, bumped)."""
    return table.lens, table.pose.nudged(shot.turn, shot.shift)


def project(table: Table, shot: Shot, points) -> np.ndarray:
    """Where plane points (N, 2) mm, or world points (N, 3), land in the shot's picture: (N, 2) pixels."""
    lens, pose = camera(table, shot)
    return project_points(lens, pose, points)


def sticker_corners(layout: Layout, table: Table) -> np.ndarray:
    """The four markers' black squares where they were stuck: (4, 4, 2) plane points, ArUco's corner order."""
    return art.sticker_corners(layout, table.stickers)


def _span(layout: Layout) -> tuple[float, float]:
    return (max(abs(m[0]) for m in layout.markers), max(abs(m[1]) for m in layout.markers))


def _art_ppm(table: Table, layout: Layout) -> float:
    """The board's drawing resolution: a little finer than the camera sees its nearest part, in 0.5 steps."""
    hx, hy = art.board_half(layout, table.edition)
    pts = np.array([(x, y) for x in (-hx, 0, hx) for y in (-hy, 0, hy)])
    a = project_points(table.lens, table.pose, pts)
    b = project_points(table.lens, table.pose, pts + (1.0, 0.0))
    c = project_points(table.lens, table.pose, pts + (0.0, 1.0))
    scale = max(np.linalg.norm(b - a, axis=1).max(), np.linalg.norm(c - a, axis=1).max())
    return float(np.clip(math.ceil(scale * 1.4 * 2) / 2, 2.0, 5.0))


_LINEAR = ((np.arange(256) / 255.0) ** GAMMA).astype(np.float32)


def render(layout: Layout, pieces, table: Table, shot: Shot) -> np.ndarray:
    """The photo: ``pieces`` (``Piece``s or ``(column, step, kind)``) on the board, H x W x 3 uint8, BGR."""
    lens, pose = camera(table, shot)
    light = table.light.drifted(shot.kelvin, shot.brightness, shot.lamp)
    lamp = light.lamp_for_pieces()
    x, y = plane_map(lens, pose)
    img = _board(layout, table, light, x, y)
    placed = solids.place(layout, pieces, table.edition, table.seed)
    scale = _pixels_per_mm(lens, pose)
    if placed:
        solids.shadows(img, lens, pose, placed, table.edition.piece, lamp)
        solids.draw(img, lens, pose, placed, table.edition.piece, lamp, table.edition.gloss)
    if shot.glare:
        sheen = _SHEEN.get(table.edition.material, 0.6)
        half = glare(shot.glare, x[::2, ::2], y[::2, ::2], _span(layout)) * sheen  # smooth: half resolution will do
        img += cv2.resize(half, (lens.width, lens.height), interpolation=cv2.INTER_LINEAR)[..., None]
    if shot.hand is not None:
        sx, sy = _span(layout)
        target = (shot.hand.target[0] * sx, shot.hand.target[1] * sy)
        hands.draw(img, lens, pose, shot.hand, target, lamp, scale)
    proc = table.processing
    seen = cv2.mean(img[::8, ::8])  # what the camera's automatic exposure and white balance measure
    img = cv2.transform(img, colour_matrix(gains(light, proc.balance, proc.grey_world, seen), proc.saturation))
    img = optics(img, shot.exposure)
    img = noise(img, shot.exposure, np.random.default_rng(shot.seed))
    shading = vignetting(lens, round(light.vignette, 3), GAMMA) if light.vignette > 0.005 else None
    centre = (float(lens.matrix()[0, 2]), float(lens.matrix()[1, 2]))
    return jpeg(cv2.cvtColor(develop(img, proc, shading, centre), cv2.COLOR_RGB2BGR), shot.exposure.quality)


def _board(layout: Layout, table: Table, light: Light, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The board and the table around it in linear light, lit by the lamp (no pieces yet)."""
    board = art.board_texture(layout, table.edition, table.stickers, _art_ppm(table, layout))
    half = art.board_half(layout, table.edition)
    towards = np.asarray(table.light.lamp, float) / np.linalg.norm(table.light.lamp)
    drop = 4.0 / max(0.2, towards[2])  # the board's thickness casts a rim of shadow away from the lamp
    under = tabletop.table_texture(table.surface, half, (float(-towards[0] * drop), float(-towards[1] * drop)))
    bx, by = _texture_map(board, x, y)
    rgba = cv2.remap(board.image, bx, by, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    tx, ty = _texture_map(under, x, y)
    around = cv2.remap(under.image, tx, ty, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    weight = cv2.extractChannel(rgba, 3).astype(np.float32) * np.float32(1 / 255)
    rgb = cv2.cvtColor(rgba, cv2.COLOR_RGBA2RGB)
    mixed = cv2.blendLinear(rgb, cv2.cvtColor(around, cv2.COLOR_RGBA2RGB), weight, 1 - weight)
    img = cv2.LUT(mixed, _LINEAR)
    lit = irradiance(light, x[::4, ::4], y[::4, ::4])
    field = cv2.resize(lit, (x.shape[1], x.shape[0]), interpolation=cv2.INTER_LINEAR)
    img *= field[..., None]
    return img


def _texture_map(tex: art.Texture, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:meth:`art.Texture.to_pixels` for whole plane maps, at OpenCV's speed."""
    col = cv2.addWeighted(x, tex.ppm, x, 0.0, -tex.x0 * tex.ppm - 0.5)
    row = cv2.addWeighted(y, -tex.ppm, y, 0.0, tex.y1 * tex.ppm - 0.5)
    return col, row


def _pixels_per_mm(lens: Lens, pose: Pose) -> float:
    a, b = project_points(lens, pose, np.array([[0.0, 0.0], [10.0, 0.0]]))
    return float(np.linalg.norm(b - a)) / 10
