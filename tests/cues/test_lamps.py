"""The buttons' lamps and the buzzer: whole scripted games on gpiozero's mock pins.

The expectations here are written per screen kind from what the table needs
(independently of firmware.cues), and read back from the mock pins.
"""

from __future__ import annotations

import io
import time

import pytest

from engine import Phase, stop_claims
from firmware import ui, views
from firmware.config import GameConfig
from firmware.cues import MELODIES, lamp_states
from firmware.daemon.signals import Signals
from hw.buzzer import BellBuzzer, GpioBuzzer
from hw.lamps import DIM, GpioLamps, TerminalLamps, lamp_line
from tests.kit.rig import Rig, mock_pins

LAMP_PINS = {"ROLL": 17, "STOP": 27, "A": 22, "B": 23, "C": 20, "MENU": 21}
BUZZER_PIN = 18
ALL = ("ROLL", "STOP", "A", "B", "C", "MENU")


class LampRig(Rig):
    """The rig with its lamps and buzzer on the same (PWM) mock pins as its buttons."""

    def __init__(self, tmp_path, seed, settings, **box):
        factory = mock_pins(pwm=True)
        self.lamps = GpioLamps(LAMP_PINS, pin_factory=factory)
        # a scripted game presses far faster than a table: room for every melody
        self.buzzer = GpioBuzzer(BUZZER_PIN, pin_factory=factory, volume=40, backlog=1000)
        super().__init__(tmp_path, seed=seed, settings=settings, factory=factory,
                         signals=Signals(self.lamps, self.buzzer), **box)

    def lamp_pin(self, name):
        return self.factory.pin(LAMP_PINS[name])

    def close(self):
        self.lamps.close()
        self.buzzer.close()
        super().close()


def expected(view) -> dict[str, str]:
    """What the table needs from the lamps on each kind of screen."""
    on: dict[str, str] = {}
    if isinstance(view, views.TurnView):
        on = {"MENU": "lit"} | ({"ROLL": "lit"} if view.bot else {"ROLL": "pulse"})
    elif isinstance(view, views.DiceView):  # MENU lit on every game screen: it opens the menu there (issue 47, 8)
        on = {o.label: "pulse" for o in view.options if o.effect != "none"} | {"MENU": "lit"}
    elif isinstance(view, views.PickView):
        on = {"A": "pulse", "B": "pulse", "STOP": "lit", "MENU": "lit"}
    elif isinstance(view, views.MoveView):
        on = {"ROLL": "lit", "MENU": "lit"} | ({"STOP": "lit"} if view.can_stop else {})
    elif isinstance(view, views.InstructionsView):  # only handovers in these games
        on = {"ROLL": "pulse", "MENU": "lit"} | ({"A": "lit", "B": "lit"} if view.page < view.pages else {})
    elif isinstance(view, views.WinView):
        on = {"ROLL": "lit", "C": "lit"} | ({"B": "lit"} if "B:" in view.keys else {})  # C: a rematch
    elif isinstance(view, views.SetupView):
        on = {k: "lit" for k in ("A", "B", "C", "ROLL")}
    elif isinstance(view, views.OffView):
        on = {}
    else:
        raise AssertionError(f"this script does not reach {type(view).__name__}")
    return {b: on.get(b, "off") for b in ALL}


def read_lamp(rig, name) -> str:
    """off / lit / pulse, from the mock pin alone: steady 0, steady 1, or changing over a short while."""
    pin = rig.lamp_pin(name)
    before = len(pin.states)
    first = round(pin.state, 3)
    deadline = time.monotonic() + 1.0  # a busy machine may starve gpiozero's fade thread a while
    while time.monotonic() < deadline:
        time.sleep(0.03)
        if {round(s.state, 3) for s in pin.states[before:]} | {round(pin.state, 3)} != {first}:
            return "pulse"
    return "lit" if pin.state == 1 else "off" if pin.state == 0 else f"value {pin.state}"


