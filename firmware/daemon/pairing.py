"""The Phone screen's side in the state directory: making pairing codes, forgetting phones, a code's time left.

The UI asks (:class:`firmware.ui.PairPhone`, :class:`firmware.ui.ForgetPhones`) and decides when a code
shown must be replaced (:func:`firmware.ui.phone.on_code_lasts`); this only reads and writes
``phones.json`` (:mod:`firmware.table.phones`) and answers with what it did, as inputs for the UI.
Without a store there is no state directory: no code, nothing to forget.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path

from firmware import ui
from firmware.table import phones

log = logging.getLogger("cantstop.daemon")


class Pairing:
    """Pairing codes for the phones, kept in ``state_dir`` (None: the box runs without a store)."""

    def __init__(self, state_dir: Path | None, web_port: int = 8080, wall=None) -> None:
        self.state_dir = state_dir
        self.web_port = web_port  # the web view's port for the page's address (the config's [web] port)
        self._wall = wall  # the wall clock (None: time.time): a code's ten minutes are the web view's too

    def wall(self) -> float:
        return self._wall() if self._wall is not None else time.time()

    def answer(self, effect) -> ui.PhoneCode:
        """The Phone screen's effects: a fresh code (and the page's address with it), or every phone forgotten."""
        if self.state_dir is None:
            return ui.PhoneCode("", "", 0)
        try:
            if isinstance(effect, ui.ForgetPhones):
                phones.forget(self.state_dir)
                log.info("every paired phone forgotten")
                return ui.PhoneCode("", "", 0, forgot=True)
            made = phones.new_pairing(self.state_dir, now=self.wall())  # never logged
            port = phones.served_port(self.state_dir, self.web_port)
            return ui.PhoneCode(made.code, phones.page_address(port, made.key), phones.count(self.state_dir))
        except OSError as err:
            log.error("the phones' file: %s", err)
            return ui.PhoneCode("", "", 0)

    def poll(self, app: ui.App) -> ui.CodeLasts | None:
        """While the Phone screen shows a code: how long it is good (the UI renews it); None otherwise."""
        screen = app.screen
        if screen.kind is not ui.Screen.PHONE or not screen.code or self.state_dir is None:
            return None
        try:
            return ui.CodeLasts(screen.code, phones.lasts(self.state_dir, screen.code, now=self.wall()))
        except OSError:
            return None
