"""The virtual photographer: same seeds, same bytes; the markers readable and where project() says; pieces
and hands where they should be; the sensor's noise and JPEG really there; the camera placed as promised."""

import functools
from dataclasses import replace

import cv2
import numpy as np
import pytest

from engine import HEIGHTS
from sight import scene
from sight.art import board_half
from sight.camera_model import Lens, distort, look_down, project, undistort
from sight.hand import Hand
from sight.layout import RUNNER, centred
from sight.light import irradiance
from sight.sensor import Exposure

LAYOUT = centred(HEIGHTS)
SMALL = (640, 480)
#: No blur, no noise, no JPEG loss to speak of: what is drawn, as drawn.
CLEAN = Exposure(blur=0.0, motion=(0.0, 0.0), read_noise=0.0, shot_noise=0.0, quality=100)


@functools.cache
def table(seed: int, size=SMALL) -> scene.Table:
    """A table drawn once for the whole run (its board and table top are drawn once too: they are cached)."""
    return scene.random_table(np.random.default_rng(seed), LAYOUT, size=size)


#: The two tables the photos are taken at: a 720p webcam and a 640x480 one.
BIG, LITTLE = (1, (1280, 720)), (2, SMALL)


def clean_shot() -> scene.Shot:
    return replace(scene.calm_shot(), exposure=CLEAN)


def test_scene_same_seeds_same_bytes():
    def photo():
        rng = np.random.default_rng(11)
        shot = scene.random_shot(rng, hand=True)
        return scene.render(LAYOUT, [(7, 3, "Red"), (7, 3, RUNNER), (2, 1, "Blue")], table(*LITTLE), shot)

    a, b = photo(), photo()
    assert a.shape == (480, 640, 3) and a.dtype == np.uint8
    assert a.tobytes() == b.tobytes()


def test_scene_markers_are_found_where_project_says():
    aruco = cv2.aruco
    detector = aruco.ArucoDetector(aruco.getPredefinedDictionary(aruco.DICT_4X4_50), aruco.DetectorParameters())
    t = table(*BIG)
    photo = scene.render(LAYOUT, [(7, 7, "Red"), (2, 1, "Blue")], t, scene.calm_shot())
    corners, ids, _ = detector.detectMarkers(cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY))
    assert ids is not None and sorted(ids.ravel().tolist()) == [0, 1, 2, 3]
    truth = scene.sticker_corners(LAYOUT, t)
    for found, i in zip(corners, ids.ravel()):
        expected = scene.project(t, scene.calm_shot(), truth[i])
        assert np.abs(found.reshape(4, 2).mean(axis=0) - expected.mean(axis=0)).max() < 1.5, f"marker {i}'s centre"
        assert np.abs(found.reshape(4, 2) - expected).max() < 2.5, f"marker {i}'s corners"


def test_scene_project_is_opencvs_projection():
    t = table(*LITTLE)
    shot = scene.random_shot(np.random.default_rng(4))
    pts = np.array([(x, y, z) for x in (-100.0, 0.0, 90.0) for y in (-120.0, 30.0) for z in (0.0, 15.0)])
    lens, pose = scene.camera(t, shot)
    ours = scene.project(t, shot, pts)
    theirs = cv2.projectPoints(pts, np.array(pose.rvec), np.array(pose.tvec), lens.matrix(), lens.coefficients())[0]
    assert np.abs(ours - theirs.reshape(-1, 2)).max() < 1e-6


def test_scene_undistort_inverts_distort():
    lens = Lens(1280, 720, 78.0, -0.3, 0.05, 0.0008, -0.0005)
    assert lens.is_monotonic()
    px = np.random.default_rng(0).uniform((0, 0), (1279, 719), (200, 2))
    assert np.abs(distort(lens, undistort(lens, px)) - px).max() < 1e-3


def test_scene_a_piece_shows_its_colour_on_its_space():
    t = table(*BIG)
    shot = clean_shot()
    x, y = LAYOUT.column(7).at(7)
    lean = scene.project(t, shot, [(x, y, t.edition.piece_mm[1] * 0.4)])[0]
    u, v = np.round(lean).astype(int)

    def patch(pieces):
        img = scene.render(LAYOUT, pieces, t, shot).astype(float)
        return img[v - 1:v + 2, u - 1:u + 2].reshape(-1, 3).mean(axis=0)  # BGR

    empty, red, blue = patch([]), patch([(7, 7, "Red")]), patch([(7, 7, "Blue")])
    assert np.abs(red - empty).max() > 25 and np.abs(blue - empty).max() > 25
    assert (red[2] - red[0]) - (blue[2] - blue[0]) > 60  # red is redder than blue there, whatever the light


def test_scene_a_tall_piece_leans_away_from_the_centre():
    t = replace(table(*BIG), pose=look_down((0.0, 0.0), 700.0, 0.0, 0.0, 30.0))  # straight down
    for column, step in ((12, 1), (2, 3), (7, 13), (5, 1)):
        x, y = LAYOUT.column(column).at(step)
        foot, top = scene.project(t, scene.calm_shot(), [(x, y, 0.0), (x, y, 20.0)])
        centre = t.lens.matrix()[:2, 2]
        assert np.linalg.norm(top - centre) > 1.02 * np.linalg.norm(foot - centre)  # 700 / 680: about 3%


