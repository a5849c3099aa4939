"""The box on gpiozero's mock pins, a fake display and a real store: press buttons, read frames and the store.

``Rig`` is the box as the tests, the web tests and the benchmarks drive it: ``tap`` presses a
button, ``play_on`` presses like a table that only wants the game to go on, ``run`` runs the
box's own loop (``Box.run``) on the fake clock. :func:`mock_pins` is the one place a mock pin
factory is made for them; :class:`Notes` is the systemd the box tells how it is doing.
"""

from __future__ import annotations

import functools
import queue
import threading
import time

from gpiozero.pins.mock import MockFactory, MockPWMPin

from engine import Move
from firmware import ui, views
from firmware.config import ButtonPins, GameConfig
from firmware.daemon.box import Box
from firmware.daemon.dice import seeded_dice
from firmware.store import Store
from firmware.store.shared import update_fact
from firmware.table import roster as rosters
from firmware.table.seat import Seat
from hw.buttons import GpioButtons
from hw.fakes import FakeDisplay

from .clock import FakeClock

PINS = ButtonPins().pins()
MAX_PRESSES = 5000  # play_on's budget when it plays to an end rather than for a number of presses


def mock_pins(*, pwm: bool = False) -> MockFactory:
    """A fresh mock pin factory of its own (never installed globally); ``pwm`` for lamps and a buzzer."""
    return MockFactory(pin_class=MockPWMPin) if pwm else MockFactory()


