"""Where the camera stands over the board, from the markers' map alone: for the lean of a tall piece.

A piece stands up from the board, so a camera that is not straight above
it sees its top displaced away from the point under the camera (its foot).
From the photo-to-plane homography, and the usual webcam facts (square
pixels, the optical centre in the middle of the picture), the camera's focal
length and place follow: Zhang's two constraints on a plane's homography. A
camera almost straight above leaves the focal length unknowable from one
plane; a typical webcam's is taken then (it matters little there).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: A typical USB webcam's horizontal field of view (degrees): the focal length taken when the photo cannot tell.
TYPICAL_FOV = 68.0
#: Focal lengths outside this many picture widths are not believed (fields of view of about 130 to 15 degrees).
FOCAL_RANGE = (0.25, 4.0)


@dataclass(frozen=True)
class Pose:
    """The camera over the board's plane: its foot (mm, the plane's frame), its height (mm), its focal (px)."""

    foot: tuple[float, float]
    height: float
    focal: float

    def lean(self, points: np.ndarray, tall: float) -> np.ndarray:
        """Where the top of a piece ``tall`` mm high, standing at each of ``points`` (Nx2, mm), is seen on the plane."""
        p = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        if self.height <= tall * 1.5:
            return p.copy()
        return p + (p - np.asarray(self.foot)) * (tall / (self.height - tall))


def _focal(g: np.ndarray, width: int) -> float:
    """The focal length (px) from Zhang's constraints on ``g`` (plane to centred pixels), or a typical one."""
    a1 = g[0, 0] * g[0, 1] + g[1, 0] * g[1, 1]
    b1 = g[2, 0] * g[2, 1]
    a2 = g[0, 0] ** 2 + g[1, 0] ** 2 - g[0, 1] ** 2 - g[1, 1] ** 2
    b2 = g[2, 0] ** 2 - g[2, 1] ** 2
    typical = width / (2 * np.tan(np.radians(TYPICAL_FOV / 2)))
    denominator = a1 * a1 + a2 * a2
    if denominator <= 0:
        return typical
    u = -(a1 * b1 + a2 * b2) / denominator  # 1 / f**2
    # how strongly the perspective terms speak, against the affine ones: near zero, the camera looks straight down
    strength = (abs(b1) + abs(b2)) * typical ** 2 / max(1e-12, abs(a1) + abs(a2))
    if u <= 0 or strength < 0.02:
        return typical
    f = 1.0 / np.sqrt(u)
    low, high = FOCAL_RANGE
    return float(f) if low * width <= f <= high * width else typical


def pose(to_plane: np.ndarray, size: tuple[int, int]) -> Pose:
    """The camera's pose from the photo-to-plane homography and the photo's ``size`` (width, height)."""
    width, height = size
    to_photo = np.linalg.inv(to_plane)
    centre = np.array([[1, 0, -width / 2], [0, 1, -height / 2], [0, 0, 1]], dtype=np.float64)
    g = centre @ to_photo
    f = _focal(g, width)
    m = np.diag([1 / f, 1 / f, 1.0]) @ g
    scale = 2.0 / (np.linalg.norm(m[:, 0]) + np.linalg.norm(m[:, 1]))
    r1 = m[:, 0] * scale
    r2 = m[:, 1] * scale
    t = m[:, 2] * scale
    if t[2] < 0:  # the board is in front of the camera
        r1, r2, t = -r1, -r2, -t
    r3 = np.cross(r1, r2)
    rotation = np.column_stack([r1, r2, r3])
    u, _, vt = np.linalg.svd(rotation)  # the nearest true rotation
    rotation = u @ vt
    camera = -rotation.T @ t
    return Pose((float(camera[0]), float(camera[1])), float(abs(camera[2])), f)
