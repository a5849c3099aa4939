"""A hand over the board: an arm reaching in from outside the picture, above the pieces, casting its shadow.

The arm is built flat in its own frame (s along the arm towards the
fingertips, 0 at the middle finger's tip; w across, thumb side positive for a
right hand) out of capsules and trapezoids: fingers, thumb, palm, forearm and
upper arm, a sleeve perhaps. Each point is lifted to a height that grows from
the fingertips back to the shoulder, so the arm is a 3D thing the camera sees
in perspective: it hides what is under it, its shadow falls on the board
along the lamp's rays, blurred by its height, and it is shaded round (a
cylinder's light across each part) and blurred when it moves.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from .camera_model import Lens, Pose, project_polygon
from .light import Lamp
from .sensor import motion_kernel

#: Skin as photographed, light to dark (sRGB): a hand's tone is drawn between neighbours of this list.
SKIN = ((250, 221, 196), (240, 196, 166), (226, 173, 140), (204, 142, 108), (176, 116, 84), (141, 92, 64),
        (108, 70, 50), (82, 54, 40), (62, 42, 33))
_SHIFT = 4


@dataclass(frozen=True)
class Hand:
    """An arm reaching over the board; ``target`` is where the fingertips are, as fractions of the markers' span."""

    target: tuple[float, float]  # -1..1 across the board (x, y), fingertips over it
    heading: float  # degrees: the way the arm points, from outside the board towards the target
    height: float  # fingertips above the board (mm)
    rise: float  # how steeply the forearm climbs behind the hand (mm a mm)
    size: float  # 1: an adult's hand
    left: bool
    spread: float  # fingers apart (0 .. 1)
    curl: float  # fingers bent under (0 .. 1)
    tone: tuple[int, int, int]
    sleeve: tuple[int, int, int] | None
    sleeve_at: float  # where the sleeve starts, mm behind the wrist
    motion: tuple[float, float]  # a moving hand's blur: length (px) and direction (degrees)


def random_hand(rng: np.random.Generator) -> Hand:
    """A hand drawn at random: often over spaces, sometimes over a corner's marker."""
    if rng.random() < 0.3:
        corner = rng.choice([-1.0, 1.0], 2)
        target = tuple(float(c * rng.uniform(0.85, 1.1)) for c in corner)
    else:
        target = (float(rng.uniform(-0.85, 0.85)), float(rng.uniform(-0.85, 0.85)))
    t = rng.uniform(0, len(SKIN) - 1)
    i = int(min(t, len(SKIN) - 2))
    tone = np.array(SKIN[i]) * (1 - (t - i)) + np.array(SKIN[i + 1]) * (t - i)
    tone = np.clip(tone * rng.uniform(0.94, 1.06) + (rng.normal(0, 4), rng.normal(0, 3), rng.normal(0, 3)), 0, 255)
    sleeve = None
    if rng.random() < 0.55:
        sleeve = tuple(int(c) for c in rng.integers(20, 230, 3))
    moving = rng.random() < 0.5
    return Hand(
        target=target, heading=float(rng.uniform(0, 360)), height=float(rng.uniform(15, 110)),
        rise=float(rng.uniform(0.1, 0.5)), size=float(rng.uniform(0.85, 1.12)), left=bool(rng.random() < 0.15),
        spread=float(rng.uniform(0, 1)), curl=float(rng.uniform(0, 0.8)), tone=tuple(int(c) for c in tone),
        sleeve=sleeve, sleeve_at=float(rng.uniform(20, 200)),
        motion=(float(rng.uniform(2, 14)) if moving else 0.0, float(rng.uniform(0, 180))),
    )


# ---- the shape ------------------------------------------------------------------------


