"""From raw button edges to presses: debounce, long presses, chords.

The mock pin factory does not bounce and real buttons do, so debouncing is
ours, with the clock passed in (the daemon gives it the time of each edge).
Pure bookkeeping: no threads and no sleeping. The daemon asks
:meth:`Debouncer.deadline` when it next needs :meth:`Debouncer.tick`.

- **Debounce.** A change is taken at once (no added latency), then that
  button's edges are ignored for ``debounce`` seconds. When the window ends
  the last edge seen wins, so a tap shorter than the window is not lost and a
  bounce cannot leave a button stuck down.
- **Short press.** Reported when the button is released before ``long_press``.
- **Long press.** Reported once, while the button is still held, when it has
  been down for ``long_press``; its release then reports nothing.
- **Two buttons at once.** When a second button goes down while another is
  down, neither counts: a chord is a slip of the hand, and guessing which one
  was meant could do the wrong thing to the game. Both must be released
  before either counts again.

>>> b = Debouncer(debounce=0.03, long_press=0.8)
>>> b.edge("ROLL", True, 0.0), b.edge("ROLL", False, 0.001), b.edge("ROLL", True, 0.002)
([], [], [])
>>> b.edge("ROLL", False, 0.2)
[Press(button='ROLL', long=False)]
"""

from __future__ import annotations

from dataclasses import dataclass, field

from firmware.ui.messages import Press


@dataclass
class _Contact:
    down: bool = False  # the accepted state
    raw: bool = False  # the last edge seen, accepted or not
    since: float = 0.0  # when the accepted state last changed
    quiet_until: float = 0.0  # edges before this are bounce
    spoiled: bool = False  # part of a chord, or its long press already fired
    long_fired: bool = False


@dataclass
class Debouncer:
    """Debounced presses from raw edges; see the module docstring."""

    debounce: float = 0.03
    long_press: float = 0.8
    _contacts: dict[str, _Contact] = field(default_factory=dict)

    def _get(self, name: str) -> _Contact:
        b = self._contacts.get(name)
        if b is None:
            b = self._contacts[name] = _Contact()
        return b

    def edge(self, name: str, pressed: bool, now: float) -> list[Press]:
        """A raw edge from a button callback at time ``now``; the presses it completes."""
        out = self.tick(now)
        b = self._get(name)
        b.raw = pressed
        if now < b.quiet_until or pressed == b.down:
            return out
        out += self._accept(name, b, pressed, now)
        return out

    def _accept(self, name: str, b: _Contact, pressed: bool, now: float) -> list[Press]:
        b.down = pressed
        b.since = now
        b.quiet_until = now + self.debounce
        if pressed:
            b.long_fired = False
            # Held means held now: a button whose release is still settling
            # (its last edge was a release) does not make a chord.
            others = [o for n, o in self._contacts.items() if n != name and o.down and o.raw]
            b.spoiled = False
            if others:  # a chord: nobody's press counts
                b.spoiled = True
                for o in others:
                    o.spoiled = True
            return []
        # released
        if b.spoiled or b.long_fired:
            b.spoiled = False
            return []
        return [Press(name, False)]

    def tick(self, now: float) -> list[Press]:
        """Settle ended debounce windows and fire due long presses."""
        out: list[Press] = []
        for name, b in self._contacts.items():
            if b.raw != b.down and now >= b.quiet_until:
                out += self._accept(name, b, b.raw, max(now, b.quiet_until))
            if b.down and not b.spoiled and not b.long_fired and now - b.since >= self.long_press:
                b.long_fired = True
                out.append(Press(name, True))
        return out

    def deadline(self) -> float | None:
        """The next time :meth:`tick` has work to do, or None when idle."""
        times = []
        for b in self._contacts.values():
            if b.raw != b.down:
                times.append(b.quiet_until)
            if b.down and not b.spoiled and not b.long_fired:
                times.append(b.since + self.long_press)
        return min(times) if times else None

    def held(self) -> frozenset[str]:
        """Buttons currently down (accepted state)."""
        return frozenset(n for n, b in self._contacts.items() if b.down)
