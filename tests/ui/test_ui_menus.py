"""The pure UI state machine around the game: the menu, the board, set-up, statistics, box seats, saving, shutdown."""

from dataclasses import replace

from engine import Move, Roll, Rules
from firmware import ui, views
from firmware.config import GameConfig
from tests.ui.driving import press, run, started


def test_ui_menu_navigates_and_returns():
    app, _ = run(started(), "ROLL", (2, 3, 4, 5), "A")
    app, _ = press(app, "MENU")
    v = ui.view(app)
    assert isinstance(v, views.MenuView)
    assert v.items == ("Back to game", "Statistics", "Undo", "Hint", "Board", "New game", "Continue a game", "Phone")
    app, _ = run(app, "B", "B", "B", "B", "ROLL")
    assert isinstance(ui.view(app), views.BoardView)
    app, _ = run(app, "B")
    assert ui.view(app).focus == 2
    app, _ = run(app, "A", "A")
    assert ui.view(app).focus == 12
    app, _ = press(app, "MENU")  # MENU means the menu here too, as on every screen
    assert isinstance(ui.view(app), views.MenuView)
    app, _ = press(app, "MENU")  # and on the menu, back to the game
    assert isinstance(ui.view(app), views.MoveView)


def test_ui_menu_means_the_menu_on_every_screen():
    app, _ = run(started(), "ROLL", (2, 3, 4, 5), "A")
    for item in ("Board", "Hint", "Statistics"):
        menu, _ = press(app, "MENU")
        opened, _ = run(menu, *["B"] * ui.view(menu).items.index(item), "ROLL")
        assert not isinstance(ui.view(opened), views.MenuView)
        back, _ = press(opened, "MENU")
        assert isinstance(ui.view(back), views.MenuView), item
        assert "MENU:menu" in ui.view(opened).keys or item == "Board"
    setup, _ = run(app, "MENU", "B", "B", "B", "B", "B", "ROLL", "C")  # New game? yes
    assert isinstance(ui.view(setup), views.SetupView)
    assert isinstance(ui.view(press(setup, "MENU")[0]), views.MenuView)


def test_ui_board_reaches_every_column_in_three_presses():
    app, _ = run(started(), "ROLL", (2, 3, 4, 5), "MENU")
    app, _ = run(app, *["B"] * ui.view(app).items.index("Board"), "ROLL")
    assert ui.view(app).focus is None and ui.view(app).keys == "A/B:col C:+4 ROLL:game"
    reached = {None: ()}
    frontier = [(app, ())]
    while frontier:  # breadth first over A, B and C
        nxt = []
        for a, path in frontier:
            for button in "ABC":
                b, _ = press(a, button)
                focus = ui.view(b).focus
                if focus not in reached:
                    reached[focus] = path + (button,)
                    nxt.append((b, path + (button,)))
        frontier = nxt
    assert set(reached) == {None, *range(2, 13)}
    assert max(len(p) for p in reached.values()) == 3  # was up to 6 with A/B alone
    assert reached[9] == ("C", "C")  # two jumps of four


def test_ui_board_shows_markers_and_runners():
    app, _ = run(started(), "ROLL", (2, 3, 4, 5), "A", "STOP", "T", "ROLL", (2, 3, 4, 5), "C", "MENU")
    app, _ = run(app, *["B"] * ui.view(app).items.index("Board"), "ROLL")
    v = ui.view(app)
    assert isinstance(v, views.BoardView)
    col = {c.column: c for c in v.columns}
    assert col[5].markers == (1, 0) and col[9].markers == (1, 0)
    assert col[7].runner == 2 and col[7].height == 13


def test_ui_new_game_mid_game_asks_first():
    app, _ = run(started(), "ROLL", (2, 3, 4, 5), "A", "MENU")
    items = ui.view(app).items
    app, _ = run(app, *["B"] * items.index("New game"), "ROLL")
    assert isinstance(ui.view(app), views.MessageView)
    app, _ = press(app, "MENU")
    assert isinstance(ui.view(app), views.MenuView)


