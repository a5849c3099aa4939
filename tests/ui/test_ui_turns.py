"""The pure UI state machine through a turn: the dice, the pairings, a move, a stop, undo, a bust, a win, the hints."""

from dataclasses import replace
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import STOP, Move, Roll, Rules, new_game, replay
from firmware import ui, views
from firmware.config import GameConfig
from firmware.ui.messages import Press
from tests.ui.driving import BUTTONS, press, run, started


def test_ui_boot_shows_new_game_with_defaults():
    v = ui.view(ui.boot(GameConfig()))
    assert isinstance(v, views.SetupView)
    assert ("Players", "2") in v.rows and ("P1 colour", "Red") in v.rows and ("P2 colour", "Blue") in v.rows


def test_ui_two_presses_start_a_game_and_roll():
    app = ui.boot(GameConfig())
    app, eff = press(app, "ROLL")
    assert eff == (ui.StartGame(("Red", "Blue"), Rules(), {"seats": [{"colour": "Red", "bot": None},
                                                                      {"colour": "Blue", "bot": None}]}),)
    assert isinstance(ui.view(app), views.TurnView)
    app, eff = press(app, "ROLL")
    assert eff == (ui.DrawDice(),)


def test_ui_roll_shows_three_pairings_in_fixed_order():
    app, eff = run(started(), "ROLL", (2, 3, 4, 5))
    assert eff == [ui.DrawDice(), ui.Append(Roll((2, 3, 4, 5)))]
    v = ui.view(app)
    assert isinstance(v, views.DiceView)
    assert [(o.label, o.pairs, o.sums, o.text) for o in v.options] == [
        ("A", ((2, 3), (4, 5)), (5, 9), "5+9"),
        ("B", ((2, 4), (3, 5)), (6, 8), "6+8"),
        ("C", ((2, 5), (3, 4)), (7, 7), "7x2"),
    ]


def test_ui_move_tells_what_to_place_and_the_bust_chance():
    app, eff = run(started(), "ROLL", (2, 3, 4, 5), "C")
    assert eff[-1] == ui.Append(Move((7, 7)))
    v = ui.view(app)
    assert isinstance(v, views.MoveView)
    assert v.steps == (views.RunnerMove(7, 2, True, False),)
    assert v.can_stop and v.free_runners == 2 and v.bust == 0.0


def test_ui_illegal_pairing_is_refused_with_a_flash():
    # Runners on 5, 9 and 7; then 1 1 2 4: A is 2+6, two new columns and no runner left.
    app, _ = run(started(), "ROLL", (2, 3, 4, 5), "A", "ROLL", (1, 1, 5, 6), "B", "B", "ROLL", (1, 1, 2, 4))
    assert app.game.free_runners == 0
    dice = ui.view(app)
    assert isinstance(dice, views.DiceView) and dice.options[0].text == "--"
    app2, eff = press(app, "A")
    assert eff == () and app2.events == app.events
    v = ui.view(app2)
    assert isinstance(v, views.DiceView) and v.alert == "A cannot move"
    app3, eff = press(app2, "B")  # a legal one still works, and the flash is gone
    assert eff == (ui.Append(Move((5,))),) and ui.view(app3).alert is None


def test_ui_pick_then_a_bust_needs_confirming_before_the_next_turn():
    # Runners on 5 and 9, then 1 1 5 6: B is 6+7 with one runner left: pick 7.
    app, _ = run(started(), "ROLL", (2, 3, 4, 5), "A", "ROLL", (1, 1, 5, 6), "B")
    v = ui.view(app)
    assert isinstance(v, views.PickView) and v.choices == (6, 7)
    app, eff = press(app, "B")
    assert eff == (ui.Append(Move((7,))),)
    app, _ = run(app, "ROLL", (1, 1, 1, 1))  # 2: a new runner is needed and none is free
    v = ui.view(app)  # that was a bust: it says so, big, before the next turn
    assert isinstance(v, views.InstructionsView) and v.big == "BUST! 1 1 1 1"
    assert v.lines == ("Take the runners off.", "Markers stay.") and v.keys == "ROLL:Blue rolls"
    app, eff = press(app, "ROLL")  # an eager second ROLL, too soon after the bust: refused, and said
    assert eff == () and ui.view(app) == replace(v, alert="Set the board as shown")
    app, eff = run(app, "T", "ROLL")  # the guard is over: one ROLL confirms and rolls Blue's dice
    assert eff == [ui.DrawDice()] and app.acked == len(app.events) and app.game.current == 1


