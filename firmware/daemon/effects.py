"""The loop's hands: carrying out what the UI decided, and feeding back what came of it.

:func:`firmware.ui.update` returns effects; :class:`Effects` (a part of
:class:`firmware.daemon.box.Box`) carries each out in order: a store write
(answered as ``Saved`` / ``SaveFailed``), the dice, the statistics to load,
the Phone screen's codes, a phone's reply, the dimming and the lamps, the
camera's requests. It also takes what comes from beside the loop the same
way: the statistics worker's tallies, a paired phone's request (fed to the UI
like a press), and the camera's start with the set-up the store keeps.
"""

from __future__ import annotations

import logging
import queue

from firmware import ui
from firmware.camera.link import CALIBRATION_FACT
from firmware.table import roster

from . import phones
from .camera import camera_request
from .loaders import load_stats, unfinished
from .worker import KeepTallies

log = logging.getLogger("cantstop.daemon")

_PHONE = "phone"  # a queue item from a paired phone: (_PHONE, phones.Asked)
#: A write that failed (a locked, full or read-only card) is tried again after this long, by the loop's
#: clock, and after twice as long each time it fails again, up to RETRY_MAX (a card that stays full).
RETRY_SECONDS, RETRY_MAX = 2.0, 60.0


class Effects:
    """The effects of :func:`firmware.ui.update`, carried out for a :class:`~firmware.daemon.box.Box`."""

    def _take(self, inputs) -> None:
        """Feed back what a store write answered; ``Saved`` only clears a NOT SAVED (any input ends a flash).
        While writes wait in the store's pending queue, the loop tries them again at ``retry_at``."""
        for inp in inputs:
            if isinstance(inp, ui.Saved) and not self.app.alert:
                continue
            self._update(inp)
        if self.store is not None and self.store.pending and not self.store.refuse:
            if self.retry_at is None:
                self.retry_at = self.clock() + self._retry_after
        else:
            self.retry_at = None
            self._retry_after = RETRY_SECONDS

    def _effect(self, effect) -> None:
        if isinstance(effect, ui.After):
            self.due = self.clock() + effect.seconds
        elif isinstance(effect, ui.DrawDice):
            self._update(ui.DiceRolled(self.dice()))
        elif isinstance(effect, ui.Append):
            self._take(self.keeper.append(effect.event))
        elif isinstance(effect, ui.PopLast):
            self._take(self.keeper.pop_last())
        elif isinstance(effect, ui.StartGame):
            self._take(self.keeper.start(effect.players, effect.rules, effect.meta))
        elif isinstance(effect, ui.FinishGame):
            self._take(self.keeper.ended(self.app, effect.winner))
        elif isinstance(effect, ui.LoadStats) and self.worker is not None and self.store is not None:
            self.worker.load(self.store.path.parent, self.roster)  # fed back through the queue as it counts
        elif isinstance(effect, (ui.LoadStats, ui.LoadUnfinished)):
            self._update(self._read(load_stats if isinstance(effect, ui.LoadStats) else unfinished, effect))
        elif isinstance(effect, ui.ContinueGame):
            self._take(self.keeper.continue_game(effect.game_id))
        elif isinstance(effect, (ui.PairPhone, ui.ForgetPhones)):
            self._update(self.pairing.answer(effect))
        elif isinstance(effect, ui.KeepRoster):
            self.roster = effect.roster
            self._take(self.keeper.keep_facts({roster.ROSTER_KEY: effect.roster.to_json()}))
        elif isinstance(effect, ui.KeepFacts):
            self._take(self.keeper.keep_facts(effect.facts))
        elif isinstance(effect, ui.Dimming):
            self.dim_after = effect.seconds
            if self.dim_after is None and self.dimmed:
                self._dim(False)
        elif isinstance(effect, ui.Lamps):
            self.signals.switch_lamps(effect.on)
        elif isinstance(effect, ui.PhoneReply):
            self._reply(effect)
        elif self.camera is not None and isinstance(effect, (ui.WatchBoard, ui.StopWatching, ui.SetUpCamera)):
            self.camera.send(camera_request(effect, self.app))

    def _reply(self, effect) -> None:
        """The UI's answer to a phone, and a line in the journal. The door that waits for it hears it once the
        step that made it has kept what it changed (:meth:`_answer_phones`): a page the phone loads next reads
        the store, and must find the new settings there."""
        asked = self._asked.pop(effect.ticket, None)
        if effect.answer.get("ok"):
            log.info("from a phone: %s", effect.log)
        if asked is not None:
            self._answers.append((asked, effect.answer))

    def _answer_phones(self) -> None:
        """Send the phones the answers this step made (after its writes)."""
        while self._answers:
            asked, answer = self._answers.pop(0)
            asked.reply(answer)

    def keep_facts(self, facts: dict, draw: bool = False) -> None:
        """Write facts (tallies, what a phone changed) as the loop writes: kept pending if the card refuses them."""
        with self._lock:
            self._take(self.keeper.keep_facts(facts))
            if draw:
                self._draw()

    def _from_worker(self, item) -> None:
        """What the statistics worker found: a batch of tallies to write, or an input for the UI."""
        if isinstance(item, KeepTallies):
            self.keep_facts(item.facts, draw=True)
        else:
            self.feed(item)

    def _read(self, reader, effect):
        """Statistics or the unfinished games, read from the store (nothing, if it cannot be read)."""
        try:
            return reader(self.store, self.roster)
        except Exception as err:
            log.error("cannot read the games: %s", err)
            return reader(None, self.roster)

    def _serve_phone(self, asked: phones.Asked) -> None:
        """A paired phone's request, taken between two presses like one: the UI answers it (ui.phone)."""
        fresh = roster.load(self.store, self.settings.roster) if self.store is not None else None  # as the CLI
        self._asked[asked.ticket] = asked
        try:
            self.feed(ui.PhoneAsked(asked.ticket, asked.request, fresh, lamps=self.signals.lamps is not None))
        except Exception as err:  # a request must never stop the box
            log.error("a phone's request: %s", err)
        finally:
            self._answer_phones()  # what the step answered, even if it failed after answering
            left = self._asked.pop(asked.ticket, None)
            if left is not None:  # the UI never answered (it failed): the phone still hears one line
                left.reply({"ok": False, "error": "the box could not take it"})

    def _serve_left(self) -> None:
        """Stopping: the phones' requests still on the queue are answered first, never lost; whatever else is
        left there (presses) is not."""
        while True:
            try:
                item = self.queue.get_nowait()
            except queue.Empty:
                return
            if item[0] == _PHONE:
                self._serve_phone(item[1])

    def _start_camera(self) -> None:
        """The camera's process, told the set-up the store keeps (a restore brings it back)."""
        if self.camera is None:
            return
        self.camera.send({"do": "setup", "runner": self.camera.cfg.runner, "tall": self.camera.cfg.piece_mm,
                          "calibration": self._fact(CALIBRATION_FACT)})
        self.camera.start()
        self._update(ui.CameraSaid("starting"))

    def _fact(self, key: str):
        """A fact the store keeps (None without a store, or when it cannot be read: the config's stand)."""
        if self.store is None:
            return None
        try:
            return self.store.fact(key)
        except Exception as err:
            log.error("cannot read %s: %s", key, err)
            return None
