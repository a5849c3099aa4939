"""Each colour keeps its symbol on the page, as on the box: by colour, never by seat (issue 22, friction 5)."""

from __future__ import annotations

import re

import pytest

from web import board

from tests.web import fetch
from tests.kit.rig import Rig
from tests.web.server import Server


def player_marks(html: str) -> dict[int, str]:
    """Seat -> the symbol its badge in the players' list shows."""
    return {int(seat): mark for seat, mark in
            re.findall(r'<li[^>]*data-seat="(\d)"[^>]*><span class="piece p\d"[^>]*>(.)</span>', html)}


def board_marks(html: str) -> dict[int, set[str]]:
    """Seat -> every symbol its markers on the board show."""
    found: dict[int, set[str]] = {}
    for seat, mark in re.findall(r'<span class="piece p\d" data-seat="(\d)" data-mark="\d">(.)</span>', html):
        found.setdefault(int(seat), set()).add(mark)
    return found


@pytest.fixture(scope="module")
def blue_first(tmp_path_factory):
    """A game where Blue sits first and Red second (the palette's order is Red, Blue, ...), under way; only read."""
    rig = Rig(tmp_path_factory.mktemp("blue"), names=("Ann", "Bo"), colours=("Blue", "Red"), seed=11, rest=1.0)
    rig.play_on(presses=40)
    yield rig
    rig.close()


def test_the_live_page_draws_each_colour_with_the_boxs_symbol(blue_first):
    box_marks = blue_first.box.app.marks()  # what the box's screens draw, seat by seat
    assert box_marks == (1, 0)  # Blue's symbol (the hollow square) though it sits first
    with Server(blue_first.state_dir) as server:
        page = fetch.get(server.url + "/?lang=en", timeout=10).text
    expected = {seat: board.MARKS[mark] for seat, mark in enumerate(box_marks)}
    assert player_marks(page) == expected == {0: "□", 1: "■"}
    on_board = board_marks(page)
    assert on_board  # the game has markers to look at
    for seat, marks in on_board.items():
        assert marks == {expected[seat]}


def test_the_replay_draws_each_colour_with_the_boxs_symbol(blue_first):
    with Server(blue_first.state_dir) as server:
        page = fetch.get(server.url + "/games/1?lang=en", timeout=10).text
    assert player_marks(page) == {0: "□", 1: "■"}
    assert all(marks == {"□" if seat == 0 else "■"} for seat, marks in board_marks(page).items())
    assert board_marks(page)


def test_a_colour_keeps_its_symbol_from_game_to_game(tmp_path):
    # Blue second this time: the same hollow square as when it sat first
    rig = Rig(tmp_path, names=("Ann", "Bo"), colours=("Red", "Blue"), seed=11, rest=1.0)
    try:
        rig.play_on(presses=40)
        with Server(tmp_path) as server:
            page = fetch.get(server.url + "/?lang=en", timeout=10).text
        assert player_marks(page) == {0: "■", 1: "□"}
    finally:
        rig.close()


def test_a_colour_the_page_has_no_name_for_takes_one_by_its_symbol():
    # not by seat: an unknown colour keeps the same CSS colour whatever seat it takes
    assert board.seat_classes(("Mauve", "Red"), (2, 0)) == "s0-m2 s1-red"
    assert board.seat_classes(("Red", "Mauve"), (0, 2)) == "s0-red s1-m2"
    from web.squares import seats_css

    css = seats_css()
    assert f".s0-m2{{--p0:{board.FALLBACK[2]}}}" in css and f".s1-red{{--p1:{board.PIECE_COLOURS['red']}}}" in css
    assert board.seat_classes(("</style><x>",), (1,)) == "s0-m1"  # a colour's stored text never reaches the page