def test_ui_pick_can_be_cancelled():
    app, _ = run(started(), "ROLL", (2, 3, 4, 5), "A", "ROLL", (1, 1, 5, 6), "B")
    app, eff = press(app, "STOP")
    assert eff == () and isinstance(ui.view(app), views.DiceView)


def test_ui_stop_before_moving_means_nothing():
    app = started()
    app2, eff = press(app, "STOP")
    assert eff == () and app2.game == app.game and ui.view(app2).alert == "Press ROLL to roll"


def test_ui_stop_places_markers_and_passes_the_turn():
    app, eff = run(started(), "ROLL", (2, 3, 4, 5), "A", "STOP")
    assert eff[-2:] == [ui.Append(STOP), ui.After(0.6)]  # the guard against an eager double press
    v = ui.view(app)
    assert isinstance(v, views.InstructionsView) and v.title == "Red stops"
    assert v.lines == ("Red markers to:", "5:1  9:1") and v.keys == "ROLL:Blue rolls"
    app, eff = run(app, "T", "ROLL", (1, 2, 3, 4))  # one press: the board is done, Blue's dice roll
    assert eff == [ui.DrawDice(), ui.Append(Roll((1, 2, 3, 4)))]
    v = ui.view(app)
    assert isinstance(v, views.DiceView) and v.player == "Blue"


def test_ui_undo_move_keeps_the_same_dice():
    app, _ = run(started(), "ROLL", (2, 3, 4, 5), "A")
    app, eff = press(app, "MENU", long=True)
    assert eff == (ui.PopLast(),)
    v = ui.view(app)  # first: what to take back on the board
    assert isinstance(v, views.InstructionsView) and v.title == "Undone: move 5+9"
    assert v.lines == ("Take runner off 5.", "Take runner off 9.", "Same dice: pick again")
    app, _ = press(app, "ROLL")
    v = ui.view(app)
    assert isinstance(v, views.DiceView) and v.dice == (2, 3, 4, 5)
    assert app.events == (Roll((2, 3, 4, 5)),)


def test_ui_undo_never_removes_a_roll():
    app, _ = run(started(), "ROLL", (2, 3, 4, 5))
    app2, eff = press(app, "MENU", long=True)
    assert eff == () and app2.events == app.events and ui.view(app2).alert == "Dice stay rolled"


def test_ui_undo_stop_returns_the_turn():
    app, _ = run(started(), "ROLL", (2, 3, 4, 5), "A", "STOP")
    app, eff = press(app, "MENU", long=True)
    assert eff == (ui.PopLast(), ui.After(4.0))  # two pages: the second comes by itself too
    v = ui.view(app)
    assert v.title == "Undone: stop" and v.pages == 2
    assert v.lines == ("Runners back on:", "5:1  9:1", "Red markers back to:", "5:off  9:off")
    app, _ = press(app, "B")
    assert ui.view(app).lines == ("Red decides again.",)
    app, _ = press(app, "ROLL")
    assert isinstance(ui.view(app), views.MoveView) and app.game.current == 0


def test_ui_win_finishes_the_game_and_offers_a_new_one():
    app = started(columns_to_win=1)
    app, eff = run(app, "ROLL", (1, 1, 1, 1), "A", "ROLL", (1, 1, 1, 1), "A")
    assert app.game.runners[2] == 3  # 2 is 3 high: on top now
    app, eff = press(app, "STOP")
    assert eff == (ui.Append(STOP), ui.FinishGame(0), ui.After(0.6))
    v = ui.view(app)  # first the last physical steps, then the winner
    assert isinstance(v, views.InstructionsView) and "Red claims 2!" in v.lines
    assert v.keys == "ROLL:see the winner"
    app, _ = run(app, "T", "ROLL")
    v = ui.view(app)
    assert isinstance(v, views.WinView) and v.player == "Red" and v.claims == (2,)
    app, _ = press(app, "MENU", long=True)
    assert ui.view(app).alert == "Game is over"
    app, _ = press(app, "ROLL")
    assert isinstance(ui.view(app), views.SetupView)