def _capsule(a, b, width: float, tip: float | None = None, n: int = 8) -> np.ndarray:
    """A finger: from ``a`` (``width`` wide) to ``b`` (``tip`` wide) with round ends, in the (s, w) frame."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    d = b - a
    ang = math.atan2(d[1], d[0])
    ra, rb = width / 2, (tip if tip is not None else width) / 2
    pts = [b + rb * np.array([math.cos(ang + t), math.sin(ang + t)]) for t in np.linspace(-np.pi / 2, np.pi / 2, n)]
    pts += [a + ra * np.array([math.cos(ang + t), math.sin(ang + t)]) for t in np.linspace(np.pi / 2, 3 * np.pi / 2, n)]
    return np.array(pts)


def _joints(hand: Hand) -> tuple[float, float, float]:
    """Where the knuckles, the wrist and the elbow are along the arm (s, mm; the fingertips at 0)."""
    k = hand.size
    knuckle = -82 * k * (1 - 0.45 * hand.curl)
    wrist = knuckle - 92 * k
    return knuckle, wrist, wrist - 260 * k


def parts(hand: Hand) -> list[tuple[str, np.ndarray]]:
    """The arm's pieces, back to front, as (name, polygon in the (s, w) frame, mm).

    Each piece lies in one plane (its height grows linearly along it): the upper arm and the sleeve
    over it start at the elbow, where the arm bends up towards the shoulder.
    """
    k = hand.size
    curl = 1 - 0.45 * hand.curl
    knuckle, wrist, elbow = _joints(hand)
    out = [
        ("upper", np.array([(elbow + 5, 46 * k), (elbow - 1600, 75 * k), (elbow - 1600, -75 * k), (elbow + 5, -46 * k)])),
        ("forearm", np.array([(wrist + 8, 30 * k), (elbow, 44 * k), (elbow, -44 * k), (wrist + 8, -30 * k)])),
        ("palm", np.array([(knuckle + 4, 40 * k), (knuckle - 40 * k, 43 * k), (wrist + 10 * k, 34 * k), (wrist, 28 * k),
                           (wrist, -28 * k), (wrist + 14 * k, -36 * k), (knuckle - 10 * k, -40 * k), (knuckle + 2, -38 * k)])),
    ]
    thumb_root = np.array([wrist + 35 * k, 32 * k])
    a = math.radians(28 + 30 * hand.spread)
    thumb_len = 62 * k * (1 - 0.3 * hand.curl)
    out.append(("thumb", _capsule(thumb_root, thumb_root + thumb_len * np.array([math.cos(a), math.sin(a)]), 23 * k, 18 * k)))
    fingers = ((25, -4, 74, 17, 7), (8, 0, 82, 18, 2), (-9, -3, 77, 17, -3), (-25, -10, 62, 15, -10))
    for w, back, length, width, angle in fingers:
        root = np.array([knuckle + back * k, w * k])
        ang = math.radians(angle * (0.3 + hand.spread))
        way = np.array([math.cos(ang), math.sin(ang)])
        tip = root + length * k * curl * way
        out.append(("finger", _capsule(root, tip, width * k, 0.8 * width * k)))
        if hand.curl < 0.6:  # the nail, on the back of the finger's last joint
            out.append(("nail", _capsule(tip - 13 * k * way, tip - 3 * k * way, 0.55 * width * k)))
    if hand.sleeve is not None:
        cuff = wrist - hand.sleeve_at
        cloth = [("sleeve", np.array([(min(cuff, elbow), 52 * k), (elbow - 1600, 84 * k), (elbow - 1600, -84 * k),
                                      (min(cuff, elbow), -52 * k)]))]
        if cuff > elbow:
            cloth.append(("sleeve", np.array([(cuff, 40 * k), (elbow, 52 * k), (elbow, -52 * k), (cuff, -40 * k)])))
        out[2:2] = cloth
    if hand.left:
        out = [(name, poly * (1, -1)) for name, poly in out]
    return out


def _world(hand: Hand, poly: np.ndarray, target, top: float) -> np.ndarray:
    """A part in the world: turned to the heading, put at the target, lifted along the arm."""
    h = math.radians(hand.heading)
    along, across = np.array([math.cos(h), math.sin(h)]), np.array([-math.sin(h), math.cos(h)])
    s, w = poly[:, 0], poly[:, 1]
    xy = np.asarray(target) + s[:, None] * along + w[:, None] * across
    back = np.clip(-s, 0, None)
    z = hand.height + hand.rise * back + np.clip(back + _joints(hand)[2], 0, None) * 1.2  # steeper past the elbow
    return np.c_[xy, np.minimum(z, top)]


# ---- drawing ----------------------------------------------------------------------------


def draw(img: np.ndarray, lens: Lens, pose: Pose, hand: Hand, target, lamp: Lamp, scale: float) -> None:
    """The hand's shadow, then the hand, into a linear picture (in place); ``scale``: pixels a mm on the board."""
    top = min(0.75 * float(pose.centre()[2]), 380.0)  # a shoulder is not much higher above the table
    shapes = [(name, _world(hand, poly, target, top)) for name, poly in parts(hand)]
    _shadow(img, lens, pose, shapes, lamp, scale, hand)
    h, w = img.shape[:2]
    layers = []
    for name, world in shapes:
        outline = project_polygon(lens, pose, world)
        if outline is not None:
            layers.append((name, outline))
    if not layers:
        return
    allpts = np.concatenate([o for _, o in layers])
    pad = int(hand.motion[0]) + 6
    x0, y0 = (np.floor(allpts.min(axis=0)) - pad).astype(int)
    x1, y1 = (np.ceil(allpts.max(axis=0)) + pad).astype(int)
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if x1 <= x0 or y1 <= y0:
        return
    colour = np.zeros((y1 - y0, x1 - x0, 3), np.float32)
    alpha = np.zeros((y1 - y0, x1 - x0), np.float32)
    rot = pose.rotation()
    towards = np.asarray(lamp.position, float) - np.r_[target, hand.height]
    towards /= np.linalg.norm(towards)
    skin = (np.asarray(hand.tone, np.float32) / 255) ** 2.2
    nail = np.clip(skin * np.array([1.15, 1.0, 1.0], np.float32) * 0.6 + 0.4 * np.array([0.85, 0.62, 0.6], np.float32), 0, 1)
    for name, outline in layers:
        lo = np.maximum(np.floor(outline.min(axis=0)).astype(int) - (x0, y0) - 2, 0)
        hi = np.minimum(np.ceil(outline.max(axis=0)).astype(int) - (x0, y0) + 3, (x1 - x0, y1 - y0))
        if (hi <= lo).any():
            continue
        mask = np.zeros((hi[1] - lo[1], hi[0] - lo[0]), np.uint8)
        pts = np.round((outline - (x0, y0) - lo) * (1 << _SHIFT)).astype(np.int32)
        cv2.fillPoly(mask, [pts], 255, cv2.LINE_AA, _SHIFT)
        albedo = {"sleeve": (np.asarray(hand.sleeve or (0, 0, 0), np.float32) / 255) ** 2.2,
                  "nail": nail}.get(name, skin)
        light = _round_light(mask, rot, towards, lamp)
        if name == "sleeve":  # cloth falls in folds
            light *= 1 + 0.18 * _folds(light.shape, hand)
        a = mask.astype(np.float32)[..., None] / 255
        rgb = light[..., None] * albedo
        if name != "sleeve":  # skin's warmth where the light is low (light through skin)
            rgb *= 1 + 0.12 * (1 - np.clip(light, 0, 1))[..., None] * np.array([0.6, -0.1, -0.3], np.float32)
        sub = (slice(lo[1], hi[1]), slice(lo[0], hi[0]))
        colour[sub] += (rgb - colour[sub]) * a
        alpha[sub] += (1 - alpha[sub]) * a[..., 0]
    premult = colour * alpha[..., None]
    premult = cv2.GaussianBlur(premult, (0, 0), 0.6)
    alpha = cv2.GaussianBlur(alpha, (0, 0), 0.6)
    if hand.motion[0] >= 1:
        kernel = motion_kernel(hand.motion[0], hand.motion[1])
        premult = cv2.filter2D(premult, -1, kernel)
        alpha = cv2.filter2D(alpha, -1, kernel)
    window = img[y0:y1, x0:x1]
    window *= 1 - alpha[..., None]
    window += premult


