"""The daemon: the loop that owns the game, the store and the screen (:mod:`.box`), and its helpers:

- ``debounce``: raw button edges into presses (taps, holds; chords and bounce ignored);
- ``pager``: a frame of several pages shown in turns;
- ``dice``: where the dice come from;
- ``sdnotify``: READY, WATCHDOG and STOPPING for systemd;
- ``keeper``: the store's side of the effects (the game's writes, the UI facts kept), answered as UI inputs;
- ``worker``: the statistics counted beside the loop;
- ``devicewait``: under systemd, the wait for the GPIO chip and the display's bus;
- ``signals``: the lamps and the buzzer driven from each frame (:mod:`firmware.cues`).
"""
