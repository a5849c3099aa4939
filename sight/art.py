"""The board as printed: an edition's look drawn flat on the board's plane, markers stuck on by hand.

An :class:`Edition` is one publisher's board and pieces (material, colours, the
spaces' shape, the print, the pieces' solid and plastic), drawn by
:func:`board_texture` on the plane of :mod:`.layout` at a few pixels a
millimetre, with the four ArUco markers printed on off-white paper where
:class:`Stickers` says a hand put them. Colours are sRGB, 0..255, in
RGB order (the renderer turns them to OpenCV's BGR at the end).
"""

from __future__ import annotations

import colorsys
import functools
import math
from dataclasses import dataclass

import cv2
import numpy as np

from .layout import Layout

RGB = tuple[int, int, int]
#: The seats' colours an edition makes pieces in (a piece's kind is one of these, or the runner).
SEAT_COLOURS = ("Red", "Blue", "Green", "Yellow", "Orange", "Purple")
#: Each colour's plastic as editions make it: hue range (degrees), saturation range, value range.
_PLASTIC = {
    "Red": ((-12.0, 8.0), (0.72, 0.95), (0.55, 0.9)),
    "Blue": ((200.0, 232.0), (0.6, 0.95), (0.4, 0.85)),
    "Green": ((95.0, 150.0), (0.55, 0.9), (0.38, 0.75)),
    "Yellow": ((44.0, 56.0), (0.75, 0.97), (0.85, 1.0)),
    "Orange": ((18.0, 32.0), (0.8, 1.0), (0.85, 1.0)),
    "Purple": ((262.0, 295.0), (0.42, 0.8), (0.32, 0.68)),
}
#: Boards as they are sold: (material, colour).
_BOARDS = (
    ("plastic", (170, 28, 30)), ("plastic", (25, 40, 95)), ("wood", (205, 165, 112)),
    ("plastic", (22, 22, 24)), ("print", (232, 222, 196)), ("print", (38, 92, 64)),
    ("wood", (120, 78, 44)), ("print", (92, 128, 176)), ("plastic", (226, 224, 218)),
)
#: Each solid's base width range (mm) and height as a multiple of it.
_PIECE_WIDTH = {"pyramid": (11.0, 14.5), "cone": (10.0, 13.0), "cylinder": (9.0, 11.0), "pawn": (10.0, 12.0), "cube": (8.0, 10.0)}
_PIECE_TALL = {"pyramid": 1.15, "cone": 1.4, "cylinder": 1.25, "pawn": 1.7, "cube": 1.0}
MARGIN = 0.25  # the printed marker's white margin, as a fraction of its black square
ARUCO = cv2.aruco.DICT_4X4_50


@dataclass(frozen=True)
class Edition:
    """One edition's look: board material and print, the spaces, the pieces' solid and plastics."""

    seed: int
    material: str  # "plastic", "wood" or "print"
    base: RGB
    space_shape: str  # "square", "rounded", "circle" or "hole"
    space_fill: RGB
    rim: RGB
    rim_mm: float
    lanes: str  # "none", "plain" or "rainbow"
    lane: RGB
    ink: RGB
    numbers: str  # "top", "bottom" or "both"
    font: int
    title: str  # "", "top" or "bottom"
    margin_mm: float
    corner_mm: float
    piece: str  # "pyramid", "cone", "cylinder", "pawn" or "cube"
    piece_mm: tuple[float, float]  # a marker's base width and height
    runner_mm: tuple[float, float]
    gloss: float  # 0 matte (wood, card) .. 1 shiny plastic
    colours: tuple[tuple[str, RGB], ...]
    runner: RGB

    def colour(self, kind: str) -> RGB:
        """The plastic of a seat's colour in this edition; ValueError for a colour it does not make."""
        for name, rgb in self.colours:
            if name == kind:
                return rgb
        raise ValueError(f"no pieces of colour {kind!r} (known: {', '.join(SEAT_COLOURS)} and the runner)")


