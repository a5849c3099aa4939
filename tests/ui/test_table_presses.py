"""What the table presses, counted, around a stop and between games (issue 32, game night round three).

Scripted games on mock pins: a second STOP never rolls the next player's dice
and a press the hand-over guard refuses is said; a rematch is one press,
naming the players a few; Statistics are three presses from any game screen;
a box seat's stop says who moves its markers. And the words those screens
say: a hint's sums in the dice screen's order, names as typed on the win
screen, the terse Japanese and Korean mended.
"""

from engine import Roll, Stop
from firmware import views
from firmware.config import GameConfig
from firmware.screens import render_traced
from firmware.store import Store
from tests.kit.rig import Rig, keep_roster


def _to_decide(rig):
    """ROLL, then the first pairing that moves (A of a pick): the player may stop now."""
    rig.tap("ROLL")
    while not isinstance(rig.view, views.MoveView):
        v = rig.view
        if isinstance(v, views.DiceView):
            rig.tap(next(o.label for o in v.options if o.effect != "none"))
        elif isinstance(v, views.PickView):
            rig.tap("A")
        else:
            raise AssertionError(v)


def test_a_second_stop_never_rolls_the_next_players_dice(tmp_path):
    rig = Rig(tmp_path, seed=4, settings=GameConfig(handover_guard_ms=600))
    rig.tap("ROLL")  # start
    _to_decide(rig)
    rig.tap("STOP")
    assert isinstance(rig.events[-1], Stop)
    rig.clock.advance(0.7)  # past the hand-over guard
    rig.box.pump()
    rig.tap("STOP")
    assert isinstance(rig.events[-1], Stop), rig.events[-2:]  # no roll for the next player
    assert isinstance(rig.view, views.InstructionsView)
    rig.tap("ROLL")  # only ROLL confirms the board and rolls
    assert isinstance(rig.events[-1], Roll) and rig.box.app.game.current == 1
    rig.close()


ROSTER = ("Ann", "Bob", "Cat", "Dan")


def _won(tmp_path, names=None):
    rig = Rig(tmp_path, seed=3, roster=ROSTER, names=names, settings=GameConfig(columns_to_win=1))
    rig.presses = 0
    rig.play_on()
    assert isinstance(rig.view, views.WinView)
    return rig


def _counted(rig, *buttons):
    for b in buttons:
        rig.tap(b)
    return len(buttons)


def test_a_rematch_of_the_same_table_is_one_press(tmp_path):
    rig = _won(tmp_path, names=("Ann", "Bob"))
    seats = rig.box.app.seats
    before = rig.box.app.game
    assert _counted(rig, "C") == 1  # before: ROLL (the new-game screen), ROLL (start): 2
    app = rig.box.app
    assert app.game is not before and not app.events and app.seats == seats
    assert isinstance(rig.view, views.TurnView) and rig.view.player == "Ann"
    rig.close()


def test_three_named_players_from_the_win_screen_in_at_most_8_presses(tmp_path):
    """A table that played by colours names three people: 7 presses (before: ROLL, C, 2xB, C, 3xB, C, 3xB, C, ROLL: 14)."""
    rig = _won(tmp_path)
    n = _counted(rig, "ROLL", "C")  # the new-game screen; three players (the new seat takes Ann)
    v = rig.view
    labels = [r[0] for r in v.rows]
    assert labels[:5] == ["Players", "P1 name", "P2 name", "P3 name", "Starts"], labels  # the rows changed most
    n += _counted(rig, "B", "C", "B", "C", "ROLL")  # seat 1 takes Bob, seat 2 Cat
    assert n <= 8
    assert [s.name for s in rig.box.app.seats] == ["Bob", "Cat", "Ann"] and rig.box.app.game is not None
    rig.close()


def test_one_more_named_player_after_a_named_game_is_three_presses(tmp_path):
    rig = _won(tmp_path, names=("Ann", "Bob"))
    assert _counted(rig, "ROLL", "C", "ROLL") == 3  # before: ROLL, C, 8 x B, C, ROLL: 12
    assert [s.name for s in rig.box.app.seats] == ["Ann", "Bob", "Cat"]
    rig.close()


def test_statistics_are_three_presses_from_any_game_screen_and_roll_goes_back_to_the_game(tmp_path):
    """Before: MENU, 5 x B, ROLL (7), and ROLL on them went back to the menu, where ROLL opened them again."""
    rig = Rig(tmp_path, seed=4, roster=ROSTER, names=("Ann", "Bob"))  # a game begun: Ann's turn
    kinds = set()
    for _ in range(40):
        before = rig.view
        kinds.add(type(before).__name__)
        presses = _counted(rig, "MENU", "B", "ROLL")
        assert isinstance(rig.view, views.StatsView) and presses <= 3, (before, rig.view)
        rig.tap("ROLL")
        # back where the table was, not on the menu (a pick half made goes back to its dice, as MENU does)
        assert rig.view == before or (isinstance(before, views.PickView) and isinstance(rig.view, views.DiceView))
        rig.play_on(presses=2 if isinstance(before, views.PickView) else 1)  # a pick: its dice, then A
        if {"TurnView", "DiceView", "MoveView", "InstructionsView"} <= kinds:
            break
    assert {"TurnView", "DiceView", "MoveView", "InstructionsView"} <= kinds
    rig.close()


