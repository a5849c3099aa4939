"""Sample views of every screen, in every language: what the golden images and the gallery show.

``SAMPLES`` maps a name to an English view; ``SAMPLES_IN[lang]`` the same
samples said by the box in ``lang`` (every sentence through the words module,
never translated by hand); ``SAMPLES_AT[size][lang]`` them for each screen size
(instructions are paged as that size's layout pages them, as the UI would). Grouped by family of screens, one function each.
"""

from __future__ import annotations

from dataclasses import replace

from engine import Decision, Move, Roll, Rules, Stop

from firmware import i18n, words
from firmware.table.bot import HintFacts
from firmware.ui.menus import LAST_ITEM, MENU_ITEMS
from firmware.screens import LAYOUTS, STANDARD, Layout
from firmware.views import (
    BoardView,
    Column,
    DiceView,
    HintView,
    InstructionsView,
    MenuView,
    MessageView,
    MoveView,
    OffView,
    Option,
    PhoneView,
    PickView,
    RunnerMove,
    RecapRow,
    RecapView,
    SetupView,
    StatsView,
    TableView,
    Track,
    TurnView,
    WinView,
)

HEIGHTS = {2: 3, 3: 5, 4: 7, 5: 9, 6: 11, 7: 13, 8: 11, 9: 9, 10: 7, 11: 5, 12: 3}


def _option(label, pairs, effect, text) -> Option:
    (a, b), (c, d) = pairs
    return Option(label, pairs, (a + b, c + d), effect, text)


def _board(players, markers=None, runners=None, owners=None, keys="A/B:column MENU:back", current=0, focus=None,
           alert=None) -> BoardView:
    markers = markers or {}
    runners = runners or {}
    owners = owners or {}
    columns = tuple(
        Column(c, h, tuple(markers.get(c, {}).get(s, 0) for s in range(len(players))), runners.get(c, 0), owners.get(c))
        for c, h in HEIGHTS.items()
    )
    return BoardView(tuple(players), columns, current, focus, keys, alert)


FOUR = ("Red", "Blue", "Green", "Yellow")
MID_MARKERS = {
    2: {0: 1},
    4: {1: 3, 2: 5},
    5: {0: 2, 3: 4},
    6: {0: 6, 1: 6, 2: 2, 3: 9},
    7: {0: 13},
    8: {1: 4, 2: 7, 3: 1},
    9: {0: 3, 1: 9},
    10: {2: 2},
    11: {3: 3},
}
MID_RUNNERS = {5: 4, 8: 9, 10: 3}
RED_MARKERS = {2: 1, 5: 2, 6: 6, 9: 3}


def _tracks(markers=None, runners=None, mine=(), theirs=()) -> tuple[Track, ...]:
    """The compact board beside a turn on a wide screen: the player's markers, runners and claims."""
    markers, runners = markers or {}, runners or {}
    return tuple(Track(c, h, markers.get(c, 0), runners.get(c, 0),
                       "mine" if c in mine else "theirs" if c in theirs else "") for c, h in HEIGHTS.items())
MID_OWNERS = {7: 0, 9: 1}

#: Sample texts that are no sentence of the box's words (a config error, made-up alerts and notes):
#: the same in every language's samples.
CONFIG_ERROR = ("/etc/cantstop-box/config.toml line 12: pin 17 is used twice (ROLL and MENU); fix the file and restart",)