def test_ui_statistics_loads_from_the_store():
    app, _ = run(ui.boot(GameConfig()), "MENU")
    v = ui.view(app)
    assert [item for i, item in enumerate(v.items) if i not in v.off] == ["Statistics", "New game", "Continue a game",
                                                                          "Phone"]
    app, eff = run(app, *["B"] * v.items.index("Statistics"), "ROLL")
    assert eff == [ui.LoadStats()]
    app, _ = ui.update(app, ui.StatsLoaded((("Red", 3), ("Blue", 1)), 4))
    v = ui.view(app)
    assert isinstance(v, views.StatsView) and v.rows == (("Red", 3), ("Blue", 1)) and v.games == 4


def test_ui_setup_changes_players_colours_bots_and_rules():
    app = ui.boot(GameConfig())
    app, _ = run(app, "C", "C")  # players 2 -> 3 -> 4
    v = ui.view(app)
    assert ("Players", "4") in v.rows and ("P4 colour", "Yellow") in v.rows
    rows = [label for label, _ in v.rows]
    app, _ = run(app, *["B"] * rows.index("P2 colour"), "C")  # Blue -> next free colour: none left but its own
    assert ("P2 colour", "Blue") in ui.view(app).rows
    app, _ = run(app, *["A"] * ui.view(app).cursor, "C")  # back to players: 4 -> 1
    assert ("Players", "1") in ui.view(app).rows
    rows = [label for label, _ in ui.view(app).rows]
    app, _ = run(app, *["B"] * (rows.index("To win") - ui.view(app).cursor), "C", "B", "C")
    # speedy on: its row goes up under the players (a variant on is seen first), the cursor with it
    v = ui.view(app)
    labels = [label for label, _ in v.rows]
    assert labels.index("Speedy") == 1 and v.cursor == 1
    app, _ = run(app, *["B"] * (labels.index("Risky") - v.cursor), "C")
    labels = [label for label, _ in ui.view(app).rows]
    assert labels[1:3] == ["Speedy", "Risky"] and ui.view(app).cursor == 2
    app, _ = run(app, "C")  # risky off again: back among the last rows, the cursor with it
    labels = [label for label, _ in ui.view(app).rows]
    assert labels.index("Risky") > labels.index("To win") and ui.view(app).cursor == labels.index("Risky")
    app, _ = run(app, "C")  # and on
    app, eff = press(app, "ROLL")
    assert eff[0].rules == Rules(columns_to_win=4, speedy=True, risky=True)
    assert eff[0].players == ("Red",)


def test_ui_save_failure_raises_an_alert_until_saved():
    app, _ = ui.update(started(), ui.SaveFailed("disk full"))
    assert ui.view(app).alert == "NOT SAVED: disk full"
    app, _ = press(app, "ROLL")
    app, _ = ui.update(app, ui.DiceRolled((2, 3, 4, 5)))
    assert ui.view(app).alert == "NOT SAVED: disk full"  # the game goes on in memory
    app, _ = ui.update(app, ui.Saved())
    assert ui.view(app).alert is None


def test_ui_shutdown_shows_off_and_ignores_buttons():
    app, _ = ui.update(started(), ui.Shutdown("Box is off"))
    assert ui.view(app) == views.OffView("Box is off")
    app2, eff = press(app, "ROLL")
    assert app2 == app and eff == ()


def test_ui_resume_gives_the_exact_screen():
    app, _ = run(started(), "ROLL", (2, 3, 4, 5), "A", "ROLL", (1, 1, 5, 6))
    again = ui.resume(app.settings, app.seats, app.game.rules, app.events)
    assert ui.view(again) == ui.view(app)
    assert ui.view(again).dice == (1, 1, 5, 6)


