"""The web view in a real browser: headless Chromium loads the live page beside a box being played.

It sees the board match the state view of the same record (`cantstop-box
export | cantstop-box replay -`), sees it change after presses without a
reload (server-sent events), at a phone's and a TV's size, in English,
Japanese and Korean; steps through a finished game; and rides out a restart
of the web view (its stream ended, "Reconnecting…" shown, then live again). Without Chromium
these say so in one line and skip (`.ci/run` installs it).
"""

from __future__ import annotations

import contextlib
import json


import pytest

from boxcli import cli

from tests.kit.examples import SOAK
from tests.kit.rig import Rig
from tests.web import fetch, patchkit
from tests.web.browser import READ_BOARD, missing, wait_for
from tests.web.server import Server

WHY = missing()
pytestmark = pytest.mark.skipif(WHY is not None, reason=WHY or "")

XSS = "<img src=x onerror=alert(1)>"


def replayed(capsys, state_dir, game_id, tmp_file) -> dict:
    capsys.readouterr()
    assert cli.main(["export", str(game_id), "--state-dir", str(state_dir)]) == 0
    tmp_file.write_text(capsys.readouterr().out)
    assert cli.main(["replay", str(tmp_file)]) == 0
    return json.loads(capsys.readouterr().out)


def expected(view: dict) -> dict:
    markers = {str(i): {c: s for c, s in m.items() if c not in view["claimed"]} for i, m in enumerate(view["markers"])}
    return {"markers": {i: m for i, m in markers.items() if m}, "runners": view["runners"], "claimed": view["claimed"]}


def events_shown(driver) -> int:
    return int(driver.execute_script("return document.getElementById('game').dataset.events"))


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    state = tmp_path_factory.mktemp("store")
    rig = Rig(state, names=("Ann", XSS), seed=11, rest=1.0)
    rig.play_on()
    rig.tap("ROLL")
    rig.tap("ROLL")
    rig.play_on(presses=30)
    with Server(state) as server:
        yield rig, server, state
    rig.close()


#: Counts the page's fetches of /now.json (the whole live part), which a page following patches never needs.
COUNT_POLLS = """window.polls = 0; var open = XMLHttpRequest.prototype.open;
XMLHttpRequest.prototype.open = function (method, url) {
  if (String(url).indexOf("/now.json") === 0) { window.polls++; }
  return open.apply(this, arguments);
};"""


#: make soak: each language at both sizes; make test: each language once, the sizes taken in turn (a share of the
#: page loads, each the browser's CPU as much as the box's; docs/testing.md).
LIVE_PAGES = [(lang, size) for lang in ("en", "ja", "ko") for size in ("phone", "tv")
              if SOAK or (lang, size) in {("en", "phone"), ("ja", "tv"), ("ko", "phone")}]


@pytest.mark.parametrize(("lang", "size"), LIVE_PAGES)
def test_the_live_page_matches_the_record_and_follows_presses(table, browser, size, lang, capsys, tmp_path):
    rig, server, state = table
    driver = browser.page(size, lang)
    driver.get(server.url + "/")  # the browser's language chooses the page's
    assert driver.find_element("tag name", "html").get_attribute("lang") == lang, \
        driver.execute_cdp_cmd("Network.getAllCookies", {})  # a cookie left over would say why
    assert events_shown(driver) == len(rig.box.app.events)
    assert driver.execute_script(READ_BOARD) == expected(replayed(capsys, state, 2, tmp_path / "r.json"))
    names = driver.find_elements("css selector", "#game .players .name")
    assert [n.text for n in names] == ["Ann", XSS]  # shown as text, never run
    assert not driver.find_elements("css selector", "#game img")
    driver.execute_script("window.notReloaded = true")
    driver.execute_script(COUNT_POLLS)
    wait_for(driver, lambda d: d.execute_script("return window.EventSource !== undefined"))
    for _ in range(3):
        rig.play_on(presses=1)
        count = len(rig.box.app.events)
        wait_for(driver, lambda d: events_shown(d) == count)
        assert driver.execute_script(READ_BOARD) == expected(replayed(capsys, state, 2, tmp_path / "r.json"))
    assert driver.execute_script("return window.notReloaded") is True  # updated in place
    # each press sent only what changed, and the page, applying it, shows what a page loaded now shows
    now = fetch.get(server.url + f"/now.json?lang={lang}", timeout=5).json()
    assert driver.execute_script("return document.getElementById('live').getAttribute('data-version')") \
        == str(now["v"])
    shown = driver.execute_script("return document.getElementById('live').innerHTML")
    assert patchkit.first_difference(patchkit.parse(shown), patchkit.parse(now["html"])) is None
    assert driver.execute_script("return window.polls") == 0  # never the whole part fetched instead
    width = driver.execute_script("return document.documentElement.scrollWidth")
    assert width <= driver.execute_script("return window.innerWidth") + 1  # nothing wider than the screen
    board = driver.find_element("css selector", "#game .board").rect
    inner = driver.execute_script("return window.innerWidth")
    first = driver.find_element("css selector", '#game .col[data-col="2"]').rect
    last = driver.find_element("css selector", '#game .col[data-col="12"]').rect
    assert 0 <= board["x"] and first["x"] >= board["x"] and last["x"] + last["width"] <= board["x"] + board["width"]
    assert board["x"] + board["width"] <= inner  # every column on the screen
    if size == "tv":  # full screen: the whole board in view without scrolling
        assert board["y"] + board["height"] <= driver.execute_script("return window.innerHeight")
    driver.save_screenshot(str(tmp_path / f"live-{size}-{lang}.png"))