def check_lamps(rig, seen: set):
    view = rig.box.last_view
    want = expected(view)
    pulsing = [b for b in ALL if want[b] == "pulse"]
    for b in ALL:
        if want[b] != "pulse":  # steady lamps read at once
            got = "lit" if rig.lamp_pin(b).state == 1 else "off" if rig.lamp_pin(b).state == 0 else "?"
            assert got == want[b], (type(view).__name__, b, view.keys)
    for b in pulsing:
        if (type(view).__name__, b) in seen:  # read from the pin once per screen kind and lamp; then the fade is running
            assert rig.lamps.lamp(b)._blink_thread is not None, (type(view).__name__, b, view.keys)
        else:
            assert read_lamp(rig, b) == "pulse", (type(view).__name__, b, view.keys)
            seen.add((type(view).__name__, b))
    seen.add(type(view).__name__)


def play(rig, rolls_a_turn=2):
    """A whole game by a simple table: roll twice a turn then stop, the first legal pairing, pick A."""
    seen: set = set()
    cues: list[str] = []
    check_lamps(rig, seen)
    rig.tap("ROLL")  # the new-game screen: start
    rolls = 0
    for _ in range(2000):
        check_lamps(rig, seen)
        v = rig.box.last_view
        app = rig.box.app
        if isinstance(v, views.WinView):
            return seen, cues
        if isinstance(v, (views.TurnView, views.InstructionsView)) or (isinstance(v, views.MoveView) and rolls < rolls_a_turn):
            if isinstance(v, views.InstructionsView) and v.page < v.pages:
                rig.tap("ROLL")  # next page
                continue
            rolls = 0 if not isinstance(v, views.MoveView) else rolls
            rig.tap("ROLL")
            rolls += 1
            g = rig.box.app.game
            if rig.box.app.events and isinstance(rig.box.last_view, (views.DiceView,)):
                cues.append("roll")
            elif g is not app.game:
                cues.append("bust")
        elif isinstance(v, views.DiceView):
            rig.tap(next(o.label for o in v.options if o.effect != "none"))
        elif isinstance(v, views.PickView):
            rig.tap("A")
        elif isinstance(v, views.MoveView):
            claims = stop_claims(app.game)
            rig.tap("STOP")
            rolls = 0
            if rig.box.app.game.phase is Phase.OVER:
                cues.append("win")
            elif claims:
                cues.append("claim")
        else:
            raise AssertionError(type(v).__name__)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("seed", [3, 11])
def test_lamps_on_every_screen_and_tones_in_order_over_a_whole_game(tmp_path, seed):
    rig = LampRig(tmp_path, seed, GameConfig(handover_guard_ms=0, columns_to_win=2, sound=True))
    try:
        seen, cues = play(rig)
        assert {"SetupView", "TurnView", "DiceView", "MoveView", "InstructionsView", "WinView"} <= seen
        assert rig.buzzer.wait_idle(60)
        assert rig.buzzer.played == [MELODIES[c] for c in cues]
        assert cues.count("win") == 1 and cues[-1] == "win" and "roll" in cues
        rig.box.shutdown()
        assert all(rig.lamp_pin(b).state == 0 for b in ALL)  # out when the box stops
    finally:
        rig.close()


def test_lamps_dim_with_the_screen_and_wake_with_it(tmp_path):
    settings = GameConfig(handover_guard_ms=0, sound=True)
    rig = LampRig(tmp_path, 5, settings, dim_after=60.0)
    try:
        rig.tap("ROLL")  # a turn: ROLL pulses, MENU lit
        rig.clock.advance(61)
        rig.box.pump()
        assert rig.box.dimmed
        assert rig.lamp_pin("MENU").state == pytest.approx(DIM)
        assert read_lamp(rig, "ROLL") == f"value {DIM}"  # no pulse while dim: a steady glimmer
        assert rig.lamp_pin("STOP").state == 0
        rig.tap("STOP")  # wakes only
        assert not rig.box.dimmed and rig.lamp_pin("MENU").state == 1 and read_lamp(rig, "ROLL") == "pulse"
    finally:
        rig.close()