def _folds(shape, hand: Hand) -> np.ndarray:
    """A sleeve's folds: soft random light and shade, about unit spread."""
    rng = np.random.default_rng(int(hand.heading * 1000) % (2**31))
    small = rng.standard_normal((max(2, shape[0] // 25), max(2, shape[1] // 25))).astype(np.float32)
    return cv2.resize(small, (shape[1], shape[0]), interpolation=cv2.INTER_CUBIC)


def _round_light(mask: np.ndarray, rot: np.ndarray, towards: np.ndarray, lamp: Lamp) -> np.ndarray:
    """Light on a rounded part: its normal turns from facing the camera at the middle to sideways at the edges."""
    solid = (mask > 127).astype(np.uint8)
    if not solid.any():
        return np.zeros(mask.shape, np.float32)
    d = cv2.distanceTransform(solid, cv2.DIST_L2, 5)
    radius = max(2.0, float(d.max()))
    d = cv2.GaussianBlur(d, (0, 0), max(1.0, radius / 3))  # no ridge along the middle: a round arm, not a roof
    t = np.clip(d / radius, 0, 1)
    gx = cv2.Sobel(d, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(d, cv2.CV_32F, 0, 1, ksize=3)
    norm = np.sqrt(gx * gx + gy * gy) + 1e-6
    side = 1 - t  # 0 in the middle, 1 at the rim
    lateral = np.sqrt(np.clip(1 - (1 - side) ** 2, 0, 1))
    nx, ny = -gx / norm * lateral, -gy / norm * lateral
    nz = -np.sqrt(np.clip(1 - lateral ** 2, 0, 1))  # facing the camera
    normals = np.stack([nx, ny, nz], axis=-1) @ rot  # to the world
    diffuse = np.clip(normals @ towards.astype(np.float32), 0, None)
    up = np.clip(normals[..., 2], 0, None)
    return (lamp.ambient * (0.5 + 0.5 * up) + lamp.direct * diffuse).astype(np.float32)


def _shadow(img, lens, pose, shapes, lamp: Lamp, scale: float, hand: Hand) -> None:
    h, w = img.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    for _, world in shapes:
        towards = np.asarray(lamp.position, float) - world
        towards /= np.linalg.norm(towards, axis=1, keepdims=True)
        flat = world[:, :2] - world[:, 2:3] / np.maximum(towards[:, 2:3], 0.05) * towards[:, :2]
        outline = project_polygon(lens, pose, np.c_[flat, np.zeros(len(flat))])
        if outline is not None:
            cv2.fillPoly(mask, [np.round(outline * (1 << _SHIFT)).astype(np.int32)], 255, cv2.LINE_AA, _SHIFT)
    if not mask.any():
        return
    sigma = max(1.5, lamp.softness * (hand.height + 30) * scale)
    small = cv2.resize(mask, (w // 4, h // 4), interpolation=cv2.INTER_AREA)
    soft = cv2.resize(cv2.GaussianBlur(small, (0, 0), sigma / 4), (w, h), interpolation=cv2.INTER_LINEAR)
    share = lamp.direct * 0.8 / (lamp.ambient + lamp.direct * 0.8)
    near = 0.35 * math.exp(-hand.height / 80)  # the room's light, partly blocked by a hand close to the board
    dark = soft.astype(np.float32) / 255 * min(0.92, share + (1 - share) * near)
    img *= (1 - dark)[..., None]