class Rig:
    """A running box on mock pins: ``tap("ROLL")`` presses a button as a player would.

    Everything is optional: ``state_dir`` (where the store opens) or ``store`` (one opened
    already); ``seed`` for the dice, or ``dice``; ``settings``, ``display`` (a ``FakeDisplay``),
    ``language``, ``clock`` (a ``FakeClock`` at 1000 s; live, the real one) and ``factory``
    (:func:`mock_pins`). Before the box starts, ``roster`` adds the people to the store as
    ``cantstop-box players add`` does (:func:`keep_roster`) and ``names`` (with ``colours``) a
    game begun with its seats named (a person of the roster by their id). ``rest`` is how long
    the table waits after each press (1.0: past the guard after a handover, so every press
    counts). ``on_edge(name, pressed)`` sees each edge just before the box does (a benchmark
    times from the release). ``watchdog`` (seconds) is systemd's watchdog interval: the box
    tells :class:`Notes` (``rig.notes``) that it is ready and, in :meth:`run`, pings it. Any
    other keyword is the ``Box``'s own (``signals``, ``renderer``, ``dim_after``, ``worker``).

    ``live=True`` is the box in real time: its own loop runs in a thread on the real clock, and
    the rig's waits are sleeps (a benchmark's press-to-frame); end it with :meth:`shutdown`.
    """

    def __init__(self, state_dir=None, *, seed=7, dice=None, settings=None, store=None, display=None, language="en",
                 clock=None, factory=None, rest=0.0, live=False, on_edge=None, roster=(), names=None, colours=None,
                 watchdog=None, **box):
        self.state_dir = state_dir
        self.live = live
        self.rest = rest
        self.factory = factory or mock_pins()
        self.clock = clock or (time.monotonic if live else FakeClock(1000.0))
        self.display = display or FakeDisplay()
        self.store = store or Store.open(state_dir)
        self.settings = settings or GameConfig()
        people = keep_roster(self.store, roster) if roster else rosters.Roster()
        if names:  # a game already begun, its seats named (as the new-game screen names them), in these colours
            colours = colours or self.settings.colours[:len(names)]
            ids = {m.name: m.id for m in people.people}
            self.store.new_game(list(colours), self.settings.rules, meta={"seats": [
                Seat(c, None, n, ids.get(n)).to_json() for c, n in zip(colours, names)]})
        self.notes = None if watchdog is None else Notes(self.clock, watchdog)
        if self.notes is not None:
            box["notifier"] = self.notes
        self.box = Box(self.settings, self.display, self.store, dice=dice or seeded_dice(seed), clock=self.clock,
                       language=language, **box)
        sink = self.box.sink if on_edge is None else _both(on_edge, self.box.sink)
        self.buttons = GpioButtons(PINS, sink, pin_factory=self.factory)
        self.box.start()
        self.loop = None
        if live:
            self.loop = threading.Thread(target=self.box.run, daemon=True)
            self.loop.start()

    # -- pressing ---------------------------------------------------------------

    def pin(self, name):
        return self.factory.pin(PINS[name])

    def _wait(self, seconds):
        """Let ``seconds`` pass and the box handle what came (live: its loop does, as the time passes)."""
        if self.live:
            time.sleep(seconds)
        else:
            self.clock.advance(seconds)
            self.box.pump()

    def tap(self, name, hold=0.1):
        self.pin(name).drive_low()
        self._wait(hold)
        self.pin(name).drive_high()
        self._wait(0.1)
        if self.rest and self.live:
            time.sleep(self.rest)
        elif self.rest:
            self.clock.advance(self.rest)  # no pump: the box sees the time at the next press

    def press_at(self, when, name, hold=0.1):
        """Press ``name`` at ``when`` on the fake clock, for ``hold`` seconds (for :meth:`run`: the table
        presses while the loop runs)."""
        pin = self.pin(name)
        self.clock.call_at(when, pin.drive_low)
        self.clock.call_at(when + hold, pin.drive_high)

    def hold(self, name):
        self.pin(name).drive_low()
        if not self.live:
            self.box.pump()
        self._wait(1.0)  # the long press fires while held
        self.pin(name).drive_high()
        self._wait(0.1)

    def play_on(self, presses=None, *, events=None, stop_after=2):
        """Press on like a table that only wants the game to go on; the screen it ends on.

        Each press is the one that screen asks for: the first legal pairing of the dice, A of a
        pick, STOP once ``stop_after`` moves are made this turn (None: never stop, push on to a
        bust), else ROLL (to roll, start, turn a page, leave a winner's screen for a new game).

        - ``play_on()``: on to the winner's screen (AssertionError if no winner comes);
        - ``play_on(presses=n)``: n presses, whatever comes up (a winner's screen is left);
        - ``play_on(events=n)``: until the game's events have changed n times (a roll, a move, a
          stop; a pick alone is not an event).
        """
        if presses is not None and events is not None:
            raise TypeError("play_on takes presses or events, not both")
        if presses is not None:
            for _ in range(presses):
                self._press_on(stop_after)
            return self.view
        left = events
        for _ in range(MAX_PRESSES):
            if (isinstance(self.view, views.WinView) and events is None) or left == 0:
                return self.view
            before = len(self.events)
            self._press_on(stop_after)
            if left is not None and len(self.events) != before:
                left -= 1
        raise AssertionError("no winner" if events is None else f"{left} event(s) short after {MAX_PRESSES} presses")

    def _press_on(self, stop_after):
        v = self.view
        if isinstance(v, views.DiceView):
            self.tap(next(o.label for o in v.options if o.effect != "none"))
        elif isinstance(v, views.PickView):
            self.tap("A")
        elif isinstance(v, views.MoveView):
            stop = stop_after is not None and v.can_stop and _moves_this_turn(self.box.app) >= stop_after
            self.tap("STOP" if stop else "ROLL")
        elif isinstance(v, (views.TurnView, views.SetupView, views.InstructionsView, views.WinView)):
            self.tap("ROLL")  # roll, start, the board is done, or the game: on to the next turn, or a new game
        else:
            raise AssertionError(f"unexpected screen {v}")

    # -- the box's own loop -------------------------------------------------------

    def run(self, seconds, *, until=None, beside=0.0):
        """``Box.run``, the box's loop as the daemon runs it, in this thread on the fake clock.

        The loop sleeps as ever, on its queue until its next deadline (:meth:`Box._deadlines`:
        the watchdog's ping, the UI's timer, a retry, a page); here each sleep moves the fake
        clock on to that deadline at once, or to the moment of a press set with
        :meth:`press_at` (or anything else set with ``clock.call_at``), so minutes of the box's
        time take milliseconds. A thread beside the loop (the statistics worker) counts in real
        time: ``beside`` is how long (real seconds) each sleep first waits for what it posts.

        It stops after ``seconds`` of the clock, or once ``until()`` is true (asked before each
        sleep): where the loop waits, as a kill stops it, nothing shut down. The rig goes on
        from there (``tap``, ``run`` again, ``close``, ``shutdown``).
        """
        assert not self.live, "a live rig's loop runs in its own thread on the real clock"
        if not isinstance(self.box.queue, LoopQueue):
            self.box.queue = LoopQueue(self.clock, self.box.queue)
        self.box.queue.plan(self.clock() + seconds, until, beside)
        try:
            self.box.run()
        except _Stopped:
            pass
        finally:
            self.box.queue.plan(None, None, 0.0)

    # -- reading ----------------------------------------------------------------

    @property
    def view(self):
        return ui.view(self.box.app)

    @property
    def events(self):
        return self.box.app.events

    # -- ending -----------------------------------------------------------------

    def close(self):
        """The box goes away without a shutdown, as in a power cut: the pins go, the store is cut."""
        assert not self.live, "a live rig's loop ends with shutdown()"
        if self.box.worker is not None:
            self.box.worker.close()  # its thread goes with the process
        self.buttons.close()
        self.factory.reset()
        self.store.cut_power()

    def shutdown(self):
        """The box shuts down as the service stops it: the off screen, the store closed cleanly."""
        if self.live:
            self.box.request_shutdown()
            self.loop.join(5)
        else:
            self.box.shutdown()
        self.buttons.close()
        self.factory.reset()


