"""What a guest at a game night misses (issue 31): the page read as a guest would, over HTTP.

What just happened in words, the bust moment kept on the board, the winner
big, the box's own question on a pick, a replay step's dice, the colours'
contrast against a square, what a screen reader or a browser without
JavaScript gets, and the language a guest chose kept on the next page.
(Where it is laid out on a screen: test_guest_browser.py.)
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine import Move, Roll, Stop
from firmware import words
from firmware.ui.model import handover_pending

from web import squares, turns
from web.text import in_language

from tests.web import fetch
from tests.kit.rig import Rig
from tests.web.server import Server

CSS = Path(__file__).resolve().parents[2] / "web" / "static" / "style.css"


def get(server, path, **kw):
    return fetch.get(server.url + path, timeout=10, **kw)


def section(html: str, cls: str) -> str:
    found = re.search(rf'<section class="{cls}[^"]*">(.*?)</section>', html, re.S)
    return found.group(1) if found else ""


# -- 1. what just happened -------------------------------------------------------


def test_the_log_says_each_turn_in_words_newest_first():
    events = (Roll((3, 3, 4, 5)), Move((6, 9)), Roll((1, 2, 3, 3)), Move((3, 6)), Roll((6, 6, 6, 6)),  # Ann bust
              Roll((1, 5, 3, 3)), Move((6, 6)), Roll((3, 3, 6, 6)), Move((6, 12)), Roll((6, 6, 1, 1)), Move((2, 12)),
              Stop(),  # Bob stopped
              Roll((2, 3, 1, 1)))  # Ann's turn under way
    states = turns.replay(("Red", "Blue"), None, events)
    log = turns.log("en", words.language("en"), ("Ann", "Bob"), states, events)
    assert log[1] == "Bob stopped: 2 to 1, 6 to 3, 12 to 2"
    assert log[2] == "Ann rolled 6 6 6 6: bust, lost 3, 6, 9"
    assert log[0] == "Ann rolled 2 3 1 1"  # the turn under way, not moved yet: its dice
    moved = turns.log("en", words.language("en"), ("Ann", "Bob"), states[:3], events[:2])
    assert moved == ("Ann, this turn: 6 to 1, 9 to 1",)
    ja = turns.log("ja", words.language("ja"), ("さくら", "はると"), states, events)
    ko = turns.log("ko", words.language("ko"), ("민준", "서연"), states, events)
    assert "バースト" in ja[2] and "さくら" in ja[2] and "버스트" in ko[2] and "민준" in ko[2]


@pytest.fixture(scope="module")
def busted(tmp_path_factory):
    """Ann and Bob, played on until a roll has just bust (the box asks the table to take the runners off)."""
    rig = Rig(tmp_path_factory.mktemp("bust"), names=("Ann", "Bob"), seed=21, rest=1.0)
    for _ in range(400):
        rig.play_on(presses=1, stop_after=None if len(rig.events) < 30 else 2)
        app = rig.box.app
        if (len(app.events) > 12 and isinstance(app.events[-1], Roll) and handover_pending(app)
                and app.states[-2].runner_steps()):
            break
    else:
        raise AssertionError("no bust")
    with Server(rig.state_dir) as server:
        yield rig, server
    rig.close()


def test_the_live_page_shows_the_log_in_each_language(busted):
    rig, server = busted
    for lang, word in (("en", "bust"), ("ja", "バースト"), ("ko", "버스트")):
        log = section(get(server, f"/?lang={lang}").text, "log")
        items = re.findall(r"<li>(.*?)</li>", log)
        assert items and word in items[0]  # newest first: the bust that just happened


# -- 2. the bust moment --------------------------------------------------------------


def test_a_bust_keeps_its_dice_and_lost_runners_on_the_board_and_the_heading_and_chip_agree(busted):
    rig, server = busted
    app = rig.box.app
    before, dice = app.states[-2], app.events[-1].dice
    html = get(server, "/").text
    lost = dict(re.findall(r'<div class="sq" data-col="(\d+)" data-step="(\d+)"[^>]*>[^<]*(?:<span[^>]*>[^<]*</span>)*'
                           r'<span class="lost p\d">', html))
    assert {int(c): int(s) for c, s in lost.items()} == before.runner_steps()
    assert re.findall(r'<span class="die lost">(\d)</span>', html) == [str(d) for d in dice]
    headline = re.search(r'<p class="headline bust"[^>]*>(.*?)</p>', html).group(1)
    chip = re.search(r'<li class="player current"[^>]*data-seat="(\d)"', html).group(1)
    assert int(chip) == before.current and rig.box.app.seats[before.current].name in headline


# -- 3. the winner -------------------------------------------------------------------


@pytest.fixture(scope="module")
def won(tmp_path_factory):
    """Ann and Bob, one game played to its winner's screen; only read by the tests that take it."""
    rig = Rig(tmp_path_factory.mktemp("won"), names=("Ann", "Bob"), seed=11, rest=1.0)
    rig.play_on()
    try:
        with Server(rig.state_dir) as server:
            yield rig, server
    finally:
        rig.close()


