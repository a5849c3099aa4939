"""End to end: the daemon driven through gpiozero's mock pins, a fake display and a real store."""

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import ImageChops

from engine import Phase, Record, Stop, state_view
from firmware import ui, views
from firmware.config import GameConfig
from firmware.screens import render
from firmware.store import Store
from tests.kit.ramdir import ram_tempdir
from tests.kit.rig import Rig
from tests.kit.saved import SavedBeforeShown


def test_daemon_plays_a_whole_game_by_mock_pins(rig):
    assert isinstance(rig.view, views.SetupView)
    rig.tap("ROLL")  # start with the defaults
    win = rig.play_on()
    assert win.player in ("Red", "Blue")
    # The store holds the finished game, and its record replays to the same state.
    summary = rig.store.games()[0]
    assert summary.status == "finished" and summary.winner == rig.box.app.game.winner
    record = rig.store.record(summary.id)
    assert state_view(record.replay()) == state_view(rig.box.app.game)
    assert Record.from_json(record.to_json()).replay() == rig.box.app.game
    # The display got exactly the frame of the last view.
    assert ImageChops.difference(rig.display.last.convert("1"), render(rig.view).convert("1")).getbbox() is None


def test_daemon_sends_a_frame_only_when_the_screen_changes(rig):
    rig.tap("ROLL")
    frames = rig.display.show_calls
    rig.tap("STOP")  # means nothing before a roll: a hint appears
    assert rig.display.show_calls == frames + 1
    rig.tap("STOP")  # the same hint again: the same frame, not resent
    assert rig.display.show_calls == frames + 1


def test_daemon_chatter_counts_once(rig):
    rig.tap("ROLL")
    rig.tap("ROLL")
    assert isinstance(rig.view, views.DiceView)
    events = len(rig.box.app.events)
    pin = rig.pin("A")
    for i in range(6):  # a bouncing contact: six edges within 5 ms
        (pin.drive_low if i % 2 == 0 else pin.drive_high)()
        rig.clock.advance(0.001)
    pin.drive_low()
    rig.clock.advance(0.1)
    rig.box.pump()
    pin.drive_high()
    rig.clock.advance(0.1)
    rig.box.pump()
    assert len(rig.box.app.events) == events + 1  # one move, not several


def test_daemon_two_buttons_at_once_do_nothing(rig):
    rig.tap("ROLL")
    before = (rig.box.app.events, rig.view)
    rig.pin("ROLL").drive_low()
    rig.pin("MENU").drive_low()
    rig.clock.advance(0.1)
    rig.pin("ROLL").drive_high()
    rig.pin("MENU").drive_high()
    rig.clock.advance(2.0)
    rig.box.pump()
    assert (rig.box.app.events, rig.view) == before


def test_daemon_long_press_undoes_from_the_store(rig):
    rig.tap("ROLL")
    rig.tap("ROLL")
    v = rig.view
    label = next(o.label for o in v.options if o.effect not in ("none", "pick"))
    rig.tap(label)
    gid = rig.box.game_id
    assert len(rig.store.game(gid).events) == 2
    rig.hold("MENU")
    assert len(rig.store.game(gid).events) == 1
    assert isinstance(rig.view, views.InstructionsView) and rig.view.title.startswith("Undone: move")
    rig.tap("ROLL")
    assert isinstance(rig.view, views.DiceView) and rig.view.dice == v.dice


def test_daemon_slow_stop_press_still_stops(rig):
    rig.tap("ROLL")
    rig.tap("ROLL")
    label = next(o.label for o in rig.view.options if o.effect not in ("none", "pick"))
    rig.tap(label)
    rig.hold("STOP")  # held past the long-press time: STOP has no long meaning, so it stops
    assert isinstance(rig.box.app.events[-1], Stop)


def test_daemon_resumes_on_the_exact_screen(tmp_path):
    first = Rig(tmp_path, seed=3)
    first.tap("ROLL")
    first.tap("ROLL")
    shown = first.view
    first.close()  # no shutdown: as if the power went
    second = Rig(tmp_path, seed=99, store=Store.open(tmp_path))
    assert second.view == shown
    assert isinstance(shown, views.DiceView)
    second.close()


