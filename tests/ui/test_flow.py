"""Whole games on mock pins with a press counter: what each flow costs the table (issue 12).

Budgets: a box seat's turn costs at most one press (its stop's confirm; a bust
none); a person's handover at most two presses after a stop (STOP and one
more, which also rolls the next player's dice) and one after a bust. A table
here is patient: it waits out every pause the box asks for before pressing.
"""

import dataclasses

from engine import Roll, Stop
from firmware import views
from firmware.config import GameConfig
from firmware.store import Store
from firmware.ui import Seat
from tests.kit.rig import Rig


class Table(Rig):
    """A rig that counts presses and waits out the box's timer like a patient table."""

    def __init__(self, tmp_path, box_seats=(), **kwargs):
        super().__init__(tmp_path, **kwargs)
        setup = self.box.app.setup
        seats = tuple(Seat(s.colour, "strong" if i in box_seats else None) for i, s in enumerate(setup.seats))
        self.box.app = dataclasses.replace(self.box.app, setup=dataclasses.replace(setup, seats=seats))
        self.presses = 0

    def tap(self, name, hold=0.1):
        self.presses += 1
        super().tap(name, hold)

    def wait(self):
        """Let the box's timer come due; False when none is pending."""
        if self.box.due is None:
            return False
        self.clock.now = max(self.clock.now, self.box.due) + 0.001
        self.box.pump()
        return True


def _ends_turn(app, i: int) -> bool:
    """Event ``i`` ended a turn: a stop, or a roll that passed the turn (a bust)."""
    e = app.events[i]
    return isinstance(e, Stop) or (isinstance(e, Roll) and app.states[i + 1].current != app.states[i].current)


def _turn_ended(app, before: int) -> bool:
    """An event from index ``before`` on ended a turn."""
    return any(_ends_turn(app, i) for i in range(before, len(app.events)))


def _play_person_turn(t: Table, runners: int = 2) -> str:
    """A person plays one turn by the script (stop once ``runners`` are out); returns "stop" or "bust"."""
    start = len(t.box.app.events)
    while not _turn_ended(t.box.app, start):
        if t.wait():
            continue
        v = t.view
        if isinstance(v, views.DiceView):
            t.tap(next(o.label for o in v.options if o.effect != "none"))
        elif isinstance(v, views.PickView):
            t.tap("A")
        elif isinstance(v, views.MoveView) and v.can_stop and len(t.box.app.game.runner_steps()) >= runners:
            t.tap("STOP")
        else:
            t.tap("ROLL")
    return "stop" if isinstance(t.box.app.events[-1], Stop) else "bust"


def _handed_over(app, start: int) -> bool:
    """The turn that began at event ``start`` ended, and the table has moved on from its end."""
    ends = [i for i in range(start, len(app.events)) if _ends_turn(app, i)]
    return bool(ends) and app.acked > ends[0]


def _box_turn_presses(table: Table) -> list[tuple[str, int]]:
    """A whole game of Red (a person) against Blue (the box): (how it ended, presses) per box turn."""
    table.tap("ROLL")  # start
    turns = []
    while not isinstance(table.view, views.WinView) and len(turns) < 40:
        if table.box.app.game.current == 0:
            _play_person_turn(table)
            while table.wait():  # a patient table: the guard runs out first
                pass
            if isinstance(table.view, views.InstructionsView):
                table.tap("ROLL")  # the handover's one press: Blue (the box) starts by itself
            continue
        before, start = table.presses, len(table.box.app.events)
        while not _handed_over(table.box.app, start) and not isinstance(table.view, views.WinView):
            if not table.wait():  # the box waits for a press only at its stop
                v = table.view
                assert isinstance(v, views.InstructionsView) and v.title == "Blue stops", v
                table.tap("ROLL")
        ended = "stop" if any(isinstance(e, Stop) for e in table.box.app.events[start:]) else "bust"
        turns.append((ended, table.presses - before))
    return turns


def test_flow_a_box_turn_costs_one_press_and_a_bust_none(tmp_path):
    seen = set()
    for seed in range(1, 30):
        table = Table(tmp_path / str(seed), box_seats=(1,), seed=seed)
        try:
            for ended, presses in _box_turn_presses(table):
                assert presses == (1 if ended == "stop" else 0), (seed, ended)
                seen.add(ended)
        finally:
            table.close()
        if seen == {"stop", "bust"}:
            break
    assert seen == {"stop", "bust"}  # both kinds of box turn were played


def test_flow_two_presses_after_a_stop_one_after_a_bust(tmp_path):
    t = Table(tmp_path, seed=4)
    t.tap("ROLL")
    seen = set()
    for turn in range(30):
        before = t.presses
        ended = _play_person_turn(t, 2 if turn % 2 else 99)  # every other turn rolls until it busts
        at_end = t.presses
        while t.wait():
            pass
        nxt = t.box.app.game.current
        t.tap("ROLL")
        v = t.view
        if isinstance(v, views.WinView):
            break
        assert isinstance(v, views.DiceView) and t.box.app.game.current == nxt  # the next player's dice
        handover = t.presses - at_end + (1 if ended == "stop" else 0)  # the STOP press counts too
        assert handover == (2 if ended == "stop" else 1)
        assert at_end > before
        seen.add(ended)
        if len(seen) == 2:
            break
    assert seen == {"stop", "bust"}


def test_flow_an_eager_double_press_cannot_roll_the_next_dice(tmp_path):
    t = Table(tmp_path, seed=4, settings=GameConfig(handover_guard_ms=600))
    t.tap("ROLL")
    _play_person_turn(t)
    events = t.box.app.events
    t.tap("ROLL")  # 0.2 s after the turn ended: inside the guard
    t.tap("ROLL")  # 0.4 s
    assert t.box.app.events == events and isinstance(t.view, views.InstructionsView)
    t.clock.advance(0.3)
    t.box.pump()  # the guard's timer is due
    t.tap("ROLL")
    assert len(t.box.app.events) == len(events) + 1 and isinstance(t.view, views.DiceView)
    t.close()


def test_flow_new_game_is_never_answered_by_roll(tmp_path):
    t = Table(tmp_path, seed=4)
    t.tap("ROLL")
    t.tap("ROLL")  # a game with an event in it
    t.tap("MENU")
    for _ in range(t.view.items.index("New game")):
        t.tap("B")
    t.tap("ROLL")
    assert t.view.title == "New game?" and t.view.keys == "C:yes MENU:no"
    for _ in range(5):
        t.tap("ROLL")  # key mashing
    assert t.view.title == "New game?" and t.box.app.game is not None
    t.tap("C")
    assert isinstance(t.view, views.SetupView)
    t.close()


def test_flow_a_box_turn_goes_on_by_itself_after_a_restart(tmp_path):
    t = Table(tmp_path, box_seats=(0,), seed=4)  # Red is the box: its turn starts with the game
    t.tap("ROLL")
    assert t.box.due is not None
    t.wait()  # the box rolls
    events = t.box.app.events
    assert len(events) == 1
    t.close()  # a power cut in the middle of the box's turn
    again = Table(tmp_path, box_seats=(0,), seed=4, store=Store.open(tmp_path))
    assert again.box.app.events == events and again.box.due is not None  # its timer runs again
    again.wait()
    assert len(again.box.app.events) == 2 and again.presses == 0  # it went on without a press
    again.close()