@dataclass(frozen=True)
class Stickers:
    """Where a hand stuck the four printed markers: each one's offset (mm) and turn (degrees); the paper."""

    offsets: tuple[tuple[float, float, float], ...]
    paper: RGB
    ink: RGB


@dataclass(frozen=True)
class Texture:
    """An image of part of the plane: pixel (col, row)'s centre is at ``x0 + (col + .5) / ppm``, ``y1 - (row + .5) / ppm``."""

    image: np.ndarray  # H x W x 4, RGBA, uint8 (four channels: OpenCV warps them faster than three)
    x0: float
    y1: float
    ppm: float

    def to_pixels(self, x, y):
        """Plane millimetres to this texture's (fractional) pixel coordinates."""
        return (x - self.x0) * self.ppm - 0.5, (self.y1 - y) * self.ppm - 0.5


def jitter(rng: np.random.Generator, rgb, spread: float) -> RGB:
    return tuple(int(np.clip(c + rng.normal(0, spread), 0, 255)) for c in rgb)  # type: ignore[return-value]


def _hsv(h: float, s: float, v: float) -> RGB:
    r, g, b = colorsys.hsv_to_rgb((h % 360) / 360, s, v)
    return (round(r * 255), round(g * 255), round(b * 255))


def _luma(rgb) -> float:
    return 0.3 * rgb[0] + 0.59 * rgb[1] + 0.11 * rgb[2]


def random_edition(rng: np.random.Generator) -> Edition:
    """An edition drawn at random from the looks real ones have."""
    material, base = _BOARDS[int(rng.integers(len(_BOARDS)))]
    base = jitter(rng, base, 10)
    dark = _luma(base) < 110
    shape = str(rng.choice(["square", "rounded", "circle", "hole"], p=[0.3, 0.3, 0.28, 0.12]))
    if shape == "hole":
        fill = tuple(int(c * 0.25) for c in base)
    elif dark:
        fill = jitter(rng, (226, 218, 196) if rng.random() < 0.6 else tuple(min(255, c + 60) for c in base), 12)
    else:
        fill = jitter(rng, (250, 246, 236) if rng.random() < 0.5 else tuple(int(c * 0.7) for c in base), 12)
    rims = [(240, 236, 225), (30, 30, 30), (200, 160, 60), tuple(int(c * 0.5) for c in base)]  # white, black, gold, dark
    rim = jitter(rng, rims[int(rng.integers(4))], 10)
    ink = (236, 230, 214) if dark else (30, 28, 26)
    lanes = str(rng.choice(["none", "plain", "rainbow"], p=[0.4, 0.35, 0.25]))
    lane = tuple(int(np.clip(c * (1.25 if dark else 0.82) + (12 if dark else 0), 0, 255)) for c in base)
    piece = str(rng.choice(["pyramid", "cone", "cylinder", "pawn", "cube"], p=[0.3, 0.25, 0.2, 0.15, 0.1]))
    width = float(rng.uniform(*_PIECE_WIDTH[piece]))
    height = _PIECE_TALL[piece] * width * float(rng.uniform(0.9, 1.1))
    runner_scale = float(rng.choice([1.0, 1.0, 1.1, 1.25]))
    gloss = 0.15 if piece == "cube" else float(rng.uniform(0.3, 1.0))
    colours = []
    for name, (hue, sat, val) in _PLASTIC.items():
        colours.append((name, _hsv(rng.uniform(*hue), rng.uniform(*sat), rng.uniform(*val))))
    runner = jitter(rng, (244, 242, 236), 5) if rng.random() < 0.9 else jitter(rng, (34, 34, 36), 4)
    return Edition(
        seed=int(rng.integers(2**31)), material=material, base=base, space_shape=shape, space_fill=fill,
        rim=rim, rim_mm=float(rng.uniform(0.5, 1.8)), lanes=lanes, lane=lane, ink=ink,
        numbers=str(rng.choice(["top", "bottom", "both"])),
        font=int(rng.choice([cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_TRIPLEX])),
        title=str(rng.choice(["", "top", "bottom"])), margin_mm=float(rng.uniform(6, 28)),
        corner_mm=float(rng.uniform(2, 25)), piece=piece, piece_mm=(width, height),
        runner_mm=(width * runner_scale, height * runner_scale), gloss=gloss, colours=tuple(colours), runner=runner,
    )


