"""Setting the camera up from a phone over HTTP: the page, its two requests as the box's socket receives them,
and every request that must not reach the box refused before it does."""

from __future__ import annotations

import html
import json
import re

import pytest

from tests.phone.kit import FakeBox, Phone, pair_code
from tests.web import camerafiles
from tests.web.server import Server
from web.phone.text import in_language

ENDS = {str(c): [[100.0 + 10 * c, 1000.5], [100.0 + 10 * c, 200.25]] for c in range(2, 13)}


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """A box's socket that keeps what it is asked, and the web view of a box whose config names a camera."""
    state_dir = tmp_path_factory.mktemp("cam")
    box = FakeBox(state_dir)
    try:
        with Server(state_dir, camera=True) as server:
            yield state_dir, box, server
    finally:
        box.close()


def _paired(server, state_dir) -> Phone:
    phone = Phone(server)
    assert phone.pair(pair_code(state_dir)).status_code == 303
    return phone


def _csrf(page: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', page).group(1)


def test_a_guest_sees_what_the_page_is_for_and_the_way_to_pair_but_no_form(table):
    state_dir, box, server = table
    page = Phone(server).get("/camera")
    assert page.status_code == 200 and 'href="/camera" aria-current="page"' in page.text
    assert 'name="csrf"' not in page.text and "/camera/setup.jpg" not in page.text and 'id="pair-link"' in page.text
    assert "camera.js" not in page.text


def test_a_request_not_from_a_paired_phone_of_this_site_never_reaches_the_box(table):
    state_dir, box, server = table
    asked = len(box.asked)
    phone = _paired(server, state_dir)
    token = _csrf(phone.get("/camera").text)
    t = in_language("en")
    for who, fields, why in ((Phone(server, origin=""), {"step": "photo"}, "other_site"),
                             (Phone(server, origin="http://evil.example"), {"step": "photo"}, "other_site"),
                             (Phone(server), {"csrf": token, "step": "photo"}, "not_paired"),
                             (phone, {"csrf": "x" * 64, "step": "photo"}, "form_old"),
                             (phone, {"step": "photo"}, "form_old")):
        answer = who.post("/camera", fields)
        assert answer.status_code == 403 and html.escape(t[why], quote=True) in answer.text, why
    assert len(box.asked) == asked


def test_photograph_the_empty_board_asks_the_box_and_the_page_waits_for_the_new_photo(table):
    state_dir, box, server = table
    phone = _paired(server, state_dir)
    page = phone.get("/camera?lang=ja").text
    answer = phone.post("/camera?lang=ja", {"csrf": _csrf(page), "step": "photo"})
    assert answer.status_code == 200 and box.asked[-1] == {"do": "camera", "step": "photo"}
    assert "カメラを設定中: 盤に触れないで..." in answer.text  # the box's own words, in the page's language
    assert re.search(r'<div id="camera" data-wait="[^"]*">', answer.text) and 'src="/static/camera.js"' in answer.text
    assert '<meta http-equiv="refresh" content="5;url=/camera">' in answer.text  # without JavaScript, too


def test_the_fitted_spaces_are_drawn_over_the_set_ups_photo_in_its_pixels(table):
    state_dir, box, server = table
    grid = camerafiles.setup(state_dir, size=(1600, 1200))
    phone = _paired(server, state_dir)
    page = phone.get("/camera").text
    stamp = (state_dir / "camera" / "setup.jpg").stat().st_mtime_ns
    assert f'<img src="/camera/setup.jpg?v={stamp}" width="1600" height="1200"' in page
    assert 'viewBox="0 0 1600 1200"' in page
    assert page.count("<polyline") == 11 and page.count("<circle") == 83
    x, y = grid["columns"]["7"][0]
    assert f'<circle cx="{x:.1f}" cy="{y:.1f}"' in page
    assert 'id="looks"' in page and '<button type="button" id="by-hand" class="quiet" hidden>' in page
    assert 'data-bottom="Tap the bottom space of column {column}"' in page
    assert 'data-top="Tap the top space of column {column}"' in page
    looked = phone.get("/camera?looks=right").text
    assert in_language("en")["camera_kept"] in looked


def test_spaces_not_found_offer_the_columns_by_hand_and_no_looks_right(table):
    state_dir, box, server = table
    camerafiles.setup(state_dir, found=False)
    page = _paired(server, state_dir).get("/camera?lang=ko").text
    assert html.escape(in_language("ko")["camera_not_found"], quote=True) in page
    assert 'id="looks"' not in page and 'id="by-hand"' in page and "<polyline" not in page


def test_the_columns_by_hand_reach_the_box_in_the_photos_pixels(table):
    state_dir, box, server = table
    camerafiles.setup(state_dir)
    phone = _paired(server, state_dir)
    before = phone.get("/camera/grid.json").headers["etag"]
    answer = phone.post("/camera", {"csrf": _csrf(phone.get("/camera").text), "step": "ends",
                                    "ends": json.dumps(ENDS)})
    assert answer.status_code == 200 and box.asked[-1] == {"do": "camera", "step": "ends", "ends": ENDS}
    assert f'data-wait="{html.escape(before, quote=True)}"' in answer.text  # waits for the spaces to change


@pytest.mark.parametrize("ends", [json.dumps({k: v for k, v in ENDS.items() if k != "7"}),
                                  json.dumps(ENDS | {"7": [[1, 2]]}), json.dumps(ENDS | {"7": [[-1, 2], [3, 4]]}),
                                  json.dumps(ENDS | {"7": [[1e9, 2], [3, 4]]}), "[[[[", "[" * 5000, ""])
def test_ends_the_box_would_not_take_are_refused_in_one_line_and_never_sent(table, ends):
    state_dir, box, server = table
    asked = len(box.asked)
    phone = _paired(server, state_dir)
    answer = phone.post("/camera", {"csrf": _csrf(phone.get("/camera").text), "step": "ends", "ends": ends})
    assert answer.status_code == 400 and 'class="refusal"' in answer.text
    assert len(box.asked) == asked


def test_a_grid_that_does_not_read_is_no_photo_yet(table):
    state_dir, box, server = table
    camerafiles.put(state_dir, "grid.json", b'{"size": [1600, 1200], "columns": {"99": [[1, 2]]}}')
    page = _paired(server, state_dir).get("/camera").text
    assert in_language("en")["camera_none"] in page and "<svg" not in page
    camerafiles.put(state_dir, "grid.json", b"[1, 2")
    assert in_language("en")["camera_none"] in _paired(server, state_dir).get("/camera").text


def test_with_the_box_off_nothing_is_sent_and_the_page_says_so(tmp_path):
    with Server(tmp_path) as server:
        phone = _paired(server, tmp_path)
        page = phone.get("/camera").text
        answer = phone.post("/camera", {"csrf": _csrf(page), "step": "photo"})
    assert answer.status_code == 503 and in_language("en")["box_off"] in answer.text
    assert "data-wait" not in answer.text


def test_the_phones_pages_link_the_camera_only_on_a_box_with_one(tmp_path):
    with Server(tmp_path) as server:
        phone = Phone(server)
        assert 'href="/camera"' not in phone.get("/players").text
        camerafiles.pictures(tmp_path)  # the camera has left its pictures: the box has one
        for path in ("/players", "/setup", "/settings", "/pair"):
            assert 'href="/camera"' in phone.get(path).text, path


def test_the_set_ups_photo_and_spaces_are_a_paired_phones_only(table):
    state_dir, box, server = table
    camerafiles.setup(state_dir)
    guest = Phone(server)
    for name in ("setup.jpg", "grid.json"):
        refused = guest.get(f"/camera/{name}")
        assert refused.status_code == 403 and refused.text.count("\n") == 1
    phone = _paired(server, state_dir)
    photo, grid = phone.get("/camera/setup.jpg"), phone.get("/camera/grid.json")
    assert photo.status_code == 200 and photo.headers["content-type"] == "image/jpeg"
    assert grid.status_code == 200 and grid.json()["size"] == [1600, 1200]
