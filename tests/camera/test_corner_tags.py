"""The corner tags' printable sheet (make markers): the camera finds its four tags, each 36 mm with 9 mm of white
round it, on a page of the paper's size; stuck on a drawn board, they place it."""

from __future__ import annotations

import math
import re

import cv2
import numpy as np
import pytest
from PIL import Image

from firmware.devtools import corner_tags
from sight import markers
from sight.layout import MARKER_IDS, MARKER_MM, STANDARD_MARKERS, centred
from engine import HEIGHTS

MM_PER_PX = 25.4 / corner_tags.DPI
#: The points of a page: A4 (210 x 297 mm) and US Letter (8.5 x 11 in).
PAGES = {"a4": (210 / 25.4 * 72, 297 / 25.4 * 72), "letter": (612.0, 792.0)}


@pytest.fixture(scope="module")
def sheets(tmp_path_factory):
    folder = tmp_path_factory.mktemp("markers")
    written = corner_tags.write(folder)
    assert sorted(p.name for p in written) == ["corner-tags-letter.pdf", "corner-tags-letter.png",
                                                "corner-tags.pdf", "corner-tags.png"]
    return {paper: folder / corner_tags.STEMS[paper] for paper in corner_tags.PAPERS}


def _grey(sheets, paper) -> np.ndarray:
    return cv2.imread(str(sheets[paper].with_suffix(".png")), cv2.IMREAD_GRAYSCALE)


@pytest.mark.parametrize("paper", corner_tags.PAPERS)
def test_corner_tags_are_the_four_markers_each_once(sheets, paper):
    grey = _grey(sheets, paper)
    assert sorted(markers.find(grey)) == list(MARKER_IDS)
    # nothing else on the sheet reads as a tag (the board's sketch shows the tags' places, not a second copy)
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(markers.DICTIONARY))
    _, ids, _ = detector.detectMarkers(grey)
    assert sorted(ids.ravel().tolist()) == list(MARKER_IDS)


@pytest.mark.parametrize("paper", corner_tags.PAPERS)
def test_corner_tags_black_square_is_36_mm_at_300_dpi(sheets, paper):
    png = sheets[paper].with_suffix(".png")
    with Image.open(png) as image:
        assert image.info["dpi"] == pytest.approx((300, 300), abs=0.01)
        w, h = corner_tags.PAPERS[paper]
        assert image.size == (round(w / 25.4 * 300), round(h / 25.4 * 300))
    assert corner_tags.px(MARKER_MM) == 425
    for i, corners in markers.find(_grey(sheets, paper)).items():
        sides = np.linalg.norm(np.roll(corners, -1, axis=0) - corners, axis=1) * MM_PER_PX
        assert sides == pytest.approx([MARKER_MM] * 4, abs=0.1), i


@pytest.mark.parametrize("paper", corner_tags.PAPERS)
def test_corner_tags_white_margin_is_at_least_9_mm_all_round(sheets, paper):
    grey = _grey(sheets, paper)
    ring = math.ceil(9.0 / MM_PER_PX)  # 9 mm in whole pixels
    for i, corners in markers.find(grey).items():
        # the square's pixels (a corner's coordinates count from a pixel's centre: its edge is half a pixel out)
        left, top = np.round(corners.min(axis=0) + 0.5).astype(int)
        right, bottom = np.round(corners.max(axis=0) + 0.5).astype(int)
        around = grey[top - ring:bottom + ring, left - ring:right + ring].copy()
        assert around.shape == (bottom - top + 2 * ring, right - left + 2 * ring)
        around[ring:-ring, ring:-ring] = 255  # the black square itself
        assert around.min() == 255, f"tag {i}: ink within 9 mm of its square"
        # and the camera's paper ring (sight.raster.PAPER: out to 1.4 half sides from the centre) is inside it
        assert MARKER_MM / 2 * 1.4 - MARKER_MM / 2 < 9.0


@pytest.mark.parametrize("paper", corner_tags.PAPERS)
def test_corner_tags_lie_on_the_sheet_as_on_the_board(sheets, paper):
    centres = {i: c.mean(axis=0) for i, c in markers.find(_grey(sheets, paper)).items()}
    # pixels: x right, y down; the board's corners 0 bottom-left, 1 bottom-right, 2 top-right, 3 top-left
    assert centres[0][0] < centres[1][0] and centres[3][0] < centres[2][0]
    assert centres[3][1] < centres[0][1] and centres[2][1] < centres[1][1]
    assert corner_tags.CORNERS == {0: "bottom-left", 1: "bottom-right", 2: "top-right", 3: "top-left"}


