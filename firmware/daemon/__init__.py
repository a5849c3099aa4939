"""The daemon: the loop that owns the game, the store and the screen (:mod:`.box`), and its helpers:

- ``debounce``: raw button edges into presses (taps, holds; chords and bounce ignored);
- ``pager``: a frame of several pages shown in turns;
- ``dice``: where the dice come from;
- ``sdnotify``: READY, WATCHDOG and STOPPING for systemd;
- ``restart``: what a restart reads back besides the open game.
"""
