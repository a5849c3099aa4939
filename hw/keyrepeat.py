"""Terminal auto-repeat as one held press.

A terminal cannot say when a key is released: a key held down arrives again
and again, first after the repeat delay (250-700 ms on common desktops), then
at the repeat rate (every 30-50 ms). Sent on as taps, a held ROLL would
confirm a handover and then roll the next player's dice. ``RepeatFilter``
passes the first arrival on at once and swallows the repeats.

The first repeat cannot be told from a quick second tap by its timing, so a
second arrival of the same key within ``delay`` is held back for ``rate_gap``:
if the key comes again that quickly it is auto-repeat and nothing more is
sent until the key is let go; if not, it was a real second tap and is sent
then (a quick double tap costs ``rate_gap`` of latency, nothing else).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable


class RepeatFilter:
    """The bookkeeping, with the time passed in: ``key(k, now)`` and ``due(now)`` return keys to press."""

    def __init__(self, delay: float = 0.8, rate_gap: float = 0.15) -> None:
        self.delay = delay
        self.rate_gap = rate_gap
        self._key: str | None = None
        self._at = 0.0
        self._held = False
        self._pending: float | None = None  # when a possible second tap of self._key arrived

    def key(self, key: str, now: float) -> list[str]:
        """The keys to press now that ``key`` arrived at ``now``."""
        out = self.due(now)
        if key != self._key:
            if self._pending is not None:  # another key came: the held-back one was a real tap
                out.append(self._key)
            self._fresh(key, now)
            return [*out, key]
        gap, self._at = now - self._at, now
        if self._held:
            if gap <= self.rate_gap:
                return out  # still held down
            self._fresh(key, now)  # let go and pressed again
            return [*out, key]
        if self._pending is not None:
            if gap <= self.rate_gap:  # a third arrival right after the second: auto-repeat
                self._pending, self._held = None, True
                return out
            out.append(key)  # the held-back one was a real tap; this one may be too
            self._pending = now
            return out
        if gap <= self.rate_gap:
            self._held = True  # repeats from the start (a very short delay)
            return out
        if gap <= self.delay:
            self._pending = now  # the first repeat, or a quick second tap: wait and see
            return out
        self._fresh(key, now)
        return [*out, key]

    def due(self, now: float) -> list[str]:
        """A held-back key whose wait is over: it was a real tap."""
        if self._pending is not None and now - self._pending > self.rate_gap:
            self._pending = None
            return [self._key]
        return []

    def deadline(self) -> float | None:
        """When ``due`` next has something to say, or None."""
        return None if self._pending is None else self._pending + self.rate_gap + 0.001

    def _fresh(self, key: str, now: float) -> None:
        self._key, self._at, self._held, self._pending = key, now, False, None


class RepeatKeys:
    """``RepeatFilter`` on the real clock: ``__call__(key)`` from the key reader, ``emit(key)`` per press.

    ``clock`` and ``timer`` (made like :class:`threading.Timer`: ``timer(seconds, function)``,
    then ``start()`` and ``cancel()``) are the real ones unless a test passes its own.
    """

    def __init__(self, emit: Callable[[str], None], *, delay: float = 0.8, rate_gap: float = 0.15,
                 clock: Callable[[], float] = time.monotonic, timer=threading.Timer) -> None:
        self._emit = emit
        self._filter = RepeatFilter(delay, rate_gap)
        self._clock = clock
        self._new_timer = timer
        self._lock = threading.Lock()
        self._timer = None

    def __call__(self, key: str) -> None:
        with self._lock:
            keys = self._filter.key(key, self._clock())
            self._arm()
        for k in keys:
            self._emit(k)

    def _arm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        deadline = self._filter.deadline()
        if deadline is not None:
            self._timer = self._new_timer(max(0.0, deadline - self._clock()), self._wake)
            self._timer.daemon = True
            self._timer.start()

    def _wake(self) -> None:
        with self._lock:
            keys = self._filter.due(self._clock())
            self._arm()
        for k in keys:
            self._emit(k)

    def close(self) -> None:
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
