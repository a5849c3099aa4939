"""Every screen in every language: the samples are translated, and every sentence fits.

The Japanese and Korean samples are the gallery's English ones made through
the words module in that language (``firmware.devtools.samples.samples``), so these
golden images (``test_golden.py``) show what the box says, not a hand translation. The fit test puts
every message of every catalogue on every screen that shows it, with the
longest names and numbers, and fails on any text the renderer had to cut.
"""

from __future__ import annotations

import re

import pytest

from engine import Decision, Move, Roll, Rules, Stop
from firmware import i18n, views as v, words
from firmware.table.bot import HintFacts
from firmware.devtools import catalogues
from firmware.devtools.samples import SAMPLES_IN
from firmware.screens import render_checked
from firmware.screens.frame import legend_tokens
from firmware.screens.kit import STANDARD
from hw import glyphs

OTHER = [lang for lang in i18n.LANGUAGES if lang != "en"]


@pytest.mark.parametrize("lang", OTHER)
def test_languages_samples_speak_the_language(lang):
    """The samples really are translated: the new-game title and every legend label differ from English."""
    en, other = SAMPLES_IN["en"], SAMPLES_IN[lang]
    assert other["setup_top"].title != en["setup_top"].title
    assert other["turn_first"].keys != en["turn_first"].keys
    assert [k for k, _ in legend_tokens(other["turn_first"].keys)] == ["ROLL", "MENU"]


# -- every sentence on every screen that shows it ------------------------------------

LONG = "Burgundy"  # the longest colour name the samples use (8 letters)
COLOURS = ("Red", "Blue", "Green", "Yellow", "Orange", "Purple", "White", "Black")


#: The numbers behind a hint of every kind (firmware.table.bot.HintFacts), with the widest numbers.
FACTS = (HintFacts("move", True, 0.9996, sums=(10, 12)), HintFacts("start", True), HintFacts("must_roll", True, 1.0),
         HintFacts("win", False), HintFacts("chances", True, 0.44, roll_win=0.9999, stop_win=0.003),
         HintFacts("turns", True, saved_turns=10.25), HintFacts("turns", False, saved_turns=1.5),
         HintFacts("plain", True, 0.44), HintFacts("plain", False, 0.44, at_risk=1),
         HintFacts("plain", False, 0.44, at_risk=33))


def _names(w) -> list[str]:
    return [w.colour(c) for c in COLOURS] + [LONG]