def test_daemon_keeps_playing_on_a_full_disk_and_loses_nothing(rig):
    rig.tap("ROLL")
    rig.tap("ROLL")
    pages = rig.store._db.execute("PRAGMA page_count").fetchone()[0]
    rig.store._db.execute(f"PRAGMA max_page_count = {pages}")  # the SD card is full
    def not_saved():  # the alert, not a flash over it (a press inside the hand-over guard is refused, said)
        return (rig.view.alert or "").startswith("NOT SAVED:")

    for _ in range(400):
        rig.play_on(presses=1)
        if not_saved():
            break
    assert not_saved()
    rig.play_on(presses=1)
    rig.play_on(presses=1)  # the game goes on in memory
    rig.store._db.execute("PRAGMA max_page_count = 1073741823")  # room again
    for _ in range(10):
        rig.play_on(presses=1)
        if not not_saved() and not isinstance(rig.view, views.WinView):
            break
    assert not not_saved()
    stored = rig.store.game(rig.box.game_id)
    assert stored.events == rig.box.app.events  # nothing lost, nothing doubled


def test_daemon_saves_a_game_whose_start_could_not_be_saved(rig):
    rig.store._db.execute("PRAGMA query_only = ON")  # the card takes no writes as the game starts
    rig.tap("ROLL")
    assert rig.view.alert == "NOT SAVED: the SD card is read-only"
    assert rig.store.pending and rig.box.game_id == rig.store.open_game().id  # the store keeps the start
    rig.store._db.execute("PRAGMA query_only = OFF")
    rig.tap("ROLL")
    assert rig.view.alert is None and rig.store.pending == 0
    stored = rig.store.open_game()
    assert stored.events == rig.box.app.events and len(stored.events) == 1


def test_daemon_display_failure_does_not_stop_the_game(rig):
    rig.display.fail = True
    rig.tap("ROLL")
    rig.tap("ROLL")
    assert rig.box.app.game.phase is Phase.MOVE
    rig.display.fail = False
    rig.tap("STOP")  # any press redraws once the display answers again
    assert rig.display.last is not None


def test_daemon_shutdown_shows_off(rig):
    rig.box.request_shutdown("Box is off")
    rig.box.pump()
    assert rig.view == views.OffView("Box is off")
    assert not rig.box.running


def test_daemon_bot_seats_play_a_whole_game_with_confirms(tmp_path):
    """Both seats played by the box: a person only confirms each step with ROLL."""
    r = Rig(tmp_path, seed=11)
    try:
        rows = [label for label, _ in r.view.rows]
        for seat in ("P1 plays", "P2 plays"):
            while rows[r.view.cursor] != seat:
                r.tap("B")
            r.tap("C")
        assert ("P1 plays", "box") in r.view.rows and ("P2 plays", "box") in r.view.rows
        r.tap("ROLL")  # start
        seen = set()
        for _ in range(3000):
            v = r.view
            if isinstance(v, views.WinView):
                break
            seen.add(type(v).__name__)
            if isinstance(v, views.DiceView):
                assert v.bot and v.chosen is not None  # the box shows its choice before playing it
            if isinstance(v, views.MoveView):
                assert v.bot and v.bot_next in ("roll", "stop")
            r.tap("ROLL")
        else:
            raise AssertionError("the bots did not finish")
        assert {"TurnView", "DiceView", "MoveView"} <= seen
        stored = r.store.games()[0]
        assert stored.status == "finished" and stored.winner == r.box.app.game.winner
    finally:
        r.close()


# data_too_large: up to 150 presses a storm is big on purpose; Hypothesis before the choice-based
# engine (6.50, the floor) sometimes finds many draws overrunning its 8 KiB buffer and refuses the test.
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.integers(0, 2**32 - 1), st.lists(
    st.tuples(st.sampled_from(["ROLL", "ROLL", "ROLL", "STOP", "A", "B", "C", "MENU"]),
              st.sampled_from(["tap", "tap", "tap", "hold", "bounce", "chord"]),
              st.sampled_from(["ROLL", "STOP", "A", "B", "C", "MENU"])),
    min_size=20, max_size=150))
def test_daemon_pin_storm_never_crashes_or_loses_an_event(seed, actions):
    """Random taps, holds, bouncing contacts and chords on the mock pins, into a real store.

    Every frame of the storm is checked against the store as it is shown (saved before shown).
    """
    with ram_tempdir() as tmp:  # a store per example: its fsyncs in memory
        display = SavedBeforeShown(Path(tmp))
        r = Rig(Path(tmp), seed=seed, display=display)
        display.watch(r.box)
        try:
            for button, how, other in actions:
                if how == "tap":
                    r.tap(button)
                elif how == "hold":
                    r.hold(button)
                elif how == "bounce":
                    pin = r.pin(button)
                    for i in range(5):
                        (pin.drive_low if i % 2 == 0 else pin.drive_high)()
                        r.clock.advance(0.002)
                    r.clock.advance(0.1)
                    r.box.pump()
                    pin.drive_high()
                    r.clock.advance(0.1)
                    r.box.pump()
                elif other != button:  # a chord: both down, both up
                    r.pin(button).drive_low()
                    r.pin(other).drive_low()
                    r.clock.advance(0.2)
                    r.pin(button).drive_high()
                    r.pin(other).drive_high()
                    r.clock.advance(0.1)
                    r.box.pump()
                assert ui.view(r.box.app) is not None
            assert display.problems == [], display.problems[:5]
            app = r.box.app
            if r.box.game_id is not None and app.game is not None:
                stored = r.store.game(r.box.game_id)
                assert stored.events == app.events  # nothing lost, nothing added
                assert stored.replay() == app.game
        finally:
            r.close()