def test_the_winner_is_big_outside_the_box_screen_and_best_turn_has_its_unit(won):
    rig, server = won
    html = get(server, "/").text
    winner = rig.box.app.game.winner
    big = re.search(r'<p class="headline winner"[^>]*>(.*?)</p>', html, re.S).group(1)
    assert ("Ann", "Bob")[winner] + " wins!" in big
    recap = section(html, "recap")
    assert re.search(r"<td>\d+ squares</td>", recap)
    assert "マス" in section(get(server, "/?lang=ja").text, "recap")


# -- 6. a replay's steps -----------------------------------------------------------


def test_each_replay_step_shows_its_dice_and_pairings_and_the_last_who_won(won):
    rig, server = won
    first = get(server, "/games/1?step=1").text  # after the first roll
    dice = section(first, "dice")
    assert len(re.findall(r'<span class="die">\d</span>', dice)) == 4
    assert len(re.findall(r'<li class="opt', dice)) == 3
    moved = get(server, "/games/1?step=2").text  # after its move: the chosen pairing marked
    assert 'class="opt chosen' in section(moved, "dice")
    last = get(server, "/games/1").text
    assert re.search(r'<p class="headline winner"[^>]*>.*wins!</p>', last, re.S)


# -- 8. the choice the box waits on --------------------------------------------------


def test_a_pairing_that_needs_a_pick_says_the_two_columns_the_box_asks_for(tmp_path):
    rig = Rig(tmp_path, names=("Ann", "Bob"), seed=21, rest=1.0)
    try:
        for _ in range(200):
            rig.play_on(presses=1)
            if rig.box.app.game.phase.value == "move" and any(
                    o.effect == "pick" for o in rig.view.options):
                break
        pick = next(o for o in rig.view.options if o.effect == "pick")
        a, b = pick.text.split("/")
        with Server(tmp_path) as server:
            dice = section(get(server, "/").text, "dice")
            row = re.search(rf'<li class="opt[^"]*" data-label="{pick.label}".*?</li>', dice, re.S).group(0)
            assert f"{a} or {b}" in row
            assert "か" in section(get(server, "/?lang=ja").text, "dice")
    finally:
        rig.close()


# -- 5. colours against a square ------------------------------------------------------


def _luminance(hex_colour: str) -> float:
    h = hex_colour.lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)

    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(int(h[i:i + 2], 16) / 255) for i in (0, 2, 4))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """WCAG 2 contrast ratio of two CSS colours."""
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_every_marker_colour_is_at_least_3_to_1_against_its_square():
    css = CSS.read_text()
    square = re.search(r"--sqbg:\s*(#[0-9a-fA-F]{3,6})", css).group(1)
    assert re.search(r"\.sq \{[^}]*background: var\(--sqbg\)", css)
    defaults = dict(re.findall(r"--(p[0-3]):\s*(#[0-9a-fA-F]{6})", css))
    colours = {**squares.PIECE_COLOURS, **{f"fallback {i}": c for i, c in enumerate(squares.FALLBACK)}, **defaults}
    low = {name: round(contrast(c, square), 2) for name, c in colours.items() if contrast(c, square) < 3}
    assert not low, f"below 3:1 against a square ({square}): {low}"
    # the default four (Red, Blue, Green, Yellow) differ in their symbol, so no guest needs the hue
    marks = squares.marks_of(("Red", "Blue", "Green", "Yellow"), ("Red", "Blue", "Green", "Yellow"))
    assert len({squares.MARKS[m] for m in marks}) == 4


# -- 9. a screen reader, and no JavaScript -------------------------------------------


def test_the_live_part_is_announced_and_the_board_reads_as_a_list(busted):
    rig, server = busted
    html = get(server, "/").text
    assert re.search(r'<p class="sr" id="say" aria-live="polite"', html)
    assert 'role="img"' not in html
    rows = re.findall(r"<li>(\d+): ([^<]*)</li>", re.search(r'<ul class="sr positions"[^>]*>(.*?)</ul>', html).group(1))
    assert [int(c) for c, _ in rows] == list(range(2, 13))
    g = rig.box.app.game
    for c, text in rows:
        for i, seat in enumerate(rig.box.app.seats):
            if g.markers[i][int(c)] and g.claimed[int(c)] < 0:
                assert f"{seat.name} {g.markers[i][int(c)]}" in text
    current = re.search(r'<li class="player current"[^>]*aria-current="true"[^>]*>(.*?)</li>', html).group(1)
    assert 'class="tag now"' in current  # more than a border: a tag a guest reads