def test_a_finished_game_steps_through_with_the_keys(table, browser):
    rig, server, state = table
    driver = browser.page("tv", "en")
    driver.get(server.url + "/games")
    driver.find_element("css selector", 'tr[data-game="1"] a').click()
    total = int(driver.find_element("id", "replay").get_attribute("data-total"))
    assert int(driver.find_element("id", "step").text) == total
    from selenium.webdriver.common.keys import Keys

    driver.find_element("tag name", "body").send_keys(Keys.HOME)
    wait_for(driver, lambda d: d.find_element("id", "step").text == "0")
    assert not driver.find_elements("css selector", "#replay .piece[data-seat]")  # an empty board
    driver.find_element("tag name", "body").send_keys(Keys.ARROW_RIGHT)
    wait_for(driver, lambda d: d.find_element("id", "step").text == "1")
    assert driver.find_element("id", "said").text.startswith("Ann: ")  # the first roll
    driver.get(server.url + "/people")
    assert "Ann" in driver.find_element("tag name", "main").text


def test_without_an_event_stream_the_page_polls_and_still_follows(table, browser, monkeypatch):
    """Too many pages open (the stream refused with 503): the page polls /now.json and follows all the same."""
    from web import app as web_app

    rig, server, state = table
    monkeypatch.setattr(web_app, "MAX_STREAMS", 0)
    driver = browser.page("phone", "en")
    driver.get(server.url + "/")
    driver.execute_script("window.notReloaded = true")
    for _ in range(2):
        rig.play_on(events=1)
        count = len(rig.events)
        wait_for(driver, lambda d: events_shown(d) == count)
    assert driver.execute_script("return window.notReloaded") is True


def test_a_restart_of_the_web_view_shows_the_gap_and_the_page_reconnects_by_itself(table, browser):
    """`systemctl restart cantstop-box-web` with a page open: its stream ends at once, the page says it is
    reconnecting while the web view is away, and follows presses again once it is back, without a reload."""
    rig, _, state = table
    first = Server(state)
    port = first.port
    driver = browser.page("phone", "en")
    with first:
        driver.get(first.url + "/")
        wait_for(driver, lambda d: first.hub.streams == 1)  # its event stream is open
        driver.execute_script("window.notReloaded = true")
        assert not driver.find_element("id", "conn").is_displayed()
    # stopped: the stream ended, and nothing answers on the port now
    wait_for(driver, lambda d: d.find_element("id", "conn").is_displayed())
    assert driver.find_element("id", "conn").text == "Reconnecting…"
    with Server(state, port=port) as second:
        wait_for(driver, lambda d: second.hub.streams == 1)  # the page's EventSource came back
        wait_for(driver, lambda d: not d.find_element("id", "conn").is_displayed())
        rig.play_on(events=1)
        count = len(rig.events)
        wait_for(driver, lambda d: events_shown(d) == count)
        assert driver.execute_script("return window.notReloaded") is True


def _rgb(css_hex: str) -> str:
    """#rrggbb as a browser's computed colour says it: rgb(r, g, b)."""
    r, g, b = (int(css_hex[i:i + 2], 16) for i in (1, 3, 5))
    return f"rgb({r}, {g}, {b})"


COMPUTED = """var selector = arguments[0], property = arguments[1];
return Array.from(document.querySelectorAll(selector)).map(function (el) {
  return [el.closest('[data-seat]') ? el.closest('[data-seat]').dataset.seat : el.dataset.seat,
          getComputedStyle(el)[property]];
});"""