def with_runner(edition: Edition, colour: str) -> Edition:
    """The edition with ``"white"`` or ``"black"`` runners."""
    from dataclasses import replace

    return replace(edition, runner={"white": (244, 242, 236), "black": (34, 34, 36)}[colour])


def random_stickers(rng: np.random.Generator, mm: float = 3.0, degrees: float = 4.0) -> Stickers:
    """Four markers stuck on by hand: up to about ``mm`` off and ``degrees`` turned each; off-white paper."""
    offsets = tuple((float(rng.normal(0, mm / 2)), float(rng.normal(0, mm / 2)), float(rng.normal(0, degrees / 2)))
                    for _ in range(4))
    paper = jitter(rng, (246, 244, 236), 4)
    return Stickers(offsets, paper, jitter(rng, (30, 30, 32), 4))


# ---- the board's extent -------------------------------------------------------


def board_half(layout: Layout, edition: Edition) -> tuple[float, float]:
    """The board's half width and half height (mm) around the plane's origin: markers and spaces inside."""
    sheet = layout.marker_mm * (0.5 + MARGIN)
    hx = max(abs(m[0]) for m in layout.markers) + sheet
    hy = max(abs(m[1]) for m in layout.markers) + sheet
    for _, _, (x, y) in layout.spaces():
        hx = max(hx, abs(x) + layout.space[0])
        hy = max(hy, abs(y) + layout.space[1] * 2)
    return hx + edition.margin_mm, hy + edition.margin_mm


# ---- drawing helpers -----------------------------------------------------------

_SHIFT = 4  # OpenCV's sub-pixel bits for drawing


def value_noise(rng: np.random.Generator, shape, cells: tuple[int, int]) -> np.ndarray:
    """Smooth value noise, mean 0 and about unit spread, ``cells`` random values across each side."""
    small = rng.standard_normal((max(2, cells[1]), max(2, cells[0]))).astype(np.float32)
    return cv2.resize(small, (shape[1], shape[0]), interpolation=cv2.INTER_CUBIC)