def test_without_javascript_the_live_page_still_follows():
    from web import pages

    page = pages.live_page("en", "<div id=\"game\"></div>", 1)
    assert re.search(r'<noscript><meta http-equiv="refresh" content="\d+"></noscript>', page)


# -- 7. a box seat's person ----------------------------------------------------------


def test_a_seat_the_box_played_is_its_person_marked_in_the_history_and_the_box_in_the_statistics(tmp_path):
    """Issue 47, item 1: a seat is its person (named or not) everywhere, the box's part a mark after it ("Bob 🤖");
    the statistics count what the box played under the box (docs/players.md)."""
    from firmware.store import Store
    from firmware.config import GameConfig

    store = Store.open(tmp_path)
    store.new_game(["Red", "Blue"], GameConfig().rules, meta={"seats": [
        {"colour": "Red", "bot": None, "name": "Ann"}, {"colour": "Blue", "bot": "strong", "name": "Bob"}]})
    store.close()
    rig = Rig(tmp_path, seed=11, rest=1.0)
    rig.play_on()
    try:
        with Server(tmp_path) as server:
            for lang in ("en", "ja"):
                box = words.language(lang).BOX_PLAYER
                history = get(server, f"/games?lang={lang}").text
                players = re.search(r'<td data-label="[^"]*">(Ann, Bob <span class="bot"[^>]*>🤖</span>)</td>',
                                    history)
                assert players, history
                assert "CPU" not in history and f"🤖 {box} (" not in history
                stats = get(server, f"/people?lang={lang}").text
                assert re.search(rf"<h2>(?:(?!</h2>).)*{box}</h2>", stats) and "Bob" not in stats
                legend = in_language(lang)["bot_legend"]
                assert legend in history and legend in stats  # the robot explained
    finally:
        rig.close()


def test_pairings_with_the_same_sums_mark_only_one_chosen():
    """Issue 46, item 2: 3+8 and 8+3 (here 4+4/4+6 three ways) allow the same move, and every one was "chosen"."""
    from engine import apply, new_game
    from web.live import step_options

    start = new_game(["Red", "Blue"])
    rolled = apply(start, Roll((4, 4, 4, 6)))
    moved = apply(rolled, Move((8, 10)))
    options = step_options((start, rolled, moved), (Roll((4, 4, 4, 6)), Move((8, 10))))
    assert [o.sums for o in options] == [(8, 10), (8, 10), (10, 8)]
    assert [o.chosen for o in options] == [True, False, False]


def test_the_language_chosen_is_kept_on_the_next_page(game, tmp_path):
    with Server(tmp_path) as s, fetch.client(base_url=s.url, timeout=10) as phone:
        assert 'lang="ja"' in phone.get("/?lang=ja").text
        history = phone.get("/games")  # the tap on 履歴: no ?lang= in its link
        assert history.status_code == 200 and '<html lang="ja"' in history.text
        assert '<html lang="ko"' in phone.get("/people?lang=ko").text
        assert '<html lang="ko"' in phone.get("/").text
        assert '<html lang="en"' in phone.get("/games?lang=en").text
        assert '<html lang="en"' in get(s, "/games").text  # another phone: its own language


def test_only_a_page_asked_for_in_a_language_keeps_it_not_the_pages_own_stream_and_polls(game, tmp_path):
    """The live page's stream and polls name its language (``?lang=``); they set the cookie too, so a phone
    that once showed the page in Japanese kept it Japanese for a year after its owner switched the phone to
    Korean (and the browser tests' shared Chromium, its cookies cleared, was served a stale language once)."""
    with Server(tmp_path) as s, fetch.client(base_url=s.url, timeout=10) as phone:
        for path in ("/now.json?lang=ja", "/events?lang=ja&v=0"):
            with phone.stream("GET", path) as answer:
                assert answer.status_code == 200 and "set-cookie" not in answer.headers, path
        assert not phone.cookies
        assert '<html lang="ko"' in phone.get("/", headers={"Accept-Language": "ko-KR,ko;q=0.9"}).text
        page = phone.get("/?lang=ja")
        assert page.headers["set-cookie"].startswith("lang=ja;")  # a page asked for in Japanese: kept
        assert '<html lang="ja"' in phone.get("/", headers={"Accept-Language": "ko-KR,ko;q=0.9"}).text