def test_daemon_dims_an_idle_screen_and_the_waking_press_does_nothing_else(rig):
    rig.tap("ROLL")  # a game, Red to roll
    assert not rig.display.dimmed
    rig.clock.advance(599)
    rig.box.pump()
    assert not rig.display.dimmed
    rig.clock.advance(2)
    rig.box.pump()  # ten minutes without a press
    assert rig.display.dimmed and rig.box.dimmed
    events = rig.box.app.events
    rig.tap("ROLL")  # wakes the screen only: no dice
    assert not rig.display.dimmed and rig.box.app.events == events
    rig.tap("ROLL")  # now it rolls
    assert len(rig.box.app.events) == 1


def test_daemon_long_press_on_a_dim_screen_only_wakes_it(rig):
    rig.tap("ROLL")
    rig.tap("ROLL")
    rig.clock.advance(700)
    rig.box.pump()
    assert rig.display.dimmed
    before = rig.box.app
    rig.hold("MENU")  # would undo, but the screen was dark
    assert not rig.display.dimmed and rig.box.app == before


def test_daemon_late_saved_winning_game_is_finished_once_without_an_alert(tmp_path):
    """The start of the game could not be saved; the first write that works is the winning stop."""
    r = Rig(tmp_path, settings=GameConfig(columns_to_win=1), seed=1)
    try:
        r.store._db.execute("PRAGMA query_only = ON")  # the card takes no writes
        r.tap("ROLL")  # start: not saved
        for dice in [(1, 1, 1, 1), (1, 1, 1, 1)]:
            r.box.dice = lambda d=dice: d
            r.tap("ROLL")
            r.tap("A")
        assert r.view.alert == "NOT SAVED: the SD card is read-only"
        r.store._db.execute("PRAGMA query_only = OFF")
        r.tap("STOP")  # the winning stop: the game is created, filled, and finished
        assert r.view.alert is None
        stored = r.store.games()[0]
        assert stored.status == "finished" and stored.winner == 0
        assert r.store.game(stored.id).events == r.box.app.events
    finally:
        r.close()


def test_daemon_a_won_game_is_finished_once_by_its_winning_event(tmp_path, monkeypatch):
    r = Rig(tmp_path, settings=GameConfig(columns_to_win=1), seed=1)
    try:
        finishes = []
        monkeypatch.setattr(r.store, "finish", lambda *a: finishes.append(a))
        r.tap("ROLL")  # start
        for dice in [(1, 1, 1, 1), (1, 1, 1, 1)]:
            r.box.dice = lambda d=dice: d
            r.tap("ROLL")
            r.tap("A")
        r.tap("STOP")  # the win: the store finishes the game in the transaction of this event
        assert r.box.app.game.winner == 0 and finishes == []
        stored = r.store.games()[0]
        assert (stored.status, stored.winner) == ("finished", 0)
        assert r.store.fact(f"tally:{stored.id}")["winner"] == 0  # the tally is kept as it ends
    finally:
        r.close()


def test_daemon_keeper_answers_each_write_with_the_inputs_to_feed(tmp_path):
    from engine import Roll, Rules
    from firmware.daemon.keeper import Keeper

    store = Store.open(tmp_path)
    keeper = Keeper(store)
    assert keeper.start(("Red", "Blue"), Rules(), {}) == (ui.Saved(),)
    store._db.execute("PRAGMA query_only = ON")
    assert keeper.append(Roll((1, 2, 3, 4))) == (ui.SaveFailed("the SD card is read-only"),)
    assert keeper.start(("Red",), Rules(), {}) == (ui.SaveFailed("the SD card is read-only"),)
    assert keeper.game_id == store.open_game().id  # the start is the store's to keep, pending
    store._db.execute("PRAGMA query_only = OFF")
    assert keeper.append(Roll((2, 2, 3, 4))) == (ui.Saved(),)
    assert store.pending == 0 and store.game(keeper.game_id).events == (Roll((2, 2, 3, 4)),)
    assert Keeper(None).append(Roll((1, 2, 3, 4))) == ()  # no store: nothing to save, nothing to say
    store.close()