def _screens(lang: str):
    """(what, view) for every sentence of the words module in ``lang``, on the screen that shows it."""
    w = words.language(lang)
    names = _names(w)
    long = max(names, key=lambda n: (len(n.encode()), n))
    steps = [v.RunnerMove(12, 3, True, True), v.RunnerMove(7, 13, False, True), v.RunnerMove(10, 12, True, False),
             v.RunnerMove(6, 11, False, False), v.RunnerMove(8, 11, True, False, (4, 5, 6, 9)),
             v.RunnerMove(8, 11, False, False, (2, 4, 6)), v.RunnerMove(6, 5, False, False, (4,)),
             v.RunnerMove(8, 3, True, False, (1, 2))]
    # the top bar: every flash and alert, every legend, over the screen of a turn
    phone = [w.from_phone(kind, long, long) for kind in ("add", "rename", "remove", "setup", "settings")]
    for text in [*w.FLASH.values(), w.cannot_move("C"), w.not_saved("disk full"), w.PHONES_FORGOTTEN, *phone]:
        yield text, v.TurnView(long, 1, 88, (2, 12), alert=text, lang=lang)
    for key, keys in w.KEYS.items():
        yield key, v.MessageView(w.NEW_GAME, (), keys, lang=lang)
    # the bust caption's two lines, beside a chance of one character (under two runners: its one word)
    yield "bust caption", v.MoveView(long, 0, (steps[1],), 0.0, True, 2, keys=w.KEYS["roll_or_stop"], lang=lang)
    for name in names:
        yield name, v.MessageView(w.NEW_GAME, (), w.next_turn_key(name), lang=lang)
        for bot in (False, True):
            # the turn screen: the heading and status with two claims, every opening and closing note
            notes = [w.opening_note((name, long), name, Rules(4, True, True), None),
                     w.opening_note((name,), name, Rules(3), 17.7),
                     w.previous_turn_note(name, Stop()), w.previous_turn_note(name, Roll((1, 1, 2, 2)))]
            for note in notes:
                yield note, v.TurnView(name, 3, 88, (2, 12), note, bot, w.KEYS["box_turn" if bot else "turn"],
                                       lang=lang)
            yield "dice", v.DiceView(name, 1, (6, 6, 6, 6), (v.Option("A", ((6, 6), (6, 6)), (12, 12), "both", "12x2"),) * 3,
                                     bot, "A:12" if bot else None, w.KEYS["box_ok" if bot else "choose"], lang=lang)
            for pair in (steps[:2], steps[2:4], steps[4:6], steps[6:]):
                for can_stop in (True, False):
                    note = None if can_stop else w.risky_note([(10, [name])])
                    yield pair, v.MoveView(name, 1, tuple(pair), 0.5563, can_stop, 2, note, bot,
                                           "stop" if bot else None, w.KEYS["box_ok"], lang=lang)
            yield "hint", v.HintView(name, 2, w.decision_text(Decision.ROLL, True), ("Roll: bust 56%", "+1.2 squares/roll"),
                                     0.5563, w.KEYS["box_ok"], lang=lang)
        yield "box plays", v.DiceView(name, 1, (6, 6, 6, 6), (v.Option("A", ((6, 6), (6, 6)), (12, 12), "both", "12x2"),) * 3,
                                      True, None, w.KEYS["box_ok"], lang=lang)
        yield "risky", v.MoveView(name, 1, tuple(steps[:2]), 0.5563, False, 0, w.risky_note([]), lang=lang)
        yield "pick", v.PickView(name, 0, (1, 1, 5, 6), "B", (11, 12), w.KEYS["pick"], lang=lang)
        # between turns: the title bar and every line of instructions
        others = [n for n in names if n != name][:3]
        big_lines = [(w.bust_big((6, 6, 6, 6)), w.bust_lines(True)), (w.bust_big((1, 1, 1, 1)), w.bust_lines(False)),
                     (w.bust_big((3, 3, 6, 6)), w.box_bust_lines())]
        plain = [w.stop_lines(name, {10: 12, 11: 10, 12: 3}, [(12, others)]),
                 w.stop_lines(name, {10: 12, 11: 10, 12: 3}, [(12, others)], True, others[0] if others else None),
                 w.stop_lines(name, {10: 12, 11: 10}, [], True, None),  # the box plays next too: someone moves them
                 w.undo_move_lines({10: 11, 12: 0}),
                 w.undo_stop_lines(name, {10: 12, 11: 10, 12: 3}, {10: 0, 11: 9, 12: 0}, [(12, others)])]
        for bust in (False, True):
            title = w.handover_title(name, bust)
            group = f"{name} {bust}"
            for big, lines in big_lines:
                yield lines, v.InstructionsView(name, 0, title, lines, big, 1, 2, w.KEYS["page"], lang=lang)
            for k, lines in enumerate(plain):
                for page in STANDARD.paginate(None, lines):  # as the UI pages them: as many pages as the language needs
                    yield ("pages", group, k), v.InstructionsView(name, 0, title, page, None, 10, 10, w.KEYS["done"], lang=lang)
        for event in (Move((10, 12)), Stop(), Roll((1, 2, 3, 4))):
            yield "undone", v.InstructionsView(name, 0, w.undone_title(event), (), None, 1, 2, w.KEYS["done"], lang=lang)
        # the win, and the end of a game nobody can win or of a practice
        yield "no claims", v.WinView(name, 3, (), 40, (), w.win_keys(False), lang=lang)
        for turns in (1, 188):
            yield "win", v.WinView(name, 3, (2, 7, 12), turns, w.practice_result(turns, 17.7), w.win_keys(False), lang=lang)
        yield "stats", v.StatsView(tuple((n, 188) for n in names[:4]), 1888, w.KEYS["stats_one"], lang=lang)
        # the board: a column page of every kind
        cols = tuple(v.Column(c, 13, (13, 12, 11, 10), 9 if c == 8 else 0, 0 if c == 7 else None) for c in range(2, 13))
        four = tuple(names[:3]) + (name,)
        for focus in (None, 7, 8, 13):
            yield "board", v.BoardView(four, cols, 3, focus, w.KEYS["board"], lang=lang)
        yield "board over", v.BoardView(four, cols, None, None, w.KEYS["board"], lang=lang)
        yield "board empty", v.BoardView(four, tuple(v.Column(c, 13, (0, 0, 0, 0)) for c in range(2, 13)), 0, 12,
                                         lang=lang)
    # people: a person's statistics, a game's recap, the games to continue
    yield "person", v.TableView(long, w.page_of(2, 4), w.person_rows(188, 88, 0.47, 0.2857, {3: (9, 11.25)})[:4],
                                w.KEYS["stats"], lang=lang)
    yield "person solo", v.TableView(long, w.page_of(3, 4), w.person_rows(0, 0, None, None, {11: (12, 14.0)})[2:6],
                                     w.KEYS["stats"], lang=lang)
    for rows in ((v.RecapRow(names[0], 0, 88, 3, 9), v.RecapRow(w.BOX_PLAYER, 1, 88, 5, 6)),
                 tuple(v.RecapRow(n, i, 88, 12, 13) for i, n in enumerate(names[:4]))):
        yield "recap", v.RecapView(w.RECAP, w.recap_status(188), rows, 0, w.KEYS["recap"], lang=lang)
    yield "continue", v.MenuView(w.CONTINUE, (w.continue_item(41, (names[0], w.BOX_PLAYER), 17),), 0, w.KEYS["menu"],
                                 lang=lang)
    title, lines = w.NO_UNFINISHED
    yield "no unfinished", v.MessageView(title, lines, w.KEYS["none_left"], lang=lang)
    title, lines = w.counting(12_345, 99_999)
    yield "counting", v.MessageView(title, lines, w.KEYS["stats_one"], lang=lang)
    yield "recap key", v.WinView(long, 0, (2, 7, 12), 188, (), w.win_keys(True), lang=lang)
    yield "nobody", v.WinView(None, None, (), 188, (w.nobody_can_win(3),), w.win_keys(False), lang=lang)
    for kind in ("reset", "unreadable", "damaged", "update"):
        title, lines = w.notice(kind, "game 12: event 40 does not replay")
        yield kind, v.MessageView(title, lines, w.KEYS["box_ok"], lang=lang)
    title, lines = w.CONFIRM_NEW
    yield "confirm", v.MessageView(title, lines, w.KEYS["confirm"], lang=lang)
    title, lines = w.NO_GAME
    yield "no game", v.MessageView(title, lines, w.KEYS["box_ok"], lang=lang)
    for cursor in (0, 5, len(w.MENU_ITEMS) - 1):  # the last page too (the sound items)
        yield "menu", v.MenuView(w.MENU, tuple(w.MENU_ITEMS.values()), cursor, w.KEYS["menu"], lang=lang)
    # the box's network: the menu's address row, the Network screen, the Wi-Fi notices (a long Wi-Fi name)
    items = tuple(w.MENU_ITEMS.values()) + (w.network_row(("192.168.100.200",)), w.network_row(()))
    for cursor in (len(items) - 2, len(items) - 1):
        yield "menu network", v.MenuView(w.MENU, items, cursor, w.KEYS["menu"], lang=lang)
    wifi = "Grandma's Wi-Fi 5 GHz"
    for state in ("joined", "joining"):
        lines = ("cantstop.local", "192.168.100.200") + w.wifi_state_lines(state, wifi)
        yield "network", v.MessageView(w.NETWORK, lines, w.KEYS["message"], lang=lang)
    for problem in ("wrong_key", "failed", "none", "unusable"):
        title, lines = w.wifi_notice(problem, wifi)
        yield "wifi", v.MessageView(title, lines, w.KEYS["message"], lang=lang)
    yield "stats empty", v.StatsView((), 0, w.KEYS["stats_one"], lang=lang)
    yield "off", v.OffView(w.off_reason("Game saved"), lang=lang)
    for paired in (1, 16):  # pairing a phone: its QR code, the code, how long, how many are paired
        yield "phone", v.PhoneView(w.PHONE, "http://cantstop-box.local:8080/pair?code=482913", "482913",
                                   w.phone_lines(paired), w.PHONE_KEYS, lang=lang)
    yield "phone wait", v.PhoneView(w.PHONE, "", "", (), w.PHONE_KEYS, lang=lang)
    # the camera: what it found on the board (the longest colours, two-digit columns), what it cannot see, setting up
    for what, kind, column, should, seen, owner in (
            ("moved", "Yellow", 10, 6, 7, ""), ("missing", "Purple", 11, 5, 0, ""), ("extra", "Yellow", 12, 0, 3, ""),
            ("extra", "Orange", 7, 0, 13, "Purple"), ("extra", "runner", 12, 0, 3, ""), ("moved", "runner", 10, 6, 7, ""),
            ("missing", "runner", 10, 7, 0, "")):
        line = w.finding_line(what, kind, column, should, seen, owner)
        yield ("finding", what, kind), v.MessageView(w.CHECK_BOARD, (line, line), w.KEYS["roll_or_stop"], lang=lang)
    for why in ("markers", "hand", "light"):
        yield ("blind", why), v.MessageView(w.CHECK_BOARD, (w.blind_line(why),), w.KEYS["camera"], lang=lang)
    for line in (w.board_right(), w.board_right_now(), w.board_unsure(83), w.looking(),
                 w.camera_absent("no camera at /dev/video0: is the webcam plugged in?")):
        yield "camera", v.MessageView(w.CHECK_BOARD, (line,), w.KEYS["message"], lang=lang)
    for state, refused in (("unset", ""), ("ask", ""), ("setting", ""), ("set", ""), ("refused", "markers"),
                           ("refused", "light"), ("refused", "spaces"), ("refused", "phone"), ("refused", "camera")):
        keys = w.KEYS["camera_ask"] if state in ("unset", "ask") else w.KEYS["camera"]
        yield ("camera setup", state, refused), v.MessageView(w.CAMERA, w.camera_lines(state, refused), keys, lang=lang)
    rows = [("players", 4), ("win", 11), ("win", 1), ("speedy", True), ("risky", False), ("start", None)]
    rows += [(f"colour{i}", c) for i, c in enumerate(COLOURS[:4])] + [("plays3", "strong"), ("plays2", None)]
    rows += [("language", lang) for lang in i18n.LANGUAGES]
    rows += [("name0", "Ann"), ("name1", None), ("first", w.colour("Yellow"))]
    for key, value in rows:
        row = w.setup_row(key, value)
        yield row, v.SetupView(w.NEW_GAME, (row,) * 9, 8, w.KEYS["setup"], lang=lang)
    for facts in FACTS:
        yield facts, v.HintView(long, 0, w.decision_text(Decision.ROLL, True), w.hint_reason(facts), 0.5563, w.KEYS["hint"],
                                lang=lang)
    for action, rolled in ((Decision.STOP, True), (Decision.ROLL, False), (Decision.ROLL, True)):
        yield action.value, v.HintView(long, 0, w.decision_text(action, rolled), (), None, w.KEYS["box_ok"], lang=lang)