def samples(lang: str = "en", layout: Layout = STANDARD) -> dict:
    """name -> a sample view in ``lang``; every view type and the variants that matter.

    Every sentence comes from the words module in ``lang`` (the colours too),
    so the Japanese and Korean samples are the English ones said by the box
    in those languages, not translated by hand.
    """
    w = words.language(lang)
    c = w.colour
    red, blue, green, yellow = (c(n) for n in FOUR)
    four = (red, blue, green, yellow)
    stop = Stop()
    claim = w.stop_lines(red, {4: 7, 6: 4, 7: 10}, [(4, [blue, green, yellow])])
    claim_pages = layout.paginate(None, claim)
    undo_stop = layout.paginate(None, w.undo_stop_lines(red, {2: 3, 12: 1}, {2: 0, 12: 0}, []))
    menu_items = tuple(w.MENU_ITEMS[k] for k in ("back", "stats", "undo", "hint", "board", "new"))
    setup_rows = (("players", 4), ("colour0", "Red"), ("plays0", None), ("colour1", "Burgundy"),
                  ("plays1", "strong"), ("win", 3), ("speedy", False), ("risky", False), ("start", None))
    setup = tuple(w.setup_row(k, value) for k, value in setup_rows)
    two = (("players", 2), ("risky", True), ("colour0", "Red"), ("plays0", None), ("colour1", "Blue"),
           ("plays1", "strong"), ("win", 3), ("speedy", False))  # a variant on: first under the players
    setup_two = tuple(w.setup_row(k, value) for k, value in two + (("start", None),))
    setup_lang = tuple(w.setup_row(k, value) for k, value in two + (("language", lang), ("start", None)))
    names = (("players", 2), ("name0", "Ann"), ("name1", "Maximiliane-Louise"), ("first", "Maximiliane-Louise"),
             ("colour0", "Red"), ("plays0", None), ("colour1", "Blue"), ("plays1", None), ("win", 3),
             ("speedy", False), ("risky", False), ("start", None))  # the rows a table changes most first
    names_rows = tuple(w.setup_row(k, value) for k, value in names)
    box = w.BOX_PLAYER
    title, lines = w.CONFIRM_NEW
    K = w.KEYS
    ctx = dict(w=w, K=K, red=red, blue=blue, green=green, yellow=yellow, four=four, stop=stop, claim=claim, claim_pages=claim_pages, undo_stop=undo_stop, menu_items=menu_items, setup=setup, setup_two=setup_two, setup_lang=setup_lang, names_rows=names_rows, box=box, title=title, lines=lines)
    views: dict = {}
    for part in (_turns, _dice, _moves, _boards, _lists, _people):
        views |= part(**ctx)
    return views


def _turns(w, K, red, blue, green, yellow, stop, claim_pages, undo_stop, **_) -> dict:
    """Turns starting, and what to do on the board after a stop, a bust or an undo."""
    return {
        # turns
        "turn_first": TurnView(red, 0, 1, (), w.opening_note((red, blue), red, Rules(), None), keys=K["turn"],
                               board=_tracks()),
        "turn_after_stop": TurnView(blue, 1, 5, (7,), w.previous_turn_note(red, stop), keys=K["turn"],
                                    board=_tracks({4: 3, 6: 6, 8: 4}, mine=(7,))),
        "turn_after_claim": TurnView(green, 2, 9, (4, 12), w.previous_turn_note(red, stop), keys=K["turn"],
                                     board=_tracks({5: 3, 6: 2, 8: 7, 10: 2}, mine=(4, 12), theirs=(7,))),
        "turn_after_bust": TurnView(yellow, 3, 3, (), w.previous_turn_note(green, Roll((1, 1, 2, 2))), keys=K["turn"],
                                    board=_tracks({5: 4, 6: 9, 8: 1, 11: 3}, theirs=(7, 9))),
        "turn_bot": TurnView("Burgundy", 1, 4, (3, 11), w.previous_turn_note(red, stop), bot=True, keys=K["box_turn"],
                             board=_tracks({6: 6, 8: 4, 9: 9}, mine=(3, 11))),
        "turn_alert": TurnView(red, 0, 2, (), w.previous_turn_note(blue, stop), keys=K["turn"],
                               alert=w.not_saved("disk full"), board=_tracks(RED_MARKERS)),
        "turn_solo": TurnView(red, 0, 1, (), w.opening_note((red,), red, Rules(), 7.7), keys=K["turn"],
                              board=_tracks()),
        # what to do on the board after a stop or a bust, and after an undo
        "handover_stop": InstructionsView(red, 0, w.handover_title(red, False), w.stop_lines(red, {7: 7, 8: 2, 9: 1}, []),
                                          keys=w.next_turn_key(blue)),
        "handover_box_stop": InstructionsView(blue, 1, w.handover_title(blue, False),
                                              w.stop_lines(blue, {6: 5, 8: 9, 10: 3}, [(10, [])], True, red),
                                              keys=w.next_turn_key(red)),
        "handover_box_bust": InstructionsView(blue, 1, w.handover_title(blue, True), w.box_bust_lines(),
                                              big=w.bust_big((3, 3, 6, 6)), keys=K["box_turn"]),
        "handover_claim": InstructionsView(red, 0, w.handover_title(red, False), claim_pages[0], page=1,
                                           pages=len(claim_pages), keys=K["page"]),
        "handover_claim_page2": InstructionsView(red, 0, w.handover_title(red, False), claim_pages[-1],
                                                 page=len(claim_pages), pages=len(claim_pages), keys=K["see_winner"]),
        "handover_bust": InstructionsView(green, 2, w.handover_title(green, True), w.bust_lines(True),
                                          big=w.bust_big((1, 1, 2, 2)), keys=w.next_turn_key(yellow)),
        "undone_move": InstructionsView(red, 0, w.undone_title(Move((5, 9))), w.undo_move_lines({5: 0, 9: 0}),
                                        keys=K["done"]),
        "undone_stop": InstructionsView(red, 0, w.undone_title(stop), undo_stop[0], page=1, pages=len(undo_stop),
                                        keys=K["page"]),
    }