def test_ui_claim_note_says_whose_markers_come_off():
    app = started(columns_to_win=2)
    # Blue puts a marker on 2, then Red climbs 2 to the top and stops.
    app, _ = run(app, "ROLL", (3, 3, 3, 3), "A", "STOP", "T", "ROLL", (1, 1, 3, 4), "A", "STOP", "T")
    assert app.game.markers[1][2] == 1
    app, _ = run(app, "ROLL", (1, 1, 1, 1), "A", "ROLL", (1, 1, 6, 6), "A", "STOP")
    v = ui.view(app)
    assert isinstance(v, views.InstructionsView)
    assert v.lines == ("Red markers to:", "2:3  12:1", "Red claims 2!", "Take off 2: Blue.")
    # Undo that claim: the box says whose marker goes back, and where.
    app, _ = press(app, "MENU", long=True)
    assert "Put back on 2: Blue 1." in app.screen.lines


def _random_session(seed: int, n: int, rules: Rules, players: int):
    rng = random.Random(seed)
    app = ui.boot(GameConfig(players=players, columns_to_win=rules.columns_to_win, speedy=rules.speedy, risky=rules.risky))
    app, _ = ui.update(app, Press("ROLL"))
    for _ in range(n):
        inp = Press(rng.choice(BUTTONS), rng.random() < 0.15)
        app, effects = ui.update(app, inp)
        for e in effects:
            if isinstance(e, ui.DrawDice):
                app, more = ui.update(app, ui.DiceRolled(tuple(rng.randint(1, 6) for _ in range(4))))
                effects += more
        yield app, effects


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([1, 2, 3, 4]), st.integers(1, 11), st.booleans(), st.booleans())
def test_ui_button_storm_never_crashes_or_breaks_a_rule(seed, players, to_win, speedy, risky):
    rules = Rules(columns_to_win=to_win, speedy=speedy, risky=risky)
    log = []  # the store as the effects describe it
    for app, effects in _random_session(seed, 400, rules, players):
        for e in effects:
            if isinstance(e, ui.StartGame):
                log = []
            elif isinstance(e, ui.Append):
                log.append(e.event)
            elif isinstance(e, ui.PopLast):
                assert not isinstance(log[-1], Roll), "undo must never remove a roll"
                log.pop()
        assert ui.view(app) is not None
        if app.game is not None:
            # The app's game is exactly the stored events replayed.
            assert list(app.events) == log
            assert replay(new_game(app.game.players, app.game.rules), log) == app.game
            assert 0 <= app.game.free_runners <= 3  # never more than three runners out


def test_ui_long_game_nobody_can_win_offers_a_new_game():
    app = started(columns_to_win=11)
    # Red claims 2, Blue claims 12: nobody can reach 11 columns any more.
    app, _ = run(app, "ROLL", (1, 1, 1, 1), "A", "ROLL", (1, 1, 1, 1), "A", "STOP", "T",
                 "ROLL", (6, 6, 6, 6), "A", "ROLL", (6, 6, 6, 6), "A", "STOP", "T", "ROLL")
    v = ui.view(app)
    assert isinstance(v, views.WinView) and v.player is None
    assert v.note[0] == "Nobody can claim 11 columns any more."
    app, eff = press(app, "ROLL")
    assert eff == () and isinstance(ui.view(app), views.SetupView)


def test_ui_first_turn_says_which_variants_are_on():
    assert ui.view(started()).note == ("Red starts.",)
    assert ui.view(started(columns_to_win=4, speedy=True)).note == ("Red starts.", "Rules: 4 to win, speedy.")


def test_ui_hint_names_the_move_as_the_dice_screen_shows_it():
    app, _ = run(started(), "ROLL", (6, 1, 3, 4))
    dice_view = ui.view(app)
    app, _ = press(app, "ROLL", long=True)
    hint = ui.view(app)
    assert isinstance(hint, views.HintView) and hint.bust is not None and 1 <= len(hint.reason) <= 2
    label, text = hint.action.split(": ")
    assert text == next(o.text for o in dice_view.options if o.label == label)
    app, _ = press(app, "ROLL")
    assert ui.view(app) == dice_view