def wood_grain(rng: np.random.Generator, shape, ppm: float, period_mm: float, contrast: float) -> np.ndarray:
    """Wood's shade (about 1): grain lines along x, nearly straight, unevenly spaced; fibres along them."""
    h, w = shape
    rows = np.arange(h, dtype=np.float32)[:, None] / (period_mm * ppm)
    drift = value_noise(rng, shape, (2, 3)) * 0.8 + value_noise(rng, shape, (12, 4)) * 0.2  # slow bends of the lines
    phase = rows + drift + 0.15 * np.sin(rows * 0.37)
    lines = (0.5 + 0.5 * np.cos(2 * np.pi * phase)) ** 4
    squeeze = 8  # fibres are long: drawn 8 times coarser along the grain, then stretched
    coarse = rng.standard_normal((h, -(-w // squeeze))).astype(np.float32)
    coarse = cv2.GaussianBlur(coarse, (0, 0), sigmaX=10 * ppm / squeeze, sigmaY=0.3 * ppm)
    fibres = cv2.resize(coarse, (w, h), interpolation=cv2.INTER_LINEAR)
    fibres *= 1 / (float(fibres.std()) + 1e-6)
    return (1 - contrast / 2) + contrast * lines + 0.35 * contrast * fibres + 0.04 * value_noise(rng, shape, (5, 5))


def rounded_rect(cx, cy, w, h, r, n=6) -> np.ndarray:
    """A rounded rectangle's outline (mm), corners of radius ``r``."""
    r = max(0.0, min(r, w / 2, h / 2))
    pts = []
    for sx, sy, a0 in ((1, 1, 0), (-1, 1, 90), (-1, -1, 180), (1, -1, 270)):
        ox, oy = cx + sx * (w / 2 - r), cy + sy * (h / 2 - r)
        for k in range(n + 1):
            a = math.radians(a0 + 90 * k / n)
            pts.append((ox + r * math.cos(a), oy + r * math.sin(a)))
    return np.array(pts)


def _ellipse(cx, cy, rx, ry, n=40) -> np.ndarray:
    a = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return np.stack([cx + rx * np.cos(a), cy + ry * np.sin(a)], axis=1)


class _Canvas:
    """A texture being drawn: shapes given in plane millimetres."""

    def __init__(self, tex: Texture):
        self.tex = tex
        self.img = tex.image

    def px(self, pts) -> np.ndarray:
        pts = np.asarray(pts, dtype=np.float64)
        c, r = self.tex.to_pixels(pts[:, 0], pts[:, 1])
        return np.round(np.stack([c, r], axis=1) * (1 << _SHIFT)).astype(np.int32)

    def fill(self, pts, rgb) -> None:
        cv2.fillPoly(self.img, [self.px(pts)], tuple(int(v) for v in rgb) + (255,) * (self.img.shape[2] - 3),
                     cv2.LINE_AA, _SHIFT)

    def line(self, pts, rgb, mm: float, closed: bool = True) -> None:
        width = max(1, int(round(mm * self.tex.ppm)))
        cv2.polylines(self.img, [self.px(pts)], closed, tuple(int(v) for v in rgb) + (255,) * (self.img.shape[2] - 3),
                      width, cv2.LINE_AA, _SHIFT)

    def text(self, words: str, x: float, y: float, mm: float, rgb, font: int, bold: float = 1.0) -> None:
        """``words`` centred on (x, y), ``mm`` tall."""
        (tw, th), _ = cv2.getTextSize(words, font, 1.0, 1)
        scale = mm * self.tex.ppm / th
        thick = max(1, int(round(scale * 2.2 * bold)))
        (tw, th), _ = cv2.getTextSize(words, font, scale, thick)
        c, r = self.tex.to_pixels(x, y)
        cv2.putText(self.img, words, (int(round(c - tw / 2)), int(round(r + th / 2))), font, scale,
                    tuple(int(v) for v in rgb) + (255,) * (self.img.shape[2] - 3), thick, cv2.LINE_AA)


# ---- the board ------------------------------------------------------------------


@functools.lru_cache(maxsize=6)
def board_texture(layout: Layout, edition: Edition, stickers: Stickers, ppm: float) -> Texture:
    """The board drawn flat at ``ppm`` pixels a millimetre, transparent off the board."""
    hx, hy = board_half(layout, edition)
    pad = 2.0
    w, h = int(math.ceil((2 * hx + 2 * pad) * ppm)), int(math.ceil((2 * hy + 2 * pad) * ppm))
    rng = np.random.default_rng(edition.seed)
    tex = Texture(np.zeros((h, w, 4), np.uint8), -hx - pad, hy + pad, ppm)
    canvas = _Canvas(tex)
    rgb = _material(rng, edition, (h, w), ppm)
    outline = np.zeros((h, w), np.uint8)
    cv2.fillPoly(outline, [canvas.px(rounded_rect(0, 0, 2 * hx, 2 * hy, edition.corner_mm, 10))], 255, cv2.LINE_AA, _SHIFT)
    tex.image[..., :3] = rgb
    _print(canvas, layout, edition, hx, hy, rng)
    for i, (mx, my) in enumerate(layout.markers):
        _sticker(tex, i, (mx, my), layout.marker_mm, stickers)
    _bevel(tex.image, outline, ppm)
    tex.image[..., 3] = outline
    return tex


def _material(rng, edition: Edition, shape, ppm: float) -> np.ndarray:
    """The bare board: plastic (faint mottling), wood (grain) or printed card (fibres)."""
    h, w = shape
    base = np.array(edition.base, np.float32)
    fine = rng.standard_normal((h, w)).astype(np.float32)
    mottle = value_noise(rng, shape, (6, 6))
    if edition.material == "wood":
        shade = wood_grain(rng, shape, ppm, period_mm=float(rng.uniform(3, 9)), contrast=0.09)
    elif edition.material == "print":
        shade = 1.0 + 0.012 * mottle + 0.02 * cv2.GaussianBlur(fine, (0, 0), 0.6 * ppm) * 4 + 0.01 * fine
    else:
        shade = 1.0 + 0.025 * mottle + 0.008 * fine
    return np.clip(base[None, None, :] * shade[..., None], 0, 255).astype(np.uint8)


def _print(canvas: _Canvas, layout: Layout, e: Edition, hx: float, hy: float, rng) -> None:
    """The printed artwork: border line, column lanes, spaces with rims, column numbers, a title."""
    inset = min(e.margin_mm * 0.5, 8.0) + 2.0
    canvas.line(rounded_rect(0, 0, 2 * (hx - inset), 2 * (hy - inset), max(1.0, e.corner_mm - inset), 8), e.rim, 1.0)
    sw, sh = layout.space
    n = len(layout.columns)
    for i, col in enumerate(layout.columns):
        (bx, by), (tx, ty) = col.bottom, col.top
        if e.lanes != "none":
            colour = e.lane if e.lanes == "plain" else _rainbow(e, i, n)
            cx, cy = (bx + tx) / 2, (by + ty) / 2
            length = math.hypot(tx - bx, ty - by) + sh * 1.6
            canvas.fill(rounded_rect(cx, cy, sw * 1.12, length, sw * 0.4), colour)
        for k in range(1, col.height + 1):
            _space(canvas, *col.at(k), sw, sh, e)
        size = sh * 0.6
        pitch = col.pitch() or sh
        if e.numbers in ("top", "both"):
            canvas.text(str(col.total), tx, ty + pitch * 0.95, size, e.ink, e.font)
        if e.numbers in ("bottom", "both"):
            canvas.text(str(col.total), bx, by - pitch * 0.95, size, e.ink, e.font)
    if e.title:
        ys = [c.top[1] for c in layout.columns] if e.title == "top" else [c.bottom[1] for c in layout.columns]
        edge = max(ys) + sh * 2 if e.title == "top" else min(ys) - sh * 2
        room = (hy - inset - 3 - edge) if e.title == "top" else (edge - (-hy + inset + 3))
        if room > 10:
            y = (edge + hy - inset) / 2 if e.title == "top" else (edge - hy + inset) / 2
            canvas.text("CAN'T STOP", 0.0, y, min(16.0, room * 0.55), e.ink, e.font, bold=1.4)


def _rainbow(e: Edition, i: int, n: int) -> RGB:
    h, l, s = colorsys.rgb_to_hls(*(c / 255 for c in e.lane))
    r, g, b = colorsys.hls_to_rgb((i / n * 0.8 + e.seed % 100 / 100) % 1.0, min(0.6, max(0.3, l)), 0.35)
    return (round(r * 255), round(g * 255), round(b * 255))


def _space(canvas: _Canvas, x: float, y: float, w: float, h: float, e: Edition) -> None:
    rim = e.rim_mm
    if e.space_shape in ("circle", "hole"):
        r = min(w, h) * 0.48
        canvas.fill(_ellipse(x, y, r, r), e.rim)
        canvas.fill(_ellipse(x, y, r - rim, r - rim), e.space_fill)
        if e.space_shape == "hole":  # the hole's far wall catches light, its near wall is in shade
            canvas.fill(_ellipse(x, y + r * 0.18, (r - rim) * 0.8, (r - rim) * 0.7), tuple(int(c * 0.55) for c in e.space_fill))
        return
    radius = 0.0 if e.space_shape == "square" else min(w, h) * 0.3
    canvas.fill(rounded_rect(x, y, w * 0.96, h * 0.96, radius), e.rim)
    canvas.fill(rounded_rect(x, y, w * 0.96 - 2 * rim, h * 0.96 - 2 * rim, max(0.0, radius - rim)), e.space_fill)


def _bevel(img: np.ndarray, outline: np.ndarray, ppm: float) -> None:
    """The board's edge: a little darker where it rounds off."""
    inner = cv2.GaussianBlur(outline, (0, 0), 1.2 * ppm).astype(np.float32) / 255
    shade = np.clip(0.75 + 0.25 * (inner * 2 - 1) * 2, 0.75, 1.0)
    img[..., :3] = (img[..., :3] * shade[..., None]).astype(np.uint8)


def _sticker(tex: Texture, index: int, centre, marker_mm: float, stickers: Stickers) -> None:
    """One printed marker: black bits on a white sheet a quarter of the marker wider on every side."""
    dx, dy, deg = stickers.offsets[index]
    bits = cv2.aruco.generateImageMarker(cv2.aruco.getPredefinedDictionary(ARUCO), index, 6, borderBits=1)
    cells = bits.shape[0] + 2 * MARGIN * bits.shape[0]
    spp = max(4, int(math.ceil(tex.ppm * marker_mm / bits.shape[0] * 2)))  # pixels per cell, twice the texture's
    side = int(round(cells * spp))
    m = int(round(MARGIN * bits.shape[0] * spp))
    sheet = np.empty((side, side, 3), np.uint8)
    sheet[:] = stickers.paper
    big = cv2.resize(bits, (bits.shape[0] * spp, bits.shape[0] * spp), interpolation=cv2.INTER_NEAREST)
    printed = np.where(big[..., None] > 0, np.array(stickers.paper), np.array(stickers.ink))
    sheet[m:m + big.shape[0], m:m + big.shape[1]] = printed
    mm_per_sheet_px = marker_mm / (bits.shape[0] * spp)
    scale = mm_per_sheet_px * tex.ppm  # texture pixels per sheet pixel
    sheet = cv2.GaussianBlur(sheet, (0, 0), 0.45 / scale)  # no aliasing when shrunk
    a = math.radians(deg)
    cx, cy = tex.to_pixels(centre[0] + dx, centre[1] + dy)
    reach = int(math.ceil(side * scale * 0.75)) + 2  # the turned sheet's half size in texture pixels
    h, w = tex.image.shape[:2]
    c0, r0 = max(0, int(cx) - reach), max(0, int(cy) - reach)
    c1, r1 = min(w, int(cx) + reach + 1), min(h, int(cy) + reach + 1)
    # sheet pixel (u, v) -> the texture's window: rows go down, so a turn counter-clockwise on the plane is -a
    ca, sa = math.cos(-a) * scale, math.sin(-a) * scale
    half = (side - 1) / 2
    ox, oy = cx - c0, cy - r0
    mat = np.array([[ca, -sa, ox - ca * half + sa * half], [sa, ca, oy - sa * half - ca * half]])
    size = (c1 - c0, r1 - r0)
    warped = cv2.warpAffine(sheet, mat, size, flags=cv2.INTER_LINEAR).astype(np.float32)
    mask = cv2.warpAffine(np.full((side, side), 255, np.uint8), mat, size, flags=cv2.INTER_LINEAR)
    alpha = mask.astype(np.float32)[..., None] / 255
    window = tex.image[r0:r1, c0:c1, :3]
    window[:] = (window * (1 - alpha) + warped * alpha).astype(np.uint8)


def sticker_corners(layout: Layout, stickers: Stickers) -> np.ndarray:
    """Each printed marker's black square as it was stuck: (4, 4, 2) plane points, corners in ArUco's order.

    ArUco's order: top-left, top-right, bottom-right, bottom-left of the marker as printed upright.
    """
    out = []
    for (mx, my), (dx, dy, deg) in zip(layout.markers, stickers.offsets):
        a = math.radians(deg)
        s = layout.marker_mm / 2
        local = np.array([(-s, s), (s, s), (s, -s), (-s, -s)])
        rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        out.append(local @ rot.T + (mx + dx, my + dy))
    return np.array(out)
