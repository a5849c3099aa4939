"""Each cut the property-based fit tests found (issue 22), as a named regression test at the size it was found."""

from engine import Decision, Rules, Stop
from firmware import words
from firmware.table.bot import HintFacts
from firmware.views import DiceView, HintView, MenuView, MoveView, Option, RunnerMove, TurnView, WinView

from .fitkit import problems, who

EN = words.language("en")
LONG = "Maximiliane-Louise-Wilhelmina-Alexandra-von-Hohenzollern-Sigmar"  # 63 characters


def test_fit_cut_the_hint_of_risky_must_roll_keeps_both_sentences_at_128x64():
    reason = EN.hint_reason(HintFacts("must_roll", True, 0.0))
    view = HintView("Red", 0, EN.decision_text(Decision.STOP, True), reason, None, EN.KEYS["hint"])
    assert problems(view, (128, 64), needs=reason) == []


def test_fit_cut_two_two_digit_sums_fit_their_pairing_at_128x32():
    options = (Option("A", ((4, 5), (6, 6)), (9, 12), "both", "9+12"),
               Option("B", ((4, 6), (5, 6)), (10, 11), "both", "10+11"),
               Option("C", ((4, 6), (5, 6)), (10, 11), "both", "10+11"))
    view = DiceView("Red", 0, (4, 5, 6, 6), options, keys=EN.KEYS["choose"])
    assert problems(view, (128, 32), needs=("10+11",), legend=False) == []


def test_fit_cut_a_long_starting_name_leaves_the_rules_on_the_turn_at_128x64():
    note = EN.opening_note((LONG, "Red"), LONG, Rules(columns_to_win=1, speedy=True, risky=True), None)
    view = TurnView(LONG, 0, 1, (), note, keys=EN.KEYS["turn"])
    assert problems(view, (128, 64), {LONG, EN.turn_heading(LONG, False)}, needs=note) == []


def test_fit_cut_nine_claimed_columns_and_the_practice_result_fit_the_win_at_128x64():
    note = EN.practice_result(1, 1.0)
    view = WinView("Red", 0, tuple(range(2, 11)), 1, note, EN.win_keys(False))
    assert problems(view, (128, 64), {"Red", EN.win_heading("Red")}, needs=note) == []


def test_fit_cut_the_menu_under_an_alert_shows_the_cursor_row_at_128x32():
    view = MenuView(EN.MENU, (EN.MENU_ITEMS["back"], EN.MENU_ITEMS["undo"]), 0, EN.KEYS["menu"], EN.FLASH["which_column"])
    assert problems(view, (128, 32), needs=(EN.MENU_ITEMS["back"],)) == []


def test_fit_cut_the_second_page_of_a_risky_move_has_its_legend_at_128x32():
    view = MoveView("Blue", 1, (RunnerMove(6, 6, False, False),), 0.0772, False, 1,
                    stop_note=EN.risky_note([(6, ["Red"])]), keys=EN.KEYS["roll"])
    assert problems(view, (128, 32), needs=(EN.percent(0.0772),)) == []


def test_fit_cut_a_box_seats_second_page_has_its_legend_at_128x32():
    view = MoveView("Burgundy", 1, (RunnerMove(5, 4, True, False),), 0.5563, True, 0, bot=True, bot_next="stop",
                    keys=EN.KEYS["box_ok"])
    assert problems(view, (128, 32), {"Burgundy", EN.who("Burgundy", True)}, needs=(EN.percent(0.5563),)) == []


def test_fit_cut_an_alert_with_two_runners_keeps_the_legend_at_128x32():
    view = MoveView("Red", 0, (RunnerMove(7, 3, False, False), RunnerMove(9, 1, True, False)), 0.239, True, 1,
                    keys=EN.KEYS["roll_or_stop"], alert=EN.not_saved("disk full"))
    assert problems(view, (128, 32)) == []


def test_fit_cut_three_digit_turns_and_busts_keep_their_room_and_the_name_gives_way_at_128x32():
    from firmware.views import RecapRow, RecapView
    rows = (RecapRow(LONG, 0, 1234, 999, 35), RecapRow("Red", 1, 1233, 1000, 9))
    for lang in ("en", "ja", "ko"):
        w = words.language(lang)
        view = RecapView(w.RECAP, w.recap_status(1234), rows, 0, w.KEYS["recap"], lang=lang)
        for size in ((128, 32), (128, 64), (256, 64)):
            assert problems(view, size, {LONG, "Red"}, needs=("1234", "999", "1233", "1000")) == [], (lang, size)