def _dice(K, red, blue, green, **_) -> dict:
    """Dice out: the three pairings, legal or not, and a box seat's choice."""
    return {
        # dice
        "dice_all_legal": DiceView(
            red, 0, (2, 3, 4, 5),
            (
                _option("A", ((2, 3), (4, 5)), "both", "5+9"),
                _option("B", ((2, 4), (3, 5)), "both", "6+8"),
                _option("C", ((2, 5), (3, 4)), "both", "7x2"),
            ),
            board=_tracks(RED_MARKERS, {6: 8}), keys=K["choose"],
        ),
        "dice_pick_and_illegal": DiceView(
            blue, 1, (1, 1, 5, 6),
            (
                _option("A", ((1, 1), (5, 6)), "pick", "2/11"),
                _option("B", ((1, 5), (1, 6)), "pick", "6/7"),
                _option("C", ((1, 6), (1, 5)), "none", "--"),
            ),
            board=_tracks({4: 3, 8: 4}, {8: 6, 11: 2}, theirs=(7,)), keys=K["choose"],
        ),
        "dice_one_sum": DiceView(
            green, 2, (6, 6, 4, 6),
            (
                _option("A", ((6, 6), (4, 6)), "second", "10"),
                _option("B", ((6, 4), (6, 6)), "first", "10"),
                _option("C", ((6, 6), (6, 4)), "second", "10"),
            ),
            board=_tracks({8: 7, 10: 2}, {10: 4}, mine=(4, 12)), keys=K["choose"],
        ),
        "dice_bot_chose": DiceView(
            "Magentas", 3, (3, 3, 4, 4),
            (
                _option("A", ((3, 3), (4, 4)), "both", "6+8"),
                _option("B", ((3, 4), (3, 4)), "both", "7x2"),
                _option("C", ((3, 4), (3, 4)), "both", "7x2"),
            ),
            bot=True, chosen="A", board=_tracks({6: 2, 8: 5}, {6: 4}), keys=K["box_ok"],
        ),
        "dice_bot_pick": DiceView(
            blue, 1, (1, 1, 5, 6),
            (
                _option("A", ((1, 1), (5, 6)), "pick", "2/11"),
                _option("B", ((1, 5), (1, 6)), "pick", "6/7"),
                _option("C", ((1, 6), (1, 5)), "none", "--"),
            ),
            bot=True, chosen="A:11", board=_tracks({4: 3, 8: 4}, {8: 6, 11: 2}, theirs=(7,)), keys=K["box_ok"],
        ),
        "dice_alert": DiceView(
            red, 0, (6, 6, 6, 6),
            (
                _option("A", ((6, 6), (6, 6)), "both", "12x2"),
                _option("B", ((6, 6), (6, 6)), "both", "12x2"),
                _option("C", ((6, 6), (6, 6)), "both", "12x2"),
            ),
            keys=K["choose"], board=_tracks(RED_MARKERS, {6: 7, 12: 1}),
            alert="Undo: move taken back",
        ),
    }