@pytest.mark.parametrize("paper", corner_tags.PAPERS)
def test_corner_tags_pdf_is_the_papers_page_size_with_the_sheet_whole(sheets, paper):
    pdf = sheets[paper].with_suffix(".pdf").read_bytes()
    assert pdf.startswith(b"%PDF-")
    box = re.findall(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]", pdf)
    assert len(box) == 1  # one page
    width, height = map(float, box[0])
    assert (width, height) == pytest.approx(PAGES[paper], abs=0.3)  # 0.1 mm
    # the page's one picture is the PNG's pixels, black and white and lossless (CCITT G4, not JPEG)
    with Image.open(sheets[paper].with_suffix(".png")) as image:
        size = image.size
    assert re.search(rb"/Width %d\s" % size[0], pdf) and re.search(rb"/Height %d\s" % size[1], pdf)
    assert b"/CCITTFaxDecode" in pdf and b"/DCTDecode" not in pdf
    assert (width / 72 * 300, height / 72 * 300) == pytest.approx(size, abs=0.5)


def test_corner_tags_round_trip_on_a_drawn_board(sheets):
    """The sheet's four tags cut out, stuck on a board's corners (a little turned, as a hand sticks them) and
    photographed at a slant: the camera finds them and places every corner where it was stuck."""
    sheet = _grey(sheets, "a4")
    found_on_sheet = markers.find(sheet)
    size = (1280, 720)
    # the camera: the board's plane (mm, y up) to the photo, seen from the bottom edge at a slant
    plane = np.float32([(-190, -190), (190, -190), (190, 190), (-190, 190)])
    photo_corners = np.float32([(300, 700), (1010, 690), (890, 40), (400, 55)])
    camera = cv2.getPerspectiveTransform(plane, photo_corners).astype(np.float64)
    # a plain table and a plain board with its spaces
    photo = np.full((size[1], size[0], 3), (70, 90, 110), np.uint8)
    board = markers.apply(camera, np.float64([(-180, -180), (180, -180), (180, 180), (-180, 180)]))
    cv2.fillConvexPoly(photo, np.round(board).astype(np.int32), (150, 185, 205))
    layout = centred(HEIGHTS)
    w, h = layout.space
    for _, _, (x, y) in layout.spaces():
        space = markers.apply(camera, np.float64([(x - w / 2, y - h / 2), (x + w / 2, y - h / 2),
                                                  (x + w / 2, y + h / 2), (x - w / 2, y + h / 2)]))
        cv2.polylines(photo, [np.round(space).astype(np.int32)], True, (60, 80, 100), 2)
    ring = math.ceil(9.0 / MM_PER_PX)
    stuck = {}
    for (i, corners), turn in zip(sorted(found_on_sheet.items()), (3.0, -4.0, 2.0, -1.5)):
        left, top = np.floor(corners.min(axis=0)).astype(int) - ring
        right, bottom = np.ceil(corners.max(axis=0)).astype(int) + ring
        crop = cv2.cvtColor(sheet[top:bottom, left:right], cv2.COLOR_GRAY2BGR)
        crop = cv2.GaussianBlur(crop, (0, 0), 3.0)  # the lens: the sheet's 12 pixels a mm are the photo's 1.5
        # the cut-out (pixels) to the board's plane: its square's centre on the tag's place, turned a little
        cx, cy = corners.mean(axis=0) - (left, top)
        a = math.radians(turn)
        k = MM_PER_PX
        mx, my = STANDARD_MARKERS[i]
        to_plane = np.array([[k * math.cos(a), k * math.sin(a), 0], [k * math.sin(a), -k * math.cos(a), 0],
                             [0, 0, 1]]) @ np.array([[1, 0, -cx], [0, 1, -cy], [0, 0, 1]])
        to_plane = np.array([[1, 0, mx], [0, 1, my], [0, 0, 1]]) @ to_plane
        stuck[i] = markers.apply(to_plane, corners - (left, top))
        warp = camera @ to_plane
        paper = cv2.warpPerspective(crop, warp, size, flags=cv2.INTER_LINEAR)
        mask = cv2.warpPerspective(np.full(crop.shape[:2], 255, np.uint8), warp, size, flags=cv2.INTER_LINEAR)
        alpha = mask.astype(np.float32)[..., None] / 255
        photo = (photo * (1 - alpha) + paper * alpha).astype(np.uint8)
    found = markers.find(photo)
    assert sorted(found) == list(MARKER_IDS)
    kept = markers.anchors(found, STANDARD_MARKERS)
    for i in MARKER_IDS:
        assert np.abs(kept.corners[i] - stuck[i]).max() < 1.0, i  # mm
        sides = np.linalg.norm(np.roll(kept.corners[i], -1, axis=0) - kept.corners[i], axis=1)
        assert sides == pytest.approx([MARKER_MM] * 4, abs=1.0)  # a tag 50 to 65 pixels across in the photo
    markers.plane_map(found, kept)  # a later photo is placed by them (within MAX_ERROR_MM)
    # any three place the board: a hand over one corner is no matter
    three = {i: c for i, c in found.items() if i != 2}
    to_plane = markers.plane_map(three, kept)
    assert np.abs(markers.apply(to_plane, found[2]) - stuck[2]).max() < 1.5