def test_fit_cut_the_japanese_risky_note_leaves_no_character_alone_at_128x32():
    ja = words.language("ja")
    red = ja.colour("Red")
    note = ja.risky_note([(6, [red])])
    view = MoveView("Blue", 1, (RunnerMove(6, 6, False, False),), 0.0772, False, 1, stop_note=note,
                    keys=ja.KEYS["roll"], lang="ja", note_names=(red,))
    assert problems(view, (128, 32), {red}, needs=(note,)) == []


def test_fit_cut_a_long_owner_in_the_risky_note_is_cut_not_the_reason_at_128x32():
    note = EN.risky_note([(2, ["W" * 40])])
    view = MoveView("Red", 0, (RunnerMove(2, 1, False, False),), 0.0, False, 0, stop_note=note, keys=EN.KEYS["roll"],
                    note_names=("W" * 40,))
    for size in ((128, 32), (128, 64), (256, 64)):
        assert problems(view, size, {"W" * 40, "Red"}, needs=(note,)) == [], size


def test_fit_cut_an_alert_keeps_the_chance_and_the_risky_note_clear_of_the_legend_at_128x32():
    ko = words.language("ko")
    note = ko.risky_note([(2, ["Burgundy"])])
    view = MoveView(ko.colour("Red"), 0, (RunnerMove(2, 1, False, False),), 0.0, False, 0, stop_note=note,
                    keys=ko.KEYS["roll"], alert=ko.FLASH["which_column"], lang="ko", note_names=("Burgundy",))
    assert problems(view, (128, 32), {"Burgundy", ko.colour("Red")}, needs=(note, "0%")) == []
    plain = MoveView("Red", 0, (RunnerMove(7, 3, False, False),), 0.239, True, 1, keys=EN.KEYS["roll_or_stop"],
                     alert=EN.FLASH["which_column"])
    assert problems(plain, (128, 32), needs=(EN.percent(0.239),)) == []


def test_fit_cut_the_turn_has_its_legend_and_its_whole_note_at_128x32():
    note = EN.opening_note((LONG, "Red"), LONG, Rules(columns_to_win=1, speedy=True, risky=True), 7.7)
    view = TurnView(LONG, 0, 1, (), note, keys=EN.KEYS["turn"])
    assert problems(view, (128, 32), {LONG, EN.turn_heading(LONG, False)}, needs=note) == []


def test_fit_cut_a_long_kana_or_hangul_name_in_the_last_turns_note_is_cut_not_stopped():
    # Found by the fit property on a fresh clone: a 64-character name without spaces wraps anywhere, filled the
    # note's four lines and pushed "stopped." off the screen; the note's names are cut there now.
    name = "김김김김김さ김김김김김김김김김김김さ김김김김김さ김김김김김김김김김김김"
    w = words.language("en")
    note = w.previous_turn_note(name, Stop())
    view = TurnView("Red", 0, 1, (), note, False, w.KEYS["turn"], None, lang="en", note_names=(name,))
    assert problems(view, (128, 64), who("en", "Red", False) | {"Red", name, w.turn_heading("Red", False)},
                    needs=note) == []


def test_fit_cut_a_name_wrapped_inside_and_its_last_line_dropped_hides_only_the_name():
    # Found the same way: "김さ김김" wrapped as "김さ" / "김김" at the end of the 128x32 risky note; its last
    # line dropped hides part of a name only (the checker joined the lines with a space and saw a cut word).
    view = MoveView("Red", 0, (RunnerMove(10, 1, False, False, ()),), 0.5, False, 0,
                    "Risky: 10 AAAAAAAAA Red 김さ김김", keys="ROLL:roll", lang="en",
                    note_names=("AAAAAAAAA", "Red", "김さ김김"))
    assert problems(view, (128, 32), {"AAAAAAAAA", "Red", "김さ김김"},
                    needs=("runner up to 1", "50.0%", "Risky: 10 AAAAAAAAA Red 김さ김김")) == []

