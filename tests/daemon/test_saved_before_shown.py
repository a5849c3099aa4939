"""Saved before shown, in process, at every frame of whole scripted games.

The box runs on mock pins with a real store; its display is
:class:`tests.kit.saved.SavedBeforeShown`, which reads the game file back
through a second connection at every frame and checks that the store
already holds every event the frame shows (see that module). The games
cover stops, busts, wins, undos (MENU held), box seats, a game continued
from the menu and a restart; a last test shows the check does catch a box
that draws before it saves. The pin storm in ``test_daemon.py`` (random
presses on every screen, menus included) runs under the same check. ``tests/daemon/test_crash.py`` keeps a few real
SIGKILLs on top of this (``make soak`` runs hundreds).
"""

from __future__ import annotations

import random

import pytest

from firmware import views
from firmware.config import GameConfig
from firmware.store import Store
from tests.kit.rig import Rig, goto
from tests.kit.saved import SavedBeforeShown


def checked_rig(tmp_path, **kwargs) -> tuple[Rig, SavedBeforeShown]:
    display = SavedBeforeShown(tmp_path)
    rig = Rig(tmp_path, display=display, **kwargs)
    display.watch(rig.box)
    return rig, display


def patient(rig: Rig) -> None:
    """Wait out the box's timer (a box seat's pace, a handover's guard), as a table would."""
    if rig.box.due is not None:
        rig.clock.now = max(rig.clock.now, rig.box.due) + 0.001
        rig.box.pump()


def press_like_a_table(rig: Rig, rng: random.Random, *, undo_chance: float = 0.0) -> None:
    """One press for the screen that is up: a random pairing, stop two times in five, sometimes an undo."""
    patient(rig)
    v = rig.view
    bot = getattr(v, "bot", False)
    if undo_chance and not bot and isinstance(v, (views.DiceView, views.MoveView)) and rng.random() < undo_chance:
        rig.hold("MENU")  # undo the last move (or roll)
    elif isinstance(v, views.DiceView) and not bot:
        rig.tap(rng.choice([o.label for o in v.options if o.effect != "none"]))
    elif isinstance(v, views.PickView):
        rig.tap(rng.choice("AB"))
    elif isinstance(v, views.MoveView) and not bot and v.can_stop and rng.random() < 0.4:
        rig.tap("STOP")
    elif isinstance(v, (views.TurnView, views.DiceView, views.MoveView, views.InstructionsView, views.WinView)):
        rig.tap("ROLL")
    else:
        raise AssertionError(f"unexpected screen {v}")


def play_games(rig: Rig, rng: random.Random, games: int, *, undo_chance: float = 0.0,
               max_presses: int = 20_000) -> None:
    """Press until ``games`` games are won; each win goes on to the next game with the same settings."""
    won = 0
    for _ in range(max_presses):
        v = rig.view
        if isinstance(v, views.WinView):
            won += 1
            if won == games:
                return
            rig.tap("ROLL")  # to the new-game screen
            rig.tap("ROLL")  # start it
            continue
        press_like_a_table(rig, rng, undo_chance=undo_chance)
    raise AssertionError(f"{won} of {games} games won in {max_presses} presses")


def box_plays(rig: Rig, seat: str) -> None:
    """On the new-game screen: the box plays seat ``seat`` ("P1 plays", "P2 plays", ...)."""
    goto(rig, seat)
    rig.tap("C")
    assert (seat, "box") in rig.view.rows


def assert_all_saved(display: SavedBeforeShown, *, kinds: set[str], min_frames: int) -> None:
    assert display.problems == [], "\n".join(display.problems[:10])
    assert display.checked == display.show_calls  # every frame was checked
    assert display.games_checked >= min_frames
    assert kinds <= display.seen, f"the games never showed {kinds - display.seen}"