def test_ui_speedy_move_says_which_squares_it_jumped():
    # Blue's marker on 7 at step 1; Red (speedy) places a runner on 7: it lands on 2, past 1.
    app = started(speedy=True)
    app, _ = run(app, "ROLL", (1, 1, 2, 2), "A", "STOP", "T",  # Red: 2 and 4; confirm
                 "ROLL", (3, 4, 1, 1), "A", "STOP", "T")  # Blue: 7 and 2
    assert app.game.markers[1][7] == 1
    app, _ = run(app, "ROLL", (3, 4, 6, 6), "A")  # Red: 7 and 12
    step = next(st for st in ui.view(app).steps if st.column == 7)
    assert step == views.RunnerMove(7, 2, True, False, (1,))
    from firmware import words
    assert words.runner_step(step.step, step.new, step.top, step.jumped) == "new on 2 past 1"


def test_ui_slow_roll_without_a_hint_to_give_is_a_roll():
    app = ui.boot(GameConfig())
    app, _ = run(app, "B", "B", "B", "C", "ROLL")  # P1 played by the box; start
    app, eff = press(app, "ROLL", long=True)  # a slow confirm still lets the box play
    assert eff == (ui.DrawDice(),)


def test_ui_blocked_game_is_finished_without_a_winner_and_offers_only_a_new_game():
    app = started(columns_to_win=11)
    app, _ = run(app, "ROLL", (1, 1, 1, 1), "A", "ROLL", (1, 1, 1, 1), "A", "STOP", "T",
                 "ROLL", (6, 6, 6, 6), "A", "ROLL", (6, 6, 6, 6))
    app, eff = press(app, "A")
    app, eff = press(app, "STOP")
    assert eff == (ui.Append(STOP), ui.FinishGame(None), ui.After(0.6))
    app, _ = run(app, "T", "ROLL")  # confirm the board
    assert isinstance(ui.view(app), views.WinView) and ui.view(app).player is None
    app2, eff = press(app, "MENU", long=True)
    assert eff == () and ui.view(app2).alert == "Game is over"
    app2, _ = press(app, "MENU")
    v = ui.view(app2)
    assert {"Hint", "Undo"} <= {v.items[i] for i in v.off}  # shown in their places, as unusable
    app2, eff = press(app, "ROLL", long=True)  # slow ROLL: the new-game screen, like a tap
    assert isinstance(ui.view(app2), views.SetupView)


def test_ui_view_never_asks_a_player(monkeypatch):
    """A box seat's action and a hint are decided by the update; drawing them asks nobody."""
    from firmware.table import bot

    app = ui.boot(GameConfig(players=2))
    app, _ = run(app, "B", "B", "B", "B", "B", "C", "ROLL", "ROLL", (2, 3, 4, 5), "A", "STOP", "ROLL",
                 "ROLL", (6, 6, 5, 5))
    hint_app, _ = run(started(), "ROLL", (2, 3, 4, 5), "ROLL!")

    def refuse(*args, **kwargs):
        raise AssertionError("view() asked a player")

    monkeypatch.setattr(bot, "decide", refuse)
    monkeypatch.setattr(bot, "advise", refuse)
    assert isinstance(ui.view(app), views.DiceView) and ui.view(app).chosen is not None
    assert isinstance(ui.view(hint_app), views.HintView)


def test_ui_risky_note_names_every_runner_sharing_a_square():
    # Red's markers on 5 and 9 at square 1; Blue's runners land on both: no stop, and both are said.
    events = (Roll((2, 3, 4, 5)), Move((5, 9)), STOP, Roll((2, 3, 4, 5)), Move((5, 9)))
    app = ui.resume(GameConfig(), (ui.Seat("Red"), ui.Seat("Blue")), Rules(risky=True), events)
    v = ui.view(app)
    assert isinstance(v, views.MoveView) and not v.can_stop
    assert v.stop_note == "Risky: 5 Red, 9 Red"


