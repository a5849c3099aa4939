"""The daemon's lamps and buzzer: what each frame says to the table besides the screen.

:class:`Signals` is called by the loop once per frame drawn, when the
screen dims or wakes, and when the box stops. It asks the pure
:mod:`firmware.cues` what the lamps show and which tones sound, and hands
that to the adapters (:mod:`hw.lamps`, :mod:`hw.buzzer`), which never keep
the loop waiting: a pulse is gpiozero's background fade, a melody plays on
the buzzer's own thread. Without lamps or a buzzer it does nothing; a lamp
or buzzer fault is logged once and the game goes on.
"""

from __future__ import annotations

import logging

from firmware.cues import MELODIES, cues, lamp_states

log = logging.getLogger("cantstop.signals")


class Signals:
    def __init__(self, lamps=None, buzzer=None) -> None:
        self.lamps = lamps
        self.buzzer = buzzer
        self.dimmed = False
        self.dark = False  # the lamps switched off (from a phone's settings): every lamp out until switched on
        self._states: dict[str, str] = {}
        self._game: tuple | None = None  # the states of the game at the last frame
        self._failed: set[str] = set()

    def frame(self, app, view) -> None:
        """A frame was drawn: the lamps for its view, the tones of what the game did since the last one."""
        self._states = lamp_states(view)
        self._lamps(self._states)
        before, self._game = self._game, app.states
        if self.buzzer is None or before is None or app.muted:
            return
        for cue in cues(before, app.states, app.events):
            self._guard("buzzer", lambda: self.buzzer.play(MELODIES[cue]))

    def dim(self, on: bool) -> None:
        self.dimmed = on
        self._lamps(self._states)

    def off(self) -> None:
        """The box stops: every lamp out."""
        self._states = {}
        self.dimmed = False
        self._lamps({})

    def _lamps(self, states) -> None:
        if self.lamps is not None:
            self._guard("lamps", lambda: self.lamps.show({} if self.dark else states, self.dimmed))

    def switch_lamps(self, on: bool) -> None:
        """Lamps on (they show what the buttons do) or off (every lamp out), from the next frame on: at once."""
        self.dark = not on
        self._lamps(self._states)

    def _guard(self, part: str, action) -> None:
        try:
            action()
            self._failed.discard(part)
        except Exception as err:
            if part not in self._failed:
                log.error("%s: %s", part, err)
            self._failed.add(part)