def _moves(w, K, red, blue, green, yellow, stop, **_) -> dict:
    """The pick, a move with its bust chance, and the win."""
    return {
        # pick
        "pick": PickView(blue, 1, (1, 1, 5, 6), "A", (2, 11), keys=K["pick"],
                         board=_tracks({4: 3, 8: 4}, {5: 2, 9: 1})),  # one runner left: 2 or 11
        # move
        "move_two_steps": MoveView(
            red, 0, (RunnerMove(7, 3, False, False), RunnerMove(9, 1, True, False)), 0.239, True, 1,
            board=_tracks({2: 1, 5: 2, 7: 1}, {7: 3, 9: 1}), keys=K["roll_or_stop"],
        ),
        "move_top": MoveView(yellow, 3, (RunnerMove(12, 3, False, True),), 0.4405, True, 0, board=_tracks({5: 4, 11: 3}, {12: 3, 5: 6, 8: 2}, theirs=(7,)), keys=K["roll_or_stop"]),
        "move_double": MoveView(green, 2, (RunnerMove(7, 2, True, False),), 0.0, True, 2, board=_tracks({8: 7}, {7: 2}, mine=(4, 12)), keys=K["roll_or_stop"]),
        "move_speedy": MoveView(blue, 1, (RunnerMove(6, 5, False, False, (4,)), RunnerMove(8, 3, True, False, (1, 2))),
                                0.1103, True, 1, board=_tracks({4: 3, 6: 2}, {6: 5, 8: 3}), keys=K["roll_or_stop"]),
        "move_risky_stop": MoveView(
            blue, 1, (RunnerMove(6, 6, False, False), RunnerMove(8, 4, True, False)), 0.0772, False, 1,
            stop_note=w.risky_note([(8, [red])]), board=_tracks({4: 3, 6: 4}, {6: 6, 8: 4, 10: 2}), keys=K["roll"],
        ),
        "move_risky_long_note": MoveView(
            red, 0, (RunnerMove(4, 5, False, False),), 0.2431, False, 0,
            stop_note=w.risky_note([(10, ["Burgundy"])]), board=_tracks({4: 2}, {4: 5, 10: 3, 6: 8}), keys=K["roll"],
        ),
        "move_risky_many": MoveView(
            blue, 1, (RunnerMove(5, 2, True, False),), 0.1620, False, 0,
            stop_note=w.risky_note([(5, [red, green]), (9, [red])]), board=_tracks({9: 2}, {5: 2, 9: 4, 6: 3}), keys=K["roll"],
        ),
        "move_bot": MoveView(
            "Burgundy", 1, (RunnerMove(5, 4, True, False), RunnerMove(10, 3, False, False)), 0.5563, True, 0,
            bot=True, bot_next="stop", board=_tracks({10: 1}, {5: 4, 10: 3, 8: 5}, theirs=(7,)), keys=K["box_ok"],
        ),
        # win
        "win": WinView(red, 0, (2, 7, 12), 14, (f"{red}: markers to", "2:3  7:13  12:3"), keys=w.win_keys(False)),
        "win_long_name": WinView("Burgundy", 1, (4, 6, 10), 31, keys=w.win_keys(False)),
        "win_nobody": WinView(None, None, (), 40, ("No one can move.",), keys=w.win_keys(False)),
    }