def test_ui_win_screen_counts_rounds_as_history_does():
    from types import SimpleNamespace

    from firmware.table.records import rounds

    app = started(columns_to_win=1)
    app, _ = run(app, "ROLL", (2, 3, 4, 5), "A", "STOP", "T", "ROLL", (2, 3, 4, 5), "A", "STOP", "T",
                 "ROLL", (1, 1, 1, 1), "A", "ROLL", (1, 1, 1, 1), "A", "STOP", "T", "ROLL")
    v = ui.view(app)
    assert isinstance(v, views.WinView) and v.player == "Red" and v.turns == 2  # round 2: Red's second turn
    stored = SimpleNamespace(turns=app.game.turn, players=("Red", "Blue"))  # history: 3 turns, 2 rounds
    assert stored.turns == 3 and rounds(stored) == v.turns


def test_ui_hint_says_its_numbers_in_plain_words():
    from firmware.table import bot

    app, _ = run(started(), "ROLL", (2, 3, 4, 5), "A", "ROLL!")
    hint = ui.view(app)
    stop, roll = bot.player("strong").values(app.game)
    assert hint.action == "Roll again" and hint.reason == (
        f"Rolling again wins {round(roll * 100)}% of games like this, stopping {round(stop * 100)}%.",)
    solo, _ = run(started(players=1), "ROLL", (2, 3, 4, 5), "A", "ROLL!")
    assert ui.view(solo).reason[0].endswith("turns on average.")
    moving, _ = run(started(), "ROLL", (2, 3, 4, 5), "ROLL!")
    assert ui.view(moving).reason[0].startswith("After ")


def test_ui_hint_to_stop_says_stop():
    # Column 2 climbed to its top with one column to win: the strong player's decision is Decision.STOP.
    app, _ = run(started(columns_to_win=1), "ROLL", (1, 1, 1, 1), "A", "ROLL", (1, 1, 1, 1), "A", "ROLL!")
    hint = ui.view(app)
    assert hint.action == "Stop" and hint.reason == ("Stopping now wins the game!",)


def test_ui_a_long_stop_list_turns_its_pages_by_itself_so_one_roll_confirms_the_board():
    """Issue 47, item 5: once a take-off list spilled over, confirming the board took a ROLL per page. The pages
    now turn by themselves (after the guard) up to the last, where one ROLL confirms; a ROLL before that turns
    the page, so the list on the next page is never skipped."""
    from firmware.layout import Layout
    from firmware.ui.turns import PAGE_TURN_S

    small = Layout(128, 32, lines_per_page=1, big_lines=1)  # a line a page: a stop is two pages
    app = ui.boot(GameConfig(), paginate=small.paginate)
    app, _ = run(app, "ROLL")  # the new-game screen's ROLL starts the game
    app, _ = run(app, "ROLL", (2, 3, 4, 5), "A", "STOP")
    v = ui.view(app)
    assert isinstance(v, views.InstructionsView) and v.pages >= 2 and v.page == 1
    app, eff = ui.update(app, ui.Timer())  # the guard ends: the pages start turning
    assert eff == (ui.After(PAGE_TURN_S),) and ui.view(app).page == 1
    while ui.view(app).page < ui.view(app).pages:
        app, eff = ui.update(app, ui.Timer())
    assert eff == () and ui.view(app).keys.startswith("ROLL")  # the last page: ROLL is done
    app, eff = press(app, "ROLL")
    assert app.acked == len(app.events) and ui.DrawDice() in eff  # one ROLL: the next player's dice


def test_ui_roll_before_the_last_page_turns_the_page_and_a_page_paged_back_to_stays():
    from firmware.layout import Layout

    small = Layout(128, 32, lines_per_page=1, big_lines=1)
    app = ui.boot(GameConfig(), paginate=small.paginate)
    app, _ = run(app, "ROLL")
    app, _ = run(app, "ROLL", (2, 3, 4, 5), "A", "STOP")
    app, _ = ui.update(app, ui.Timer())  # the guard is over
    app, eff = press(app, "ROLL")
    assert ui.view(app).page == 2 and not any(isinstance(e, ui.DrawDice) for e in eff)
    app, _ = press(app, "A")  # back to the first page, by hand
    app, _ = ui.update(app, ui.Timer())
    assert ui.view(app).page == 1  # stays where the table put it
