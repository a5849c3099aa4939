"""The virtual camera: a pinhole with radial lens distortion, placed above the board's plane.

World frame: the board's plane (millimetres, :mod:`.layout`'s frame) with z up,
towards the camera. Camera frame: OpenCV's (x right, y down, z forward), so a
:class:`Pose` is OpenCV's ``rvec``/``tvec`` (world to camera) and a
:class:`Lens` its camera matrix and distortion coefficients ``(k1, k2, p1, p2)``.
Points go to the image through :func:`project` (the same model as
``cv2.projectPoints``); the image comes back to the plane through
:func:`plane_map`, one plane point per pixel, for warping the board's texture.

>>> lens = Lens(640, 480, 60.0)
>>> pose = look_down((0.0, 0.0), 600.0, 0.0, 0.0, 0.0)
>>> project(lens, pose, [(0.0, 0.0, 0.0)]).round(1).tolist()
[[319.5, 239.5]]
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import cv2
import numpy as np

#: Pixels between the samples of :func:`plane_map`'s grid (the map between them is interpolated: it is smooth).
MAP_STEP = 4


@dataclass(frozen=True)
class Lens:
    """A camera's resolution, horizontal field of view (degrees), principal point shift and distortion."""

    width: int
    height: int
    fov: float
    k1: float = 0.0
    k2: float = 0.0
    p1: float = 0.0
    p2: float = 0.0
    shift: tuple[float, float] = (0.0, 0.0)  # principal point off the centre, as fractions of the width

    @property
    def focal(self) -> float:
        """The focal length in pixels (square pixels)."""
        return self.width / 2 / math.tan(math.radians(self.fov) / 2)

    def matrix(self) -> np.ndarray:
        """The 3x3 camera matrix (pixel centres at integer coordinates, as OpenCV has them)."""
        f = self.focal
        cx = (self.width - 1) / 2 + self.shift[0] * self.width
        cy = (self.height - 1) / 2 + self.shift[1] * self.width
        return np.array([[f, 0, cx], [0, f, cy], [0, 0, 1]], dtype=np.float64)

    def coefficients(self) -> np.ndarray:
        """OpenCV's distortion coefficients ``(k1, k2, p1, p2)``."""
        return np.array([self.k1, self.k2, self.p1, self.p2], dtype=np.float64)

    def reach(self) -> float:
        """How far from the axis the frame's corners see (undistorted, normalised: the tangent of the angle)."""
        return _reach(self)

    def is_monotonic(self, beyond: float = 1.6) -> bool:
        """Whether the radial distortion keeps growing out to ``beyond`` times the corners' reach.

        Past its turning point a barrel polynomial folds the world back into the picture; a lens
        whose fold is that near the frame is not one a webcam has.
        """
        r = np.linspace(0.0, self.reach() * beyond, 200)
        r2 = r * r
        return bool(np.all(1 + 3 * self.k1 * r2 + 5 * self.k2 * r2 * r2 > 0.15))


@dataclass(frozen=True)
class Pose:
    """Where the camera is: OpenCV's ``rvec`` (Rodrigues) and ``tvec``, world to camera, millimetres."""

    rvec: tuple[float, float, float]
    tvec: tuple[float, float, float]

    def rotation(self) -> np.ndarray:
        return cv2.Rodrigues(np.asarray(self.rvec, dtype=np.float64))[0]

    def centre(self) -> np.ndarray:
        """The camera's centre in the world."""
        return -self.rotation().T @ np.asarray(self.tvec, dtype=np.float64)

    def nudged(self, degrees: tuple[float, float, float], mm: tuple[float, float, float]) -> Pose:
        """The camera turned by small angles about its own axes and moved by ``mm`` in the world."""
        small = cv2.Rodrigues(np.radians(np.asarray(degrees, dtype=np.float64)))[0]
        rot = small @ self.rotation()
        centre = self.centre() + np.asarray(mm, dtype=np.float64)
        return _pose(rot, centre)


def _pose(rot: np.ndarray, centre: np.ndarray) -> Pose:
    rvec = cv2.Rodrigues(rot)[0].ravel()
    tvec = -rot @ centre
    return Pose(tuple(float(v) for v in rvec), tuple(float(v) for v in tvec))  # type: ignore[arg-type]