def test_ui_box_seat_plays_its_turn_by_itself():
    settings_ = GameConfig(players=2)
    app = ui.boot(settings_)
    app, _ = run(app, "B", "B", "B", "B", "B", "C")  # P2 plays: box
    assert ("P2 plays", "box") in ui.view(app).rows
    app, eff = press(app, "ROLL")
    assert eff[0].meta["seats"][1]["bot"] == "strong"
    app, _ = run(app, "ROLL", (2, 3, 4, 5), "A", "STOP", "T")
    assert ui.view(app).keys == "ROLL:box plays"
    app, eff = press(app, "ROLL")  # the one press of Red's handover: the box's turn starts by itself
    v = ui.view(app)
    assert isinstance(v, views.TurnView) and v.bot and v.player == "Blue"
    assert eff == (ui.After(1.2),)  # shown for a moment: the box paces its turn
    app, eff = run(app, "T")
    assert eff == [ui.DrawDice()]
    app, eff = run(app, (6, 6, 5, 5))
    v = ui.view(app)
    assert isinstance(v, views.DiceView) and v.bot and v.chosen in ("A", "B", "C")
    assert eff[-1] == ui.After(1.2)
    chosen = next(o for o in v.options if o.label == v.chosen)
    app, eff = press(app, "A")  # any press skips ahead: the box plays the choice it showed
    assert isinstance(eff[0], ui.Append) and isinstance(eff[0].event, Move)
    assert set(eff[0].event.sums) <= set(chosen.sums)
    v = ui.view(app)
    assert isinstance(v, views.MoveView) and v.bot and v.bot_next in ("roll", "stop")
    app2, eff = press(app, "MENU", long=True)  # a box move cannot be undone (issue 47, item 10: decided, players.md)
    assert app2.events == app.events and eff == () and ui.view(app2).alert == "Box moves stay"


def test_ui_box_bust_is_said_then_the_game_moves_on():
    seats = (ui.Seat("Red", "strong"), ui.Seat("Blue"))
    events = (Roll((2, 3, 4, 5)), Move((5, 9)), Roll((1, 2, 1, 2)), Move((3, 3)))  # runners on 3, 5, 9
    app = ui.resume(GameConfig(), seats, Rules(), events)
    assert ui.timer_for(app) == 1.2  # a box seat was playing: it goes on by itself
    app, eff = run(app, (1, 1, 1, 1))  # the box rolls 2+2: a bust, said, and nothing to confirm
    v = ui.view(app)
    assert isinstance(v, views.InstructionsView) and v.big == "BUST! 1 1 1 1"
    assert v.lines == ("Board: nothing to do.", "No runner was placed.") and eff[-1] == ui.After(1.2)
    assert v.pages == 1  # said in one page: the box moves on by itself
    app, eff = run(app, "T")  # the moment is over: Blue's turn, guarded against a skip press
    v = ui.view(app)
    assert isinstance(v, views.TurnView) and v.player == "Blue" and not v.bot and app.guard
    app2, eff = press(app, "ROLL")
    assert eff == () and app2.events == app.events
    app, eff = run(app, "T", "ROLL")
    assert eff == [ui.DrawDice()]


def test_ui_solitaire_practice_compares_turns_with_the_box():
    from firmware.table.practice import box_average

    app = started(players=1, columns_to_win=1)
    v = ui.view(app)
    assert v.note[-1] == f"Box average: {box_average(1):.1f} turns."
    # Claim column 2 in the first turn: 1,1,1,1 twice puts the runner on its top (height 3).
    app, _ = run(app, "ROLL", (1, 1, 1, 1), "A", "ROLL", (1, 1, 1, 1), "A", "STOP", "T", "ROLL")
    v = ui.view(app)
    assert isinstance(v, views.WinView) and v.turns == 1
    assert v.note[:2] == (f"1 turn, box avg {box_average(1):.1f}", "You beat the box!")