def keep_roster(store, names) -> rosters.Roster:
    """Add each of ``names`` to the roster in ``store``'s directory as ``cantstop-box players add`` does
    (:func:`firmware.table.roster.add`, written by :func:`firmware.store.shared.update_fact`); the roster kept."""
    def added(raw):
        return functools.reduce(rosters.add, names, rosters.from_fact(raw, ())).to_json()

    return rosters.from_fact(update_fact(store.path.parent, rosters.ROSTER_KEY, added), ())


class Notes:
    """Stands in for systemd's notify socket (:class:`firmware.daemon.sdnotify.Notifier`): what the box
    says, each with the time by ``clock``; ``interval`` is the watchdog's (WATCHDOG_USEC, in seconds)."""

    def __init__(self, clock, interval=None) -> None:
        self.clock = clock
        self.interval = interval
        self.said: list[tuple[float, str]] = []

    def send(self, *fields) -> bool:
        self.said.extend((self.clock(), field) for field in fields)
        return True

    def ready(self, status=None) -> bool:
        return self.send("READY=1", *(() if status is None else (f"STATUS={status}",)))

    def status(self, text) -> bool:
        return self.send(f"STATUS={text}")

    def watchdog(self) -> bool:
        return self.send("WATCHDOG=1")

    def stopping(self) -> bool:
        return self.send("STOPPING=1")

    def extend_timeout(self, seconds) -> bool:
        return self.send(f"EXTEND_TIMEOUT_USEC={round(seconds * 1_000_000)}")

    def watchdog_interval(self):
        return self.interval

    def close(self) -> None:
        pass

    def when(self, field) -> list[float]:
        """The times ``field`` (``"WATCHDOG=1"``) was said."""
        return [at for at, said in self.said if said == field]

    def worst_gap(self, since=None, until=None) -> float:
        """The longest time without a ``WATCHDOG=1`` from ``since`` (READY) to ``until`` (now)."""
        since = self.when("READY=1")[0] if since is None else since
        until = self.clock() if until is None else until
        marks = [since, *(at for at in self.when("WATCHDOG=1") if since <= at <= until), until]
        return max(b - a for a, b in zip(marks, marks[1:]))


class _Stopped(Exception):
    """Out of the loop's wait: :meth:`Rig.run` is over."""


class LoopQueue(queue.Queue):
    """The box's queue under :meth:`Rig.run`: a wait moves the fake clock on instead of sleeping.

    Outside a run it is the queue it was (``pump`` takes what is there without waiting).
    """

    def __init__(self, clock, before: queue.Queue) -> None:
        super().__init__()
        self.clock = clock
        while True:  # what was queued already
            try:
                self.put(before.get_nowait())
            except queue.Empty:
                break
        self.plan(None, None, 0.0)

    def plan(self, end, until, beside) -> None:
        self.end, self.until, self.beside = end, until, beside

    def get(self, block=True, timeout=None):
        if not block or self.end is None:
            return super().get(block, timeout)
        deadline = None if timeout is None else self.clock() + timeout
        while True:
            if self.clock() >= self.end or (self.until is not None and self.until()):
                raise _Stopped
            try:
                return super().get(block=False)
            except queue.Empty:
                pass
            if self.beside:
                try:
                    return super().get(timeout=self.beside)  # what a thread beside the loop posts
                except queue.Empty:
                    pass
            wake = self.end if deadline is None else min(deadline, self.end)
            timer = self.clock.next_timer()
            if timer is not None and timer <= wake:
                self.clock.advance_to(timer)  # a press at its moment: its edge is queued now
                continue
            self.clock.advance_to(wake)
            if deadline is not None and wake >= deadline:
                raise queue.Empty  # the loop's deadline came


def _moves_this_turn(app) -> int:
    """The moves made since the turn passed to the seat now on (a stop or a bust passes it)."""
    moves = 0
    for i in range(len(app.events) - 1, -1, -1):
        if app.states[i + 1].current != app.states[i].current:
            break
        moves += isinstance(app.events[i], Move)
    return moves


def _both(first, then):
    def sink(name, pressed):
        first(name, pressed)
        then(name, pressed)
    return sink


def goto(rig, label):
    """On a list screen (menu, new game), move down to the row whose label is ``label``."""
    for _ in range(20):
        v = rig.view
        labels = [r[0] if isinstance(r, tuple) else r for r in (v.rows if isinstance(v, views.SetupView) else v.items)]
        if labels[v.cursor] == label:
            return
        rig.tap("B")
    raise AssertionError(f"no row {label}")