def look_down(target: tuple[float, float], distance: float, tilt: float, azimuth: float, roll: float) -> Pose:
    """A camera ``distance`` mm from ``target`` on the plane, looking at it.

    ``tilt``: degrees off vertical; ``azimuth``: the direction (degrees, from +x) the camera leans
    from (it stands on that side and looks back across); ``roll``: degrees about the optical axis.
    """
    t, a, r = (math.radians(v) for v in (tilt, azimuth, roll))
    forward = np.array([-math.sin(t) * math.cos(a), -math.sin(t) * math.sin(a), -math.cos(t)])
    helper = np.array([1.0, 0.0, 0.0]) if abs(forward[0]) < 0.9 else np.array([0.0, 1.0, 0.0])
    side = _cross(forward, helper)
    side /= np.linalg.norm(side)
    other = _cross(forward, side)
    right = math.cos(r) * side + math.sin(r) * other
    down = _cross(forward, right)
    rot = np.stack([right, down, forward])
    centre = np.array([target[0], target[1], 0.0]) - distance * forward
    return _pose(rot, centre)


def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The cross product of two 3-vectors (NumPy's general one is slow for one pair)."""
    return np.array([a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]])


def to_camera(pose: Pose, points) -> np.ndarray:
    """World points (N, 3) in the camera's frame (z: depth in front of the camera)."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 3)
    return pts @ pose.rotation().T + np.asarray(pose.tvec)


def distort(lens: Lens, xy: np.ndarray) -> np.ndarray:
    """Normalised undistorted points (N, 2) to pixels, by OpenCV's model (k1, k2, p1, p2)."""
    x, y = xy[:, 0], xy[:, 1]
    r2 = x * x + y * y
    radial = 1 + lens.k1 * r2 + lens.k2 * r2 * r2
    xd = x * radial + 2 * lens.p1 * x * y + lens.p2 * (r2 + 2 * x * x)
    yd = y * radial + lens.p1 * (r2 + 2 * y * y) + 2 * lens.p2 * x * y
    k = lens.matrix()
    return np.stack([k[0, 0] * xd + k[0, 2], k[1, 1] * yd + k[1, 2]], axis=1)


def project(lens: Lens, pose: Pose, points) -> np.ndarray:
    """World points (N, 2) on the plane or (N, 3) to image points (N, 2), pixels."""
    pts = np.asarray(points, dtype=np.float64)
    if pts.ndim == 1:
        pts = pts.reshape(1, -1)
    if pts.shape[1] == 2:
        pts = np.concatenate([pts, np.zeros((len(pts), 1))], axis=1)
    cam = to_camera(pose, pts)
    return distort(lens, cam[:, :2] / cam[:, 2:3])


def project_polygon(lens: Lens, pose: Pose, points) -> np.ndarray | None:
    """A world polygon's outline in the image, clipped to what the lens sees; None when nothing is left.

    The polygon is cut at a near plane and at a rectangle a little wider than the frame (normalised,
    before distortion, where edges are straight), its edges are divided finely (a straight edge bends
    under distortion), and only then distorted, so a far-off part never folds back into the picture.
    """
    cam = to_camera(pose, points)
    near = max(20.0, 0.05 * float(np.linalg.norm(pose.tvec)))
    cam = _clip(cam, 2, near, keep_above=True)
    if len(cam) < 3:
        return None
    xy = cam[:, :2] / cam[:, 2:3]
    bound = 1.1 * lens.reach()
    for axis in (0, 1):
        xy = _clip(xy, axis, -bound, keep_above=True)
        xy = _clip(xy, axis, bound, keep_above=False)
        if len(xy) < 3:
            return None
    return distort(lens, _densify(xy, lens.focal, 6.0))


def _clip(poly: np.ndarray, axis: int, value: float, keep_above: bool) -> np.ndarray:
    """Sutherland-Hodgman: the part of a polygon on one side of ``coordinate[axis] == value``."""
    out = []
    n = len(poly)
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        ina = (a[axis] >= value) if keep_above else (a[axis] <= value)
        inb = (b[axis] >= value) if keep_above else (b[axis] <= value)
        if ina:
            out.append(a)
        if ina != inb:
            t = (value - a[axis]) / (b[axis] - a[axis])
            out.append(a + t * (b - a))
    return np.array(out).reshape(-1, poly.shape[1])


