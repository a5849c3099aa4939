"""The one fake clock of the tests: the time stands still until the test moves it."""

from __future__ import annotations

from collections.abc import Callable


class FakeClock:
    """``clock()`` is the time (``clock.now``); ``clock.advance(s)`` moves it on and returns the new time.

    ``clock.timer`` stands in for :class:`threading.Timer` on this clock: a started timer's
    function runs inside the ``advance`` that reaches its time, in the test's own thread;
    ``clock.call_at(t, f)`` runs ``f`` once the time reaches ``t`` (a device appears). Code that
    sleeps takes ``clock.sleep``, which moves the time instead (``clock.sleeps`` counts the calls).
    ``clock.elapse(s)`` is ``advance`` with each timer run at its own moment (the clock reads it
    then: a button pressed while the box was busy is stamped when it was pressed, not after).

    >>> clock = FakeClock(1000.0)
    >>> clock.advance(0.5)
    1000.5
    >>> clock()
    1000.5
    >>> rang = []
    >>> clock.timer(1.0, lambda: rang.append(clock())).start()
    >>> clock.advance(0.9), rang
    (1001.4, [])
    >>> clock.advance(0.2), rang
    (1001.6, [1001.6])
    >>> _ = clock.call_at(1002.0, lambda: rang.append(clock())); clock.next_timer()
    1002.0
    >>> clock.elapse(1.0), rang, clock.next_timer()
    (1002.6, [1001.6, 1002.0], None)
    """

    def __init__(self, now: float = 1_700_000_000.0) -> None:
        self.now = now
        self.sleeps = 0
        self._timers: list[FakeTimer] = []

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        self.now += seconds
        while True:
            due = [t for t in self._timers if t.at <= self.now]
            if not due:
                return self.now
            first = min(due, key=lambda t: t.at)
            self._timers.remove(first)
            first.function()

    def advance_to(self, when: float) -> float:
        """``advance`` to the time ``when`` (never back)."""
        self.now = max(self.now, when)
        return self.advance(0.0)

    def elapse(self, seconds: float) -> float:
        """``advance``, each timer run at its own moment on the way."""
        end = self.now + seconds
        while (at := self.next_timer()) is not None and at <= end:
            self.advance_to(at)
        return self.advance_to(end)

    def next_timer(self) -> float | None:
        """When the first started timer is due (None: none is)."""
        return min((t.at for t in self._timers), default=None)

    def sleep(self, seconds: float) -> None:
        self.sleeps += 1
        self.advance(seconds)

    def timer(self, seconds: float, function: Callable[[], object]) -> FakeTimer:
        return FakeTimer(self, seconds, function)

    def call_at(self, when: float, function: Callable[[], object]) -> FakeTimer:
        timer = FakeTimer(self, when - self.now, function)
        timer.start()
        return timer


class FakeTimer:
    """A :class:`threading.Timer` look-alike on a :class:`FakeClock` (``start``, ``cancel``, ``daemon``)."""

    def __init__(self, clock: FakeClock, seconds: float, function: Callable[[], object]) -> None:
        self.clock, self.seconds, self.function = clock, seconds, function
        self.at = clock.now + seconds
        self.daemon = False

    def start(self) -> None:
        self.at = self.clock.now + self.seconds
        self.clock._timers.append(self)

    def cancel(self) -> None:
        if self in self.clock._timers:
            self.clock._timers.remove(self)