@pytest.mark.parametrize("seed", [1, 2])
def test_saved_before_shown_in_whole_games_with_stops_busts_and_wins(tmp_path, seed):
    rig, display = checked_rig(tmp_path, seed=seed)
    try:
        rig.tap("ROLL")  # start with the defaults
        play_games(rig, random.Random(seed), games=2)
        assert_all_saved(display, kinds={"stop", "bust", "win"}, min_frames=100)
        assert [g.status for g in rig.store.games()] == ["finished", "finished"]
    finally:
        rig.close()


def test_saved_before_shown_with_undos(tmp_path):
    rig, display = checked_rig(tmp_path, seed=5)
    try:
        rig.tap("ROLL")
        play_games(rig, random.Random(5), games=1, undo_chance=0.15)
        assert_all_saved(display, kinds={"undo", "stop", "bust", "win"}, min_frames=100)
    finally:
        rig.close()


def test_saved_before_shown_with_box_seats(tmp_path):
    """A person against the box, then the box against itself: every frame of a box turn is saved too."""
    rig, display = checked_rig(tmp_path, seed=11)
    try:
        box_plays(rig, "P2 plays")
        rig.tap("ROLL")
        play_games(rig, random.Random(11), games=1)
        rig.tap("ROLL")  # to the new-game screen, the same seats
        box_plays(rig, "P1 plays")
        rig.tap("ROLL")
        play_games(rig, random.Random(12), games=1)
        assert_all_saved(display, kinds={"box", "stop", "win"}, min_frames=100)
    finally:
        rig.close()


def test_saved_before_shown_when_a_game_is_put_aside_and_continued(tmp_path):
    rig, display = checked_rig(tmp_path, seed=3, settings=GameConfig(roster=("Ann", "Bob")))
    rng = random.Random(3)
    try:
        rig.tap("ROLL")
        for _ in range(30):
            press_like_a_table(rig, rng)
        first = rig.box.game_id
        rig.tap("MENU")
        goto(rig, "New game")
        rig.tap("ROLL")
        if isinstance(rig.view, views.MessageView):  # "New game?": yes
            rig.tap("C")
        rig.tap("ROLL")  # a second game; the first waits, abandoned
        for _ in range(30):
            press_like_a_table(rig, rng)
        assert rig.box.game_id != first
        rig.tap("MENU")
        goto(rig, "Continue a game")
        rig.tap("ROLL")
        rig.tap("ROLL")  # the newest unfinished game: the first
        assert rig.box.game_id == first
        rig.tap("ROLL")  # back to the game
        play_games(rig, rng, games=1)
        assert_all_saved(display, kinds={"win"}, min_frames=60)
        assert rig.store.game(first).status == "finished"
    finally:
        rig.close()


def test_saved_before_shown_across_a_restart(tmp_path):
    """The power goes mid-game: the first frame of the next start is the stored game, and play goes on saved."""
    rig, display = checked_rig(tmp_path, seed=4)
    rng = random.Random(4)
    rig.tap("ROLL")
    for _ in range(40):
        press_like_a_table(rig, rng)
    rig.close()  # no shutdown: as if the power went
    display.close()
    again, display = checked_rig(tmp_path, seed=8, store=Store.open(tmp_path))
    try:
        assert display.games_checked == 1  # the resumed game, checked on its first frame
        play_games(again, rng, games=1)
        assert_all_saved(display, kinds={"win"}, min_frames=20)
    finally:
        again.close()


class DrawsBeforeSaving:
    """A store whose appends land one press late: what a box that drew before saving would do."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._late: tuple | None = None

    def append(self, game_id, event):
        late, self._late = self._late, (game_id, event)
        if late is not None:
            self._store.append(*late)

    def __getattr__(self, name):
        return getattr(self._store, name)


def test_saved_before_shown_check_catches_a_frame_drawn_before_its_event_is_saved(tmp_path):
    display = SavedBeforeShown(tmp_path)
    rig = Rig(tmp_path, display=display, store=DrawsBeforeSaving(Store.open(tmp_path)))
    display.watch(rig.box)
    try:
        rig.tap("ROLL")
        rig.tap("ROLL")  # the first roll is shown; the store has none of it yet
        assert display.problems and "1 events on the screen, the store holds 0" in display.problems[0]
    finally:
        rig.close()