def _boards(K, red, blue, four, **_) -> dict:
    """The board view: all columns, and one column in words."""
    return {
        # board
        "board_empty": _board((red, blue), keys=K["board"], current=0),
        "board_mid_game": _board(four, MID_MARKERS, MID_RUNNERS, MID_OWNERS, keys=K["board"], current=2),
        "board_three_players": _board(four[:3], MID_MARKERS, MID_RUNNERS, MID_OWNERS, keys=K["board"], current=1),
        "board_solo": _board((red,), {4: {0: 5}, 6: {0: 11}, 8: {0: 2}}, {6: 11, 8: 4}, keys=K["board"], current=0),
        "board_two_players": _board((red, blue), {3: {0: 2}, 5: {0: 4, 1: 6}, 7: {1: 9}, 8: {0: 3, 1: 3}},
                                    {6: 8, 8: 5}, {12: 1}, keys=K["board"], current=0),
        "board_game_over": _board((red, blue), {3: {1: 2}}, {}, {2: 0, 7: 0, 12: 0}, keys=K["board"], current=None),
        "board_column_players": _board(four, MID_MARKERS, MID_RUNNERS, MID_OWNERS, keys=K["board"], current=2,
                                       focus=8),
        "board_column_claimed": _board(four, MID_MARKERS, MID_RUNNERS, MID_OWNERS, keys=K["board"], current=2,
                                       focus=7),
        "board_column_empty": _board((red, blue), keys=K["board"], current=1, focus=12),
        "board_alert": _board(four, MID_MARKERS, MID_RUNNERS, MID_OWNERS, keys=K["board"], current=2,
                              alert="Check the board: 8"),
    }


def _lists(w, K, red, blue, yellow, menu_items, setup, setup_two, setup_lang, title, lines, **_) -> dict:
    """Menus, the new-game screen, messages, hints and wins per player."""
    return {
        # menus
        "menu_game": MenuView(w.MENU, menu_items, 1, keys=K["menu"]),
        "menu_scrolled": MenuView(w.MENU, menu_items, 5, keys=K["menu"]),
        # after a win: back, undo and hint cannot be used, and keep their places
        "menu_after_win": MenuView(w.MENU, tuple(w.MENU_ITEMS[k] for k in ("back", "undo", "hint", "board", "new",
                                                                         "stats", "continue")),
                                   3, keys=K["menu"], off=(0, 1, 2)),
        "menu_short": MenuView(w.MENU, (w.MENU_ITEMS["new"], w.MENU_ITEMS["stats"]), 0, keys=K["menu"]),
        # the box's address on the home network, the row above the Phone screen's (the network status known)
        "menu_network": MenuView(w.MENU, tuple(w.MENU_ITEMS[k] for k in MENU_ITEMS + ("mute",))
                                 + (w.network_row(("192.168.1.23",)), w.MENU_ITEMS[LAST_ITEM]), 8, keys=K["menu"]),
        "network": MessageView(w.NETWORK, ("cantstop.local", "192.168.1.23") + w.wifi_state_lines("joined", "Home"),
                               K["message"]),
        # the Wi-Fi did not work: said once, in one line, and the box plays offline
        "wifi_wrong_key": MessageView(*w.wifi_notice("wrong_key", "Home"), K["message"]),
        "wifi_none": MessageView(*w.wifi_notice("none", ""), K["message"]),
        "setup_top": SetupView(w.NEW_GAME, setup, 0, keys=K["setup"]),
        "setup_scrolled": SetupView(w.NEW_GAME, setup, 6, keys=K["setup"]),
        "setup_last": SetupView(w.NEW_GAME, setup_two, 8, keys=K["setup"]),
        "setup_language": SetupView(w.NEW_GAME, setup_lang, 8, keys=K["setup"]),
        # text screens
        "message_confirm": MessageView(title, lines, K["confirm"]),
        "message_long": MessageView("Config error", CONFIG_ERROR, keys="fix the file"),
        "hint": HintView(red, 0, w.decision_text(Decision.ROLL, rolled=True),
                         w.hint_reason(HintFacts("chances", True, 0.0772, roll_win=0.74, stop_win=0.65)), 0.0772,
                         keys=K["hint"]),
        "hint_pairing": HintView(blue, 1, "A: 6+8", w.hint_reason(HintFacts("move", True, 0.08, sums=(6, 8))),
                                 keys=K["hint"]),
        "stats": StatsView(((red, 7), (blue, 4), ("Burgundy", 2), (yellow, 0)), 13, keys=K["stats_one"]),
        "stats_empty": StatsView((), 0, keys=K["stats_one"]),
    }