def test_ui_setup_hold_c_steps_a_value_back():
    app = ui.boot(GameConfig())
    app, _ = run(app, "C!")  # players 2 -> 1
    assert ("Players", "1") in ui.view(app).rows
    app, _ = run(app, "C!", "C")  # 1 -> 4 (wraps back) -> 1 (wraps forward)
    assert ("Players", "1") in ui.view(app).rows
    rows = [label for label, _ in ui.view(app).rows]
    app, _ = run(app, *["B"] * rows.index("To win"), "C!")
    assert ("To win", "2 cols") in ui.view(app).rows
    app, _ = run(app, "C!", "C!")  # 2 -> 1 -> 11
    assert ("To win", "11 cols") in ui.view(app).rows
    app, _ = run(app, *["A"] * rows.index("To win"), "B", "C!")  # P1 colour back: Red -> Yellow
    assert ("P1 colour", "Yellow") in ui.view(app).rows


def test_ui_a_new_game_asks_to_confirm_its_stops_again():
    """The confirm-the-board state of one game must not carry into the next."""
    app, _ = run(started(), "ROLL", (2, 3, 4, 5), "A", "STOP", "T", "ROLL", (1, 1, 1, 1))  # confirmed at 3 events
    app, _ = run(app, "MENU")
    app, _ = run(app, *["B"] * ui.view(app).items.index("New game"), "ROLL", "C", "ROLL")
    assert isinstance(ui.view(app), views.TurnView) and app.events == ()
    app, _ = run(app, "ROLL", (2, 3, 4, 5), "A", "STOP")  # again a stop at 3 events
    assert isinstance(ui.view(app), views.InstructionsView) and ui.view(app).title == "Red stops"


def _stats_opened(app) -> bool:
    """``m b b b b b r``: the menu, five rows down, chosen."""
    app, effects = run(app, "MENU", "B", "ROLL")
    return isinstance(app.screen, ui.model.StatsScreen) and ui.LoadStats() in effects


def test_ui_menu_items_keep_their_places_whatever_the_game_is_doing():
    """Issue 22, friction 2: the same presses reach Statistics in a turn, with an undo pending, after a win
    and with no game; an item that cannot be used is shown as such and says why when chosen."""
    fresh = ui.boot(GameConfig())
    in_turn = started()
    can_undo, _ = run(started(), "ROLL", (2, 3, 4, 5), "A")
    won = started(columns_to_win=1)
    won, _ = run(won, "ROLL", (1, 1, 1, 1), "A", "ROLL", (1, 1, 1, 1), "A")  # Red climbs 2 to the top
    won, _ = run(won, "STOP", "T", "ROLL")
    assert won.ended
    places = set()
    for app in (fresh, in_turn, can_undo, won):
        menu, _ = press(app, "MENU")
        places.add(ui.view(menu).items)
        assert _stats_opened(app)
    assert len(places) == 1 and len(next(iter(places))) == 8
    v = ui.view(press(won, "MENU")[0])
    assert [v.items[i] for i in v.off] == ["Back to game", "Undo", "Hint"]
    assert ui.view(press(can_undo, "MENU")[0]).off == ()
    assert [ui.view(press(in_turn, "MENU")[0]).items[i] for i in ui.view(press(in_turn, "MENU")[0]).off] == ["Undo"]
    tried, effects = run(won, "MENU", "B", "B", "ROLL")  # Undo after the win: refused, said, the menu stays
    assert isinstance(ui.view(tried), views.MenuView) and effects == [] and tried.flash == "Game is over"


def test_ui_the_next_new_game_keeps_the_seats_as_the_table_set_them():
    """Issue 22, friction 3: a game Blue (P2) started does not make Blue P1 of the next setup."""
    app = ui.boot(GameConfig())
    app = replace(app, setup=replace(app.setup, first=1))
    app, _ = run(app, "ROLL")
    assert [s.colour for s in app.seats] == ["Blue", "Red"]  # the game plays Blue first
    app, _ = run(app, "MENU", *["B"] * 5, "ROLL")  # New game (nothing played yet: no question)
    assert isinstance(ui.view(app), views.SetupView)
    assert [s.colour for s in app.setup.seats] == ["Red", "Blue"] and app.setup.first == 1
    app, _ = run(app, "ROLL")  # a quick ROLL: the seat the Starts row names starts, nobody else
    assert app.game.current == 0 and app.seats[0].colour == "Blue"