@contextlib.contextmanager
def _won_replay(rig, state_dir, browser):
    """The rig's game played to a winner, its last step open in a TV-sized page: (server, driver)."""
    rig.play_on()  # to a winner: claims on the board
    with Server(state_dir) as server:
        driver = browser.page("tv", "en")
        driver.get(server.url + "/games/1?step=100000")
        wait_for(driver, lambda d: d.find_elements("css selector", "#replay .col.claimed"))
        yield server, driver


def test_each_seat_is_drawn_in_its_own_colour_when_the_seats_are_not_in_the_palettes_order(tmp_path, browser):
    """Issue 46, item 1: the page's policy drops an inline style, so every seat took the stylesheet's colours
    in turn order: Bob's Blue drawn red. Seats here sit Blue, Green, Red; their symbols, claims and runners
    must be drawn in those colours."""
    from web.squares import PIECE_COLOURS

    colours = ("Blue", "Green", "Red")
    rig = Rig(tmp_path, names=("Bob", "Cat", "Ann"), colours=colours, seed=5, rest=1.0)
    try:
        with _won_replay(rig, tmp_path, browser) as (server, driver):
            want = {str(i): _rgb(PIECE_COLOURS[c.lower()]) for i, c in enumerate(colours)}
            pieces = driver.execute_script(COMPUTED, "#replay .players .piece", "color")
            assert pieces and all(colour == want[seat] for seat, colour in pieces), (pieces, want)
            claims = driver.execute_script(
                "return Array.from(document.querySelectorAll('#replay .col.claimed')).map(function (c) {"
                " var seat = /\\bp(\\d)\\b/.exec(c.className)[1];"
                " return [seat, getComputedStyle(c.querySelector('.sq')).backgroundColor]; });")
            assert claims and all(colour == want[seat] for seat, colour in claims), (claims, want)
            rig.tap("ROLL")
            rig.tap("ROLL")  # the next game: a roll, a move, runners on the board
            rig.play_on(events=2)
            driver.get(server.url + "/?lang=en")
            wait_for(driver, lambda d: d.find_elements("css selector", "#game .runner"))
            turn = driver.execute_script("return document.getElementById('game').dataset.current")
            runners = driver.execute_script(COMPUTED, "#game .runner", "color")
            assert runners and all(colour == want[turn] for _, colour in runners), (runners, want, turn)
    finally:
        rig.close()


def test_a_claims_owner_is_told_by_shape_not_by_colour_alone(tmp_path, browser):
    """Issue 46, item 7: the owner's symbol was drawn in the claim's own fill colour, so only the fill told
    whose claim it was, and Red's and Green's fills look alike to a deuteranope. The owner's symbol now
    stands beside the column's number in the page's ink (the same colour for every owner), and on the fill
    in white with a dark edge."""
    from firmware.table.seat import symbols
    from web.squares import MARKS

    colours = ("Red", "Green")
    rig = Rig(tmp_path, names=("Ann", "Bob"), colours=colours, seed=4, rest=1.0)  # both claim a column
    try:
        with _won_replay(rig, tmp_path, browser) as (_, driver):
            claims = driver.execute_script(
                "return Array.from(document.querySelectorAll('#replay .col.claimed')).map(function (c) {"
                " var own = c.querySelector('.num .piece'), on = c.querySelector('.sq .piece');"
                " return [c.dataset.owner, own && own.textContent, own && getComputedStyle(own).color,"
                "         on && getComputedStyle(on).color, getComputedStyle(document.body).color]; });")
            marks = symbols(("Red", "Blue", "Green", "Yellow"), colours)
            owners = {owner for owner, *_ in claims}
            assert owners == {"0", "1"}, claims  # both players claimed: the case a colour-blind guest misreads
            for owner, shape, ink, on_fill, text in claims:
                assert shape == MARKS[marks[int(owner)]], claims  # the owner's own symbol, by shape
                assert ink == text, claims  # in the page's ink, not the owner's colour
                assert on_fill in (None, "rgb(255, 255, 255)"), claims
            assert len({shape for _, shape, *_ in claims}) == 2  # two owners, two shapes
    finally:
        rig.close()


def test_a_screen_reader_hears_each_column_by_its_own_number_only(table, browser):
    """Issue 46, item 8: the positions were an ordered list, so "1. 2: empty ... 11. 12: ..." was heard."""
    _, server, _ = table
    driver = browser.page("phone", "en")
    driver.get(server.url + "/?lang=en")
    wait_for(driver, lambda d: d.find_elements("css selector", ".positions li"))
    kind, style, first = driver.execute_script(
        "var l = document.querySelector('.positions');"
        " return [l.tagName, getComputedStyle(l.querySelector('li')).listStyleType, l.querySelector('li').textContent];")
    assert kind == "UL" and first.startswith("2: ")