def _people(w, K, red, stop, setup, names_rows, box, **_) -> dict:
    """Names on the new-game screen, statistics per person, a recap, continuing a game."""
    return {
        # people: names on the new-game screen, statistics per person, a game's recap, continuing a game
        "setup_names": SetupView(w.NEW_GAME, names_rows, 2, keys=K["setup"]),
        "stats_people": StatsView((("Ann", 5), ("Maximiliane-Louise", 3), (box, 2), (red, 1)), 11, K["stats"],
                                  page=w.page_of(1, 4)),
        # a big group: the second of three pages of wins (four people a page), its bars against the first's most
        "stats_many": StatsView((("Dora", 2), ("Emil", 1), ("Frederike", 1), ("Gus", 0)), 12, K["stats"],
                                page=w.page_of(2, 3), most=5),
        "stats_person": TableView("Ann", w.page_of(2, 4), w.person_rows(8, 5, 5 / 8, 0.2857, {3: (9, 11.25)})[:4],
                                  K["stats"]),
        "stats_person_solo": TableView("Maximiliane-Louise", w.page_of(3, 4),
                                       w.person_rows(0, 0, None, None, {1: (2, 3.5), 3: (12, 14.0)})[2:6], K["stats"]),
        "recap": RecapView(w.RECAP, w.recap_status(11), (RecapRow("Ann", 0, 11, 3, 9),
                           RecapRow("Maximiliane-Louise", 1, 11, 5, 6)), 0, K["recap"]),
        "recap_four": RecapView(w.RECAP, w.recap_status(14), (
            RecapRow("Ann", 0, 14, 4, 7), RecapRow("Bob", 1, 14, 6, 12), RecapRow(box, 2, 14, 2, 8),
            RecapRow("Christopher", 3, 13, 7, 5)), 1, K["recap"]),
        # a long solitaire practice: three-digit turns and busts keep their room, the name gives way
        "recap_long": RecapView(w.RECAP, w.recap_status(214), (RecapRow("Maximiliane-Louise", 0, 214, 131, 17),), 0,
                                K["recap"]),
        "win_recap_key": WinView("Ann", 0, (2, 7, 12), 14, ("Ann: markers to", "2:3  7:13  12:3"), w.win_keys(True)),
        "turn_name_hangul": TurnView("김민준", 0, 3, (7,), w.previous_turn_note("Ann", stop), keys=K["turn"],
                                     board=_tracks({6: 4}, mine=(7,))),
        "stats_people_scripts": StatsView((("김민준", 4), ("さくら", 3), ("Zoë", 1)), 8, K["stats"]),
        "continue_list": MenuView(w.CONTINUE, (w.continue_item(41, ("Ann", "Bob"), 17),
                                               w.continue_item(37, ("Maximiliane-Louise", red, box), 5)), 0,
                                  keys=K["menu"]),
        # pairing a phone: the QR code of the page's address with its one-time code, and the code beside it
        "phone": PhoneView(w.PHONE, "http://cantstop-box.local:8080/pair?code=482913", "482913",
                           w.phone_lines(2), w.PHONE_KEYS),
        "phone_wait": PhoneView(w.PHONE, "", "", (), w.PHONE_KEYS),
        "off": OffView(w.off_reason("Game saved")),
        "off_reason": OffView(w.off_reason("Power button: game saved")),
    }


def in_language(views: dict, lang: str) -> dict:
    """The views marked with their language (the renderer draws its own few words in it)."""
    return {name: replace(view, lang=lang) for name, view in views.items()}


#: The languages the gallery shows, and their samples (English: ``SAMPLES``).
LANGUAGES = i18n.LANGUAGES
SAMPLES_AT = {size: {lang: in_language(samples(lang, layout), lang) for lang in LANGUAGES}
              for size, layout in LAYOUTS.items()}
SAMPLES_IN = SAMPLES_AT[STANDARD.size]
SAMPLES = SAMPLES_IN["en"]

#: Samples that show a long player's name cut to fit, on purpose (the test checks they are cut).
CUT_NAMES = {"setup_names", "stats_people", "recap", "recap_four", "recap_long", "continue_list"}