def test_muted_box_plays_no_tone(tmp_path):
    rig = LampRig(tmp_path, 3, GameConfig(handover_guard_ms=0, columns_to_win=1, sound=False))
    try:
        assert rig.box.app.muted
        play(rig)
        assert rig.buzzer.wait_idle(5) and rig.buzzer.played == []
    finally:
        rig.close()


def test_an_illegal_pairing_is_off_and_the_legal_ones_pulse():
    opt = lambda label, effect: views.Option(label, ((1, 1), (1, 1)), (2, 2), effect, "--")
    v = views.DiceView("Red", 0, (1, 1, 1, 1), (opt("A", "both"), opt("B", "none"), opt("C", "first")))
    assert lamp_states(v) == {"ROLL": "off", "STOP": "off", "A": "pulse", "B": "off", "C": "pulse", "MENU": "lit"}
    bot = views.DiceView("Red", 0, (1, 1, 1, 1), v.options, bot=True, keys="ROLL:faster MENU:menu")
    assert lamp_states(bot) == {"ROLL": "lit", "STOP": "off", "A": "off", "B": "off", "C": "off", "MENU": "lit"}


def test_lamps_read_a_translated_legend_and_nothing_when_the_box_is_off():
    app = ui.boot(GameConfig(), language="ja")
    v = ui.view(app)
    assert lamp_states(v) == {"ROLL": "lit", "STOP": "off", "A": "lit", "B": "lit", "C": "lit", "MENU": "off"}
    assert set(lamp_states(views.OffView()).values()) == {"off"}


def test_no_lamp_and_no_buzzer_change_nothing(tmp_path):
    rig = Rig(tmp_path, seed=1)  # no signals: Signals() without parts
    rig.tap("ROLL")
    assert rig.box.frames >= 2 and rig.box.app.game is not None  # the loop runs as before: the game started
    rig.close()


def test_terminal_lamps_show_lit_pulsing_and_off():
    lines = []
    lamps = TerminalLamps(lines.append, colour=False)
    lamps.show({"ROLL": "pulse", "MENU": "lit"})
    assert lines[-1] == "lamps: <ROLL>  stop   a   b   c  [MENU]"
    assert "\x1b[5m" in lamp_line({"ROLL": "pulse"})  # a pulsing lamp blinks in a terminal


def test_bell_rings_once_per_note():
    out = io.StringIO()
    bell = BellBuzzer(out)
    try:
        bell.play(MELODIES["win"])
        bell.play(MELODIES["bust"])
        assert bell.wait_idle(5)
        assert out.getvalue() == "\a" * (4 + 2) and bell.played == [MELODIES["win"], MELODIES["bust"]]
    finally:
        bell.close()


def test_the_menu_mutes_with_one_press_and_a_restart_remembers():
    from firmware.ui.messages import Press

    app = ui.boot(GameConfig(sound=True))
    app, _ = ui.update(app, Press("MENU", False))
    items = ui.view(app).items
    assert items[-2:] == ("Mute sounds", "Phone")  # after the fixed items, so they keep their places
    for _ in range(len(items) - 2):
        app, _ = ui.update(app, Press("B", False))
    app, _ = ui.update(app, Press("ROLL", False))
    assert app.muted and ui.view(app).items[-2] == "Sounds on"
    kept = ui.memory(app)
    again = ui.recall(ui.boot(GameConfig(sound=True)), kept, game=False)
    assert again.muted
    app, _ = ui.update(app, Press("ROLL", False))
    assert not app.muted
    assert "Mute sounds" not in ui.view(ui.update(ui.boot(GameConfig()), Press("MENU", False))[0]).items
