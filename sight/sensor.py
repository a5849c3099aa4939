"""From light on the sensor to a JPEG: lens blur, a shaking hand's blur, noise, the tone curve, sharpening, JPEG.

The steps a webcam takes, in its order: the optics blur the linear image
(defocus, and motion when the camera or the table shakes), the sensor adds
noise that grows with the signal (shot noise) on a floor (read noise),
luminance noise fine and colour noise blotchy as demosaicing leaves them;
the camera's processing applies its tone curve, sharpens a little and
compresses to JPEG, which is what a reader gets.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class Exposure:
    """One photo's optics and sensor: blur (pixels), motion (length px, angle), noise, JPEG quality."""

    blur: float  # defocus, Gaussian sigma in pixels
    motion: tuple[float, float]  # length (px) and direction (degrees) of a shake; length 0: none
    read_noise: float  # linear light, standard deviation at black
    shot_noise: float  # linear light, variance added per unit of signal
    quality: int  # JPEG quality


@dataclass(frozen=True)
class Processing:
    """A camera's own picture processing: white balance, tone curve, saturation, sharpening; its lens' colour fringes."""

    balance: float  # how much of the light's colour the white balance takes out (0..1)
    grey_world: float  # how much the white balance is pulled by the scene's own colours (0..0.5)
    contrast: float  # 0: a plain gamma; up to ~0.3: a punchier S curve
    saturation: float  # 1: as is
    sharpen: float  # unsharp mask amount (0 .. 0.8)
    fringe: float  # lateral chromatic aberration: red this much larger than green, blue this much smaller


def optics(img: np.ndarray, exp: Exposure) -> np.ndarray:
    """Defocus and motion blur on the linear image."""
    if exp.blur > 0.05:
        img = cv2.GaussianBlur(img, (0, 0), exp.blur)
    length, angle = exp.motion
    if length >= 1.0:
        img = cv2.filter2D(img, -1, motion_kernel(length, angle))
    return img


@functools.lru_cache(maxsize=32)
def motion_kernel(length: float, angle: float) -> np.ndarray:
    """A line kernel ``length`` pixels long at ``angle`` degrees (anti-aliased, summing to 1)."""
    size = int(math.ceil(length)) | 1
    size += 2
    k = np.zeros((size * 4, size * 4), np.float32)
    c = (size * 4 - 1) / 2
    dx, dy = math.cos(math.radians(angle)) * length * 2, math.sin(math.radians(angle)) * length * 2
    cv2.line(k, (round((c - dx) * 16), round((c - dy) * 16)), (round((c + dx) * 16), round((c + dy) * 16)), 1.0, 4,
             cv2.LINE_AA, 4)
    k = cv2.resize(k, (size, size), interpolation=cv2.INTER_AREA)
    return k / k.sum()


def noise(img: np.ndarray, exp: Exposure, rng: np.random.Generator) -> np.ndarray:
    """The sensor's noise on the linear image: grain a pixel fine in brightness, blotchy in colour.

    Its spread follows each pixel's brightness: sqrt(read_noise ** 2 + shot_noise * signal).
    """
    h, w = img.shape[:2]
    luma = cv2.transform(img, np.array([[0.3, 0.59, 0.11]], np.float32))
    sigma = cv2.sqrt(cv2.max(cv2.addWeighted(luma, exp.shot_noise, luma, 0.0, exp.read_noise ** 2), exp.read_noise ** 2))
    fine = cv2.multiply(rng.standard_normal((h, w), dtype=np.float32), sigma, scale=0.8)
    small = (h + 3) // 4, (w + 3) // 4
    coarse = rng.standard_normal((*small, 3), dtype=np.float32)
    coarse *= cv2.resize(sigma, (small[1], small[0]), interpolation=cv2.INTER_AREA)[..., None] * 1.6
    blotches = cv2.resize(coarse, (w, h), interpolation=cv2.INTER_LINEAR)
    return cv2.add(cv2.add(img, blotches), cv2.merge([fine, fine, fine]))


GAMMA = 2.2  # the pictures' encoding: linear light = (value / 255) ** GAMMA


@functools.lru_cache(maxsize=16)
def _tone_table(contrast: float) -> np.ndarray:
    """8-bit to 8-bit: an S curve of ``contrast`` (0: none) about the middle grey."""
    v = np.arange(256) / 255.0
    s = v + contrast * (v - 0.5) * (1 - np.abs(2 * v - 1)) * 0.9
    return np.clip(np.round(s * 255), 0, 255).astype(np.uint8)


def colour_matrix(gains: np.ndarray, saturation: float) -> np.ndarray:
    """The 3x3 matrix for ``cv2.transform``: per-channel gains, then saturation about the grey."""
    luma = np.array([0.299, 0.587, 0.114])
    sat = saturation * np.eye(3) + (1 - saturation) * np.tile(luma, (3, 1))
    return (sat @ np.diag(gains)).astype(np.float32)


def develop(img: np.ndarray, proc: Processing, shading: np.ndarray | None = None,
            centre: tuple[float, float] | None = None) -> np.ndarray:
    """Linear float RGB to 8-bit: the gamma, the lens' ``shading`` (8-bit, 255 = none) and colour fringes
    about its ``centre``, the camera's tone curve and sharpening."""
    _, black = cv2.threshold(img, 0.0, 0.0, cv2.THRESH_TOZERO)  # the sensor clips at black
    out = cv2.convertScaleAbs(cv2.pow(black, 1 / GAMMA), alpha=255.0)
    if shading is not None:
        out = cv2.multiply(out, shading, scale=1 / 255)
    if proc.fringe > 1e-5 and centre is not None:
        out = _fringes(out, proc.fringe, centre)
    if proc.contrast > 0.005:
        out = cv2.LUT(out, _tone_table(round(proc.contrast, 3)))
    if proc.sharpen > 0.02:
        out = cv2.addWeighted(out, 1 + proc.sharpen, cv2.GaussianBlur(out, (0, 0), 1.2), -proc.sharpen, 0)
    return out


def _fringes(rgb: np.ndarray, amount: float, centre) -> np.ndarray:
    """Red drawn a little larger and blue a little smaller than green, about the lens' centre."""
    h, w = rgb.shape[:2]
    channels = list(cv2.split(rgb))
    for i, scale in ((0, 1 + amount), (2, 1 - amount)):
        mat = np.array([[scale, 0, (1 - scale) * centre[0]], [0, scale, (1 - scale) * centre[1]]])
        channels[i] = cv2.warpAffine(channels[i], mat, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return cv2.merge(channels)


def jpeg(bgr: np.ndarray, quality: int) -> np.ndarray:
    """The picture through a JPEG encoder and decoder at ``quality``."""
    ok, data = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:  # pragma: no cover - OpenCV always encodes a uint8 picture
        raise RuntimeError("JPEG encoding failed")
    return cv2.imdecode(data, cv2.IMREAD_COLOR)