def test_a_press_the_hand_over_guard_refuses_is_said_like_any_refused_press(tmp_path):
    rig = Rig(tmp_path, seed=4, settings=GameConfig(handover_guard_ms=600))
    rig.tap("ROLL")  # start
    _to_decide(rig)
    rig.tap("STOP")
    events = rig.events
    rig.tap("ROLL")  # 0.2 s after the stop: inside the guard, refused
    assert rig.events == events and rig.view.alert == "Set the board as shown"
    rig.clock.advance(0.7)
    rig.box.pump()
    rig.tap("ROLL")
    assert isinstance(rig.events[-1], Roll) and rig.view.alert is None
    rig.close()


def _box_game(tmp_path, seed):
    """Ann (a person) against Green, played by the box."""
    store = Store.open(tmp_path)
    keep_roster(store, ROSTER)
    store.new_game(["Red", "Green"], GameConfig().rules, meta={"seats": [
        {"colour": "Red", "bot": None, "name": "Ann"}, {"colour": "Green", "bot": "strong"}]})
    return Rig(tmp_path, seed=seed, store=store)


def test_a_box_stop_says_who_moves_its_markers_and_its_turn_gives_one_instruction(tmp_path):
    said, moves = [], []
    for seed in range(1, 12):
        rig = _box_game(tmp_path / str(seed), seed)
        for _ in range(300):
            v = rig.view
            if isinstance(v, views.WinView):
                break
            if isinstance(v, views.MoveView) and v.bot:
                moves.append([d.text for d in render_traced(v).texts])
            if isinstance(v, views.InstructionsView) and v.title == "Green stops" and v.page == 1:
                said.append(v.lines[0])
            if rig.box.due is not None:
                rig.clock.now = max(rig.clock.now, rig.box.due) + 0.001
                rig.box.pump()
            else:
                rig.play_on(presses=1)
        rig.close()
        if said and moves:
            break
    assert said and set(said) == {"Ann moves Green to:"}, said
    assert moves
    for texts in moves:  # "Board: as is" is the one instruction: the box's runners are where they are, not moved
        assert "Board: as is" in texts and not any("climbs" in t or t.startswith("to ") for t in texts), texts


def test_a_box_stop_before_another_box_seat_says_someone_moves_them():
    from firmware import words
    assert words.stop_lines("Green", {3: 3, 8: 1}, [], True, None)[0] == "Someone moves Green to:"
    ja, ko = words.language("ja"), words.language("ko")
    assert "Ann" in ja.stop_lines("緑", {3: 3}, [], True, "Ann")[0]
    assert "Ann" in ko.stop_lines("초록", {3: 3}, [], True, "Ann")[0]


def test_a_hint_says_a_moves_sums_in_one_order():
    """The hint said "B: 11+3" and then "After 3+11": the reason now follows the dice screen's order."""
    import itertools
    import re

    from firmware import ui
    from tests.ui.driving import run, started

    checked = 0
    for dice in itertools.product((1, 2, 5, 6), repeat=4):
        app, _ = run(started(), "ROLL", dice, "ROLL!")
        v = ui.view(app)
        if not isinstance(v, views.HintView) or "+" not in v.action or not v.reason[0].startswith("After"):
            continue
        shown = re.search(r"(\d+(?:\+\d+)+)", v.action).group(1)
        said = re.search(r"After (\d+(?:\+\d+)+)", v.reason[0]).group(1)
        assert shown == said, (dice, v.action, v.reason)
        checked += shown != "+".join(sorted(shown.split("+"), key=int))  # an order a sort would change
    assert checked


def test_names_are_shown_as_typed_on_the_win_screen():
    from firmware import words
    assert words.language("ja").win_heading("Ann") == "Annの勝ち!"
    assert words.language("ko").win_heading("Ann").startswith("Ann ")
    assert words.win_heading("Ann") == "Ann WINS!"


def test_the_terse_japanese_and_korean_words_are_mended():
    from firmware import words
    ja, ko = words.language("ja"), words.language("ko")
    assert ja._("P{n} plays") == "P{n}の操作" and ja.pgettext("seat", "person") == "人"  # was 「P1の担当 プレイヤー」
    assert "新規" not in ja._("new on {step}: TOP!")  # was 「11に新規: 頂上!」
    assert ko.ngettext("{n} col", "{n} cols", 3).format(n=3) == "3열"  # was 「3개 열」
    assert ko._("bust") == "버스트"  # the recap said 「실패」 where every other screen says 버스트