def _cuts(lang: str) -> list[tuple[object, str, tuple[str, ...]]]:
    """(what, screen, cuts) per view; the pages of one paginated text count as one."""
    out: dict = {}
    for i, (what, view) in enumerate(_screens(lang)):
        key = what if isinstance(what, tuple) and what[:1] == ("pages",) else i
        _, screen, cuts = out.get(key, (what, type(view).__name__, ()))
        out[key] = (what, screen, cuts + render_checked(view).cuts)
    return list(out.values())


@pytest.mark.parametrize("lang", OTHER)
def test_languages_every_sentence_fits_every_screen_that_shows_it(lang):
    """Wherever the English sentence fits, the translation fits too (the same views, name for name).

    The views push the screens to their limits (four runners' worth of
    jumped squares, 8-letter names, 3-digit counts); the few that even the
    English cannot hold are the screens' own limits, and must be the same
    ones in every language.
    """
    english, other = _cuts("en"), _cuts(lang)
    assert len(english) == len(other) > 400
    cut = [(what, screen, cuts) for (what, screen, cuts), (_, _, en) in zip(other, english) if cuts and not en]
    assert cut == []


def test_languages_english_fits_all_but_the_screens_own_limits():
    cut = {(screen, cuts) for _, screen, cuts in _cuts("en") if cuts}
    assert {screen for screen, _ in cut} <= {"DiceView", "HintView", "MoveView", "TurnView"}, sorted(cut)


