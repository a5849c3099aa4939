"""As a service, a display that does not answer is waited for, not a crash loop.

A loose ribbon, a display plugged in after the box, or a board whose bus is up
but with nothing at the address: opening the OLED fails. At the command line
``cantstop-box run`` says so in one line and exits (69). Under systemd it would
be restarted five times in two minutes and then given up on for good, so a
display plugged in a minute later would stay dark until someone typed
``systemctl reset-failed``. Instead the service tells systemd it is up
(READY=1) and what it waits for (STATUS=, which ``systemctl status`` shows),
keeps answering the watchdog, and tries the display again every
``RETRY_S`` seconds until it answers or the box is told to stop. The reason is
logged once, and again only when it changes.

Only hardware faults are waited for (the error has the bus's error as its
cause); a wrong setting (an unknown driver, a rotation of 5) never fixes
itself and stays one line and an exit.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

log = logging.getLogger("cantstop")

#: How often the service tries the display again.
RETRY_S = 2.0


def waitable(err: Exception) -> bool:
    """Whether a display error is the hardware's (worth waiting for) rather than the config's."""
    return err.__cause__ is not None


def open_waiting(open_display: Callable[[], object], notifier, stop_requested: Callable[[], bool], *,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep, retry_s: float | None = None):
    """The display from ``open_display()``; while it raises a hardware ``DisplayError``, wait for it.

    Returns None when ``stop_requested()`` turns true first. A config fault is raised at once.
    """
    from hw.errors import DisplayError

    retry_s = RETRY_S if retry_s is None else retry_s
    told = None
    while True:
        try:
            display = open_display()
        except DisplayError as err:
            if not waitable(err):
                raise
            reason = str(err)
            if reason != told:
                log.error("waiting for the display: %s", reason)
                status = f"waiting for its display: {reason}"
                notifier.ready(status) if told is None else notifier.status(status)
                told = reason
        else:
            if told is not None:
                log.info("the display answers: starting the box")
                notifier.status("the display answers: starting the box")
            return display
        if not _pause(retry_s, notifier, stop_requested, clock, sleep):
            return None


def _pause(seconds: float, notifier, stop_requested, clock, sleep) -> bool:
    """Sleep ``seconds`` in short steps (a stop is seen within a quarter second), feeding the watchdog
    every half interval; False if a stop was asked for."""
    interval = notifier.watchdog_interval()
    end = clock() + seconds
    fed = None
    while not stop_requested():
        now = clock()
        if interval and (fed is None or now - fed >= interval / 2):
            notifier.watchdog()
            fed = now
        if now >= end:
            return True
        sleep(min(end - now, 0.25))
    return False