def _densify(xy: np.ndarray, focal: float, pixels: float) -> np.ndarray:
    """The polygon with points added along its edges, about ``pixels`` apart in the image."""
    out = []
    n = len(xy)
    for i in range(n):
        a, b = xy[i], xy[(i + 1) % n]
        parts = max(1, int(np.linalg.norm(b - a) * focal / pixels))
        t = np.arange(parts)[:, None] / parts
        out.append(a + t * (b - a))
    return np.concatenate(out)


@functools.lru_cache(maxsize=64)
def _reach(lens: Lens) -> float:
    return float(np.hypot(*_corner_rays(lens).T).max())


def _corner_rays(lens: Lens) -> np.ndarray:
    w, h = lens.width - 1, lens.height - 1
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h], [w / 2, 0], [w / 2, h], [0, h / 2], [w, h / 2]], dtype=np.float64)
    return undistort(lens, corners)


def undistort(lens: Lens, pixels) -> np.ndarray:
    """Image points (N, 2) to normalised undistorted coordinates (N, 2): :func:`distort` inverted.

    Newton's method on the radial polynomial (monotonic over the frame, :meth:`Lens.is_monotonic`),
    the small tangential terms taken off by fixed-point rounds.
    """
    k = lens.matrix()
    pts = np.asarray(pixels, dtype=np.float64).reshape(-1, 2)
    xd = (pts[:, 0] - k[0, 2]) / k[0, 0]
    yd = (pts[:, 1] - k[1, 2]) / k[1, 1]
    x, y = xd.copy(), yd.copy()
    for _ in range(6):
        r2 = x * x + y * y
        tx = 2 * lens.p1 * x * y + lens.p2 * (r2 + 2 * x * x)
        ty = lens.p1 * (r2 + 2 * y * y) + 2 * lens.p2 * x * y
        ax, ay = xd - tx, yd - ty
        rd = np.hypot(ax, ay)
        ru = rd.copy()
        for _ in range(8):
            u2 = ru * ru
            f = ru * (1 + lens.k1 * u2 + lens.k2 * u2 * u2) - rd
            ru = ru - f / (1 + 3 * lens.k1 * u2 + 5 * lens.k2 * u2 * u2)
        scale = np.where(rd > 1e-12, ru / np.maximum(rd, 1e-12), 1.0)
        x, y = ax * scale, ay * scale
    return np.stack([x, y], axis=1)


@functools.lru_cache(maxsize=8)
def _grid_rays(lens: Lens, step: int) -> tuple[np.ndarray, np.ndarray]:
    """Normalised undistorted rays on a grid of pixels ``step`` apart, one sample beyond each edge."""
    gw, gh = -(-lens.width // step) + 2, -(-lens.height // step) + 2
    us = step * (np.arange(gw) - 1) + (step - 1) / 2
    vs = step * (np.arange(gh) - 1) + (step - 1) / 2
    grid = np.stack(np.meshgrid(us, vs), axis=-1).reshape(-1, 2)
    rays = undistort(lens, grid)
    return rays[:, 0].reshape(gh, gw), rays[:, 1].reshape(gh, gw)


def plane_map(lens: Lens, pose: Pose, step: int = MAP_STEP) -> tuple[np.ndarray, np.ndarray]:
    """For every pixel, the plane point (x, y mm) its ray meets: two float32 arrays of the image's shape.

    Computed on a grid ``step`` pixels apart and interpolated (the map is smooth); a ray that misses
    the plane (above the horizon) lands far away.
    """
    xu, yu = _grid_rays(lens, step)
    rot = pose.rotation()
    centre = pose.centre()
    d = np.stack([xu, yu, np.ones_like(xu)], axis=-1) @ rot  # rows of R^T applied: world directions
    dz = d[..., 2]
    hit = dz < -1e-6
    lam = np.where(hit, -centre[2] / np.where(hit, dz, -1.0), 1e6)
    gx = (centre[0] + lam * d[..., 0]).astype(np.float32)
    gy = (centre[1] + lam * d[..., 1]).astype(np.float32)
    return _upsample(gx, lens, step), _upsample(gy, lens, step)


def _upsample(grid: np.ndarray, lens: Lens, step: int) -> np.ndarray:
    """The grid at full resolution, each pixel interpolated exactly where :func:`_grid_rays` sampled it."""
    big = cv2.resize(grid, (grid.shape[1] * step, grid.shape[0] * step), interpolation=cv2.INTER_LINEAR)
    return np.ascontiguousarray(big[step: step + lens.height, step: step + lens.width])