@pytest.mark.parametrize("lang", OTHER)
def test_languages_fit_test_draws_every_sentence_of_the_catalogue(lang, monkeypatch):
    """Each translation the box can say is drawn (placeholders filled) on some screen of the fit test: every
    sentence with a place under firmware/ (the web view's own are said by its pages, in a browser)."""
    drawn = []
    draw_text = glyphs.draw_text

    def recording(target, xy, text, size, fill=1):
        drawn.append(text)
        return draw_text(target, xy, text, size, fill)

    monkeypatch.setattr(glyphs, "draw_text", recording)
    for _, view in _screens(lang):
        render_checked(view)
    seen = "".join(drawn).replace(" ", "")  # a wrapped sentence joins up again
    catalogue = i18n.translation(lang)._catalog  # the compiled catalogue: every translation the box can say
    boxs = {(m.context or "", m.id[0] if isinstance(m.id, tuple) else m.id)
            for m in catalogues.read(catalogues.po_path(lang), lang)
            if m.id and any(f.startswith("firmware/") for f, _ in m.locations)}
    missing = []
    for key, message in catalogue.items():
        if not key or message.startswith("Project-Id"):
            continue
        context, _, msgid = (key[0] if isinstance(key, tuple) else key).rpartition("\x04")  # gettext's context mark
        if (context, msgid) not in boxs:
            continue
        parts = [p.strip(" .。、") for p in re.split(r"\{[^}]*\}|\s+|:", message)]
        if not all(part.replace(" ", "") in seen for part in parts if part):
            missing.append(message)
    assert missing == []