def test_scene_a_hand_hides_what_is_under_it_and_nothing_far_away():
    t = table(*LITTLE)
    hand = Hand(target=(0.0, 0.0), heading=0.0, height=40.0, rise=0.2, size=1.0, left=False, spread=0.5, curl=0.0,
                tone=(200, 150, 120), sleeve=None, sleeve_at=100.0, motion=(0.0, 0.0))
    bare = scene.render(LAYOUT, [(7, 7, "Blue")], t, clean_shot())
    covered = scene.render(LAYOUT, [(7, 7, "Blue")], t, replace(clean_shot(), hand=hand))
    # the palm: behind the fingertips (at the board's centre), the arm pointing along +x
    palm = scene.project(t, clean_shot(), [(-120.0, 0.0, 40.0 + 0.2 * 120)])[0].round().astype(int)
    under = np.abs(covered[palm[1], palm[0]].astype(int) - bare[palm[1], palm[0]]).max()
    assert under > 40
    # far from it (markers 1 and 2) only the camera's exposure and white balance, which meter the whole frame
    far = scene.project(t, clean_shot(), [(150.0, 150.0), (150.0, -150.0)]).round().astype(int)
    for u, v in far:
        window = (slice(v - 2, v + 3), slice(u - 2, u + 3))
        assert np.abs(covered[window].astype(int) - bare[window]).mean() < under / 4


def test_scene_noise_and_jpeg_change_pixels():
    t = table(*LITTLE)
    calm = scene.calm_shot()
    base = scene.render(LAYOUT, [], t, calm)
    other_noise = scene.render(LAYOUT, [], t, replace(calm, seed=1))
    rough = scene.render(LAYOUT, [], t, replace(calm, exposure=replace(calm.exposure, quality=50)))
    clean_a = scene.render(LAYOUT, [], t, replace(calm, exposure=CLEAN))
    clean_b = scene.render(LAYOUT, [], t, replace(calm, exposure=CLEAN, seed=1))
    assert (base != other_noise).mean() > 0.3
    assert (base != rough).mean() > 0.3
    assert clean_a.tobytes() == clean_b.tobytes()  # without noise the seed changes nothing


def test_scene_camera_frames_the_board_as_promised():
    for seed in range(40):
        rng = np.random.default_rng(seed)
        t = scene.random_table(rng, LAYOUT)
        hx, hy = board_half(LAYOUT, t.edition)
        outline = np.array([(sx * hx * f, sy * hy) for sx in (-1, 1) for sy in (-1, 1) for f in (1,)]
                           + [(sx * hx, sy * hy * f) for sx in (-1, 1) for sy in (-1, 1) for f in (0, 0.5)])
        pts = project(t.lens, t.pose, outline)
        size = np.array([t.lens.width, t.lens.height])
        assert (pts >= -1).all() and (pts <= size + 1).all(), f"table {seed}: the board leaves the frame"
        share = ((pts.max(axis=0) - pts.min(axis=0)) / size).max()
        assert 0.4 < share < 0.9, f"table {seed}: the board fills {share:.2f}"
        up = -t.pose.rotation()[2]  # the camera looks down, at most ~35 degrees off vertical
        assert up[2] > np.cos(np.radians(36))
        e = irradiance(t.light, outline[:, 0], outline[:, 1])
        assert e.max() / e.min() <= 2.05, f"table {seed}: light varies {e.max() / e.min():.2f}:1"


def test_scene_unknown_colour_or_space_is_refused():
    t = table(*LITTLE)
    with pytest.raises(ValueError, match="Mauve"):
        scene.render(LAYOUT, [(7, 1, "Mauve")], t, scene.calm_shot())
    with pytest.raises(ValueError):
        scene.render(LAYOUT, [(2, 4, "Red")], t, scene.calm_shot())


def test_scene_runners_are_white_unless_asked():
    def runner(seed, **kw):
        return np.mean(scene.random_table(np.random.default_rng(seed), LAYOUT, **kw).edition.runner)

    assert all(runner(seed) > 220 for seed in range(20))
    assert all(runner(seed, runner="black") < 60 for seed in range(20))
    either = [runner(seed, runner="either") for seed in range(60)]
    assert any(v < 60 for v in either) and sum(v > 220 for v in either) > 45


@pytest.mark.parametrize("shape", ["pyramid", "cone", "cylinder", "pawn", "cube"])
def test_scene_every_piece_shape_draws(shape):
    t = table(*LITTLE)
    t = replace(t, edition=replace(t.edition, piece=shape))
    bare = scene.render(LAYOUT, [], t, clean_shot())
    busy = scene.render(LAYOUT, [(7, 7, "Green"), (7, 7, "Yellow"), (7, 7, RUNNER), (7, 7, "Red"), (7, 7, "Blue")],
                        t, clean_shot())
    assert (np.abs(busy.astype(int) - bare).max(axis=2) > 30).sum() > 40


def test_scene_camera_looks_down_at_its_target():
    pose = look_down((10.0, -20.0), 600.0, 0.0, 0.0, 0.0)
    assert np.allclose(pose.centre(), (10.0, -20.0, 600.0))
    assert np.allclose(project(Lens(640, 480, 60.0), pose, [(10.0, -20.0)]), [(319.5, 239.5)])


def test_sight_imports_only_numpy_opencv_pillow_and_the_standard_library():
    import ast
    import sys
    from pathlib import Path

    allowed = {"numpy", "cv2", "PIL", "sight"}
    for path in sorted((Path(__file__).resolve().parents[2] / "sight").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0 else []
            for name in names:
                top = name.split(".")[0]
                assert top in allowed or top in sys.stdlib_module_names, f"{path.name} imports {name}"
