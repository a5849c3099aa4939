"""What a guest sees, laid out in headless Chromium (issue 31): a phone held upright (390x844) and a TV (1920x1080).

The dice and pairings on a phone's first screen, above the board; markers at
least half a square; runners in their player's colour; text that grows with
the screen (not only from 1600 CSS px up); a replay fitted to a landscape
screen's height; the line a screen reader announces. Skipped in one line
without Chromium, as test_browser.py is.
"""

from __future__ import annotations

import pytest

from tests.kit.rig import Rig
from tests.web.browser import missing
from tests.web.server import Server

WHY = missing()
pytestmark = pytest.mark.skipif(WHY is not None, reason=WHY or "")


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """A finished game (game 1) and a second one with the dice out and runners on the board."""
    state = tmp_path_factory.mktemp("guest")
    rig = Rig(state, names=("Ann", "Bob"), seed=21, rest=1.0)
    rig.play_on()
    rig.tap("ROLL")
    rig.tap("ROLL")
    for _ in range(300):
        rig.play_on(presses=1)
        g = rig.box.app.game
        if len(rig.events) > 20 and g.phase.value == "move" and g.runner_steps():
            break
    with Server(state) as server:
        yield rig, server
    rig.close()


def rect(driver, selector):
    return driver.find_element("css selector", selector).rect


@pytest.mark.parametrize("size", ["phone", "tv"])
def test_markers_are_half_a_square_and_runners_wear_their_players_colour(table, browser, size):
    rig, server = table
    driver = browser.page(size, "en")
    driver.get(server.url + "/")
    sizes = driver.execute_script("""
        return [...document.querySelectorAll('#game .sq .piece')].map(p => {
          const sq = p.closest('.sq').getBoundingClientRect(), r = p.getBoundingClientRect();
          return [r.height / sq.height, parseFloat(getComputedStyle(p).fontSize) / sq.height];
        });""")
    assert sizes, "no markers on the board"
    assert min(font for _, font in sizes) >= 0.5, sizes
    current = rig.box.app.game.current
    colours = driver.execute_script(f"""
        const runner = document.querySelector('#game .sq .runner');
        const badge = document.querySelector('#game .players li[data-seat="{current}"] .piece');
        return [getComputedStyle(runner).color, getComputedStyle(badge).color];""")
    assert colours[0] == colours[1]


def test_on_a_phone_the_dice_and_pairings_come_first_and_the_board_next(table, browser):
    rig, server = table
    driver = browser.page("phone", "ja")
    driver.get(server.url + "/")
    dice, board = rect(driver, "#game section.dice"), rect(driver, "#game .board")
    assert dice["y"] + dice["height"] <= 844  # on the first screen, without scrolling
    assert dice["y"] < board["y"]
    assert rect(driver, "#game section.screen")["y"] > board["y"]  # the box's shorthand after the board
    say = driver.find_element("id", "say").get_attribute("textContent")
    assert say and say == driver.find_element("css selector", "#game [data-say]").get_attribute("textContent")


@pytest.mark.parametrize("width,height", [(960, 540), (1280, 720)])
def test_text_grows_with_a_tv_browsers_width(table, browser, width, height):
    rig, server = table
    driver = browser.page("tv", "en")
    driver.set_window_size(width, height)
    driver.get(server.url + "/")
    inner = driver.execute_script("return window.innerWidth")
    px = driver.execute_script("return parseFloat(getComputedStyle(document.body).fontSize)")
    assert inner <= width and px > 16.5, (inner, px)


def test_a_replay_fits_a_landscape_screens_height_and_shows_its_dice(table, browser):
    rig, server = table
    driver = browser.page("tv", "ko")
    driver.get(server.url + "/games/1?step=1")
    board = rect(driver, "#replay .board")
    assert board["y"] + board["height"] <= driver.execute_script("return window.innerHeight")
    assert len(driver.find_elements("css selector", "#replay section.dice .die")) == 4
