"""The imperative shell: one loop that owns the game, the store and the screen.

Button callbacks (gpiozero's threads) only put raw edges on one queue. The
loop takes them off, turns them into presses (:mod:`firmware.daemon.debounce`), runs the
pure :func:`firmware.ui.update`, and carries out its effects in order: an event
is committed to the store *before* the frame that shows its result is drawn.
A frame is rendered and sent only when the view changed; a frame of several
pages (a small screen) shows them in turns (:mod:`firmware.daemon.pager`).

The loop sleeps on the queue. It wakes early only when the debouncer or a
long press needs it, when the UI's one timer is due (:class:`ui.After`: a box
seat's pace, the guard after a handover), for the next page of a frame, to feed systemd's watchdog, and once
every :data:`ROSTER_CHECK` seconds to see whether ``cantstop-box players`` changed the roster (one
``PRAGMA data_version``, which reads no table and waits on no lock).
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable

from firmware import ui, words
from firmware.config import GameConfig
from firmware.screens import render_pages
from firmware.table import names, person_stats, roster
from firmware.table.loaders import load_stats, seats_from_meta, unfinished

from . import restart
from .debounce import Debouncer
from .dice import os_dice
from .pager import Pager
from .signals import Signals

log = logging.getLogger("cantstop.daemon")

_SHUTDOWN = "shutdown"
#: Seconds between two looks at whether another process changed the roster.
ROSTER_CHECK = 1.0


class Box:
    """The running box: wiring-agnostic (hardware and store are passed in)."""

    def __init__(
        self,
        settings: GameConfig,
        display,
        store=None,
        *,
        dice: Callable[[], tuple[int, int, int, int]] = os_dice,
        clock: Callable[[], float] = time.monotonic,
        debounce: float = 0.03,
        long_press: float = 0.8,
        notifier=None,
        renderer=render_pages,
        dim_after: float | None = 600.0,
        language: str = "en",
        signals=None,
    ) -> None:
        self.settings = settings
        self.language = language  # the config's; the table's own choice, once made, is remembered instead
        self.display = display
        self.store = store
        self.dice = dice
        self.clock = clock
        self.debouncer = Debouncer(debounce=debounce, long_press=long_press)
        self.notifier = notifier
        self.renderer = renderer  # view, size -> the frame's pages (or one image)
        self.pager = Pager()
        self.signals = signals or Signals()  # the buttons' lamps and the buzzer (none: nothing happens)
        self.queue: queue.Queue = queue.Queue()
        self.app: ui.App = ui.boot(settings, language=language)
        self.game_id: int | None = None
        self.last_view = None
        self.frames = 0  # frames handed to the display
        self.running = False
        self.store_error: str | None = None
        self._display_failed = False
        self._lock = threading.Lock()
        self.dim_after = dim_after or None  # seconds without a press before the screen dims
        self.dimmed = False
        self._last_press = clock()
        self._waking = False  # the press that woke a dim screen is swallowed
        self._memory: dict | None = None  # the UI facts last stored
        self.roster = roster.from_fact(None, settings.roster)  # the names a seat can take (read from the store at start)
        self.due: float | None = None  # when the UI's timer (ui.After) is due, by self.clock
        self.roster_due: float | None = None  # when to look whether another process changed the roster
        self._data_version: int | None = None  # the store's data_version when the roster was last read

    # -- thread-safe entry points ---------------------------------------------

    def sink(self, name: str, pressed: bool) -> None:
        """Button callback target (any thread): queue the raw edge with its time."""
        self.queue.put((name, pressed, self.clock()))

    def request_shutdown(self, reason: str = "Game saved") -> None:
        """Ask the loop to stop (signal handlers, other threads)."""
        self.queue.put((_SHUTDOWN, reason))

    # -- start ------------------------------------------------------------------

    def start(self) -> None:
        """Resume the open game (or show the new-game screen) and draw the first frame."""
        app, notices = self._load()
        for kind, detail in notices:
            title, lines = words.notice(kind, detail)
            log.warning("%s: %s", title, " ".join(lines))
            app = ui.notify(app, *app.words.notice(kind, detail))
        self.app = app
        self.running = True
        self.roster_due = self.clock() + ROSTER_CHECK if self.store is not None else None
        wait = ui.timer_for(app)  # a box seat was playing when the power went: it goes on
        if wait is not None:
            self.due = self.clock() + wait
        self._draw()
        if self.notifier is not None:
            self.notifier.ready("showing the first screen")

    def _load(self) -> tuple[ui.App, list[tuple[str, str]]]:
        """The app the table left (its open game or last result, screen, settings, language); notices as (kind, detail)."""
        self.roster = roster.load(self.store, self.settings.roster)
        self._data_version = self._store_version()
        app = self._boot()
        notices: list[tuple[str, str]] = []
        if self.store is None:
            if self.store_error:
                app, _ = ui.update(app, ui.SaveFailed(self.store_error))
            return app, notices
        if getattr(self.store, "notice", None):
            notices.append(("reset", self.store.notice))
        kept = restart.kept(self.store)
        try:
            stored = self.store.open_game() or restart.last_result(self.store, kept)
        except Exception as err:  # a store that cannot even be read: play on, unsaved
            log.error("cannot read the saved game: %s", err)
            stored = None
            notices.append(("unreadable", str(err)))
        if stored is not None:
            app, problem = self._resume(stored)
            if problem:
                notices.append(("damaged", problem))
        same_game = isinstance(kept, dict) and self.game_id is not None and kept.get("game") == self.game_id
        app = ui.recall(app, kept, game=same_game)
        if getattr(self.store, "cannot_save", None):  # e.g. a read-only card: saved once it takes writes
            app, _ = ui.update(app, ui.SaveFailed(_short(self.store.cannot_save)))
        self._memory = self._memory_of(app)
        return app, notices

    def _boot(self) -> ui.App:
        return ui.boot(self.settings, self.roster.names, self.language, self.roster.ids)

    def _resume(self, stored) -> tuple[ui.App, str | None]:
        seats = seats_from_meta(stored.meta, stored.players)
        if stored.status == "damaged":
            # The valid prefix stays in the store, exportable; the table starts afresh.
            self._save(lambda: self.store.abandon(stored.id))
            return self._boot(), stored.problem or f"game {stored.id} does not replay"
        try:
            app = ui.resume(self.settings, seats, stored.rules, stored.events, self.roster.names, self.language,
                            self.roster.ids)
        except Exception as err:
            problem = f"game {stored.id}: {err}"
            log.error("cannot resume: %s", problem)
            return self._boot(), problem
        self.game_id = stored.id
        return app, None

    # -- the loop ---------------------------------------------------------------

    def run(self) -> None:
        """Serve button presses until shutdown; wakes only when there is work."""
        if not self.running:
            self.start()
        interval = self.notifier.watchdog_interval() if self.notifier is not None else None
        next_ping = self.clock() + interval / 2 if interval else None
        while self.running:
            dim_at = self._last_press + self.dim_after if self.dim_after is not None and not self.dimmed else None
            flip_at = None if self.dimmed else self.pager.due  # a dim screen waits on its page
            times = [t for t in (self.debouncer.deadline(), self.due, next_ping, dim_at, flip_at, self.roster_due)
                     if t is not None]
            timeout = max(0.0, min(times) - self.clock()) if times else None
            try:
                item = self.queue.get(timeout=timeout)
            except queue.Empty:
                item = None
            self._handle(item)
            if next_ping is not None and self.clock() >= next_ping:
                self.notifier.watchdog()
                next_ping = self.clock() + interval / 2

    def pump(self) -> None:
        """Handle everything queued now, without waiting (tests and benchmarks)."""
        while self.running:
            try:
                item = self.queue.get_nowait()
            except queue.Empty:
                break
            self._handle(item)
        if self.running:
            self._handle(None)

    def _handle(self, item) -> None:
        if item is not None and item[0] == _SHUTDOWN:
            self.shutdown(item[1])
            return
        if self.due is not None and self.clock() >= self.due:
            self.due = None
            self.feed(ui.Timer())
        self._watch_roster()
        page = None if self.dimmed else self.pager.flip(self.clock())
        if page is not None:
            self._show(page)
        if item is None:
            presses = self.debouncer.tick(self.clock())
        else:
            name, pressed, at = item
            self._last_press = at
            if self.dimmed:
                self._dim(False)
                self._waking = True
            presses = self.debouncer.edge(name, pressed, at)
        if self._waking:
            # A press on a dim screen only wakes it: the players could not see what it would do.
            if not self.debouncer.held() and self.debouncer.deadline() is None:
                self._waking = False
            return
        if self.dim_after is not None and not self.dimmed and self.clock() - self._last_press >= self.dim_after:
            self._dim(True)
        for press in presses:
            log.debug("press %s%s", press.button, " (long)" if press.long else "")
            self.feed(press)

    def _store_version(self) -> int | None:
        changed = getattr(self.store, "data_version", None)
        return changed() if changed is not None else None

    def _watch_roster(self) -> None:
        """Every ROSTER_CHECK seconds: did another process (``cantstop-box players``) commit? Then read the roster.

        One ``PRAGMA data_version`` (never waiting on a lock); the roster fact
        is read only when it moved, and the new-game screen shows it at once.
        """
        if self.store is None:
            return
        now = self.clock()
        if self.roster_due is not None and now < self.roster_due:
            return
        self.roster_due = now + ROSTER_CHECK
        version = self._store_version()
        if version is None or version == self._data_version:
            return
        self._data_version = version
        fresh = roster.load(self.store, self.settings.roster)
        if fresh == self.roster:
            return
        self.roster = fresh
        log.info("the players changed: %s", ", ".join(names.escaped(n) for n in fresh.names) or "none")
        self.feed(ui.RosterChanged(fresh.names, fresh.ids))

    def feed(self, inp) -> None:
        """Update the UI with one input, carry out its effects, keep what a restart needs, then draw."""
        with self._lock:
            self._update(inp)
            self._remember()
            self._draw()

    def _update(self, inp) -> None:
        app, effects = ui.update(self.app, inp)
        self.app = app
        for effect in effects:
            self._effect(effect)

    def _effect(self, effect) -> None:
        if isinstance(effect, ui.After):
            self.due = self.clock() + effect.seconds
        elif isinstance(effect, ui.DrawDice):
            self._update(ui.DiceRolled(self.dice()))
        elif isinstance(effect, ui.Append):
            self._save(lambda: self._with_game(lambda gid: self.store.append(gid, effect.event), covered=True))
        elif isinstance(effect, ui.PopLast):
            self._save(lambda: self._with_game(self.store.pop_last, covered=True))
        elif isinstance(effect, ui.StartGame):
            def start():
                self.game_id = None
                self.game_id = self.store.new_game(effect.players, effect.rules, meta=effect.meta).id
            self._save(start)
        elif isinstance(effect, ui.FinishGame):
            self._save(lambda: self._with_game(lambda gid: self.store.finish(gid, effect.winner)))
            self._keep_tally()
        elif isinstance(effect, (ui.LoadStats, ui.LoadUnfinished)):
            self._update(self._read(load_stats if isinstance(effect, ui.LoadStats) else unfinished, effect))
        elif isinstance(effect, ui.ContinueGame):
            self._continue(effect.game_id)

    def _read(self, reader, effect):
        """Statistics or the unfinished games, read from the store (nothing, if it cannot be read)."""
        try:
            return reader(self.store, self.roster)
        except Exception as err:
            log.error("cannot read the games: %s", err)
            return reader(None, self.roster)

    def _keep_tally(self) -> None:
        """Keep the finished game's tally for the statistics, so they never replay it."""
        app = self.app
        if self.store is None or self.game_id is None or app.game is None:
            return
        g = app.game
        t = person_stats.tally(g.players, app.seats, g.rules, app.events, g.winner)
        self._save(lambda: person_stats.keep_tally(self.store, self.game_id, t))

    def _continue(self, game_id: int) -> None:
        """Reopen an unfinished game; the one being played is left unfinished in its place."""
        if self.store is None:
            return
        if self.app.game is not None and self.game_id is None and self.app.events:
            self._save(lambda: self._with_game(lambda gid: None))  # the game played now is saved first
        try:
            stored = self.store.reopen(game_id)
        except Exception as err:
            log.error("cannot continue game %d: %s", game_id, err)
            self._update(ui.SaveFailed(_short(err)))
            return
        self.game_id = stored.id
        seats = seats_from_meta(stored.meta, stored.players)
        self._update(ui.GameContinued(seats, stored.rules, tuple(stored.events)))

    def _with_game(self, action: Callable[[int], object], *, covered: bool = False) -> None:
        """Run ``action(game_id)``; if the game was never saved, save all of it first.

        A game whose start could not be saved (full disk) has no id yet: the
        first write that works creates it and writes every event the app
        holds. That already includes an append or an undo being saved now
        (``covered``); anything else (a finish) still runs after it.
        """
        if self.game_id is None:
            app = self.app
            if app.game is None:
                return
            players = tuple(s.colour for s in app.seats)
            meta = {"seats": [s.to_json() for s in app.seats]}
            self.game_id = self.store.new_game(players, app.game.rules, meta=meta).id
            for event in app.events:
                self.store.append(self.game_id, event)
            if covered:
                return
        action(self.game_id)

    def _save(self, action: Callable[[], object]) -> None:
        """Run a store write; a failure keeps the game in memory and raises the alert."""
        if self.store is None:
            return
        try:
            action()
        except Exception as err:  # StoreWriteError and friends: one line, keep playing
            message = _short(err)
            log.error("store: %s", err)
            self._update(ui.SaveFailed(message))
            return
        if self.app.alert and self._all_saved():
            self._update(ui.Saved())

    def _all_saved(self) -> bool:
        """Nothing waits to be saved: no pending store write, and the game (if any) has its stored id.

        A small write that works (a UI fact) must not clear NOT SAVED while the game itself is unsaved.
        """
        return getattr(self.store, "pending", 0) == 0 and (self.app.game is None or self.game_id is not None)

    def _memory_of(self, app: ui.App) -> dict:
        return ui.memory(app) | {"game": self.game_id}

    def _remember(self) -> None:
        """Store the UI facts a restart needs (:mod:`firmware.ui.memory`) when they changed."""
        if self.store is None:
            return
        kept = self._memory_of(self.app)
        if kept != self._memory:
            self._memory = kept
            self._save(lambda: self.store.put_fact(restart.MEMORY_KEY, kept))

    def _dim(self, on: bool) -> None:
        dim = getattr(self.display, "dim", None)
        self.dimmed = on
        self.pager.stay(self.clock())  # waking: the page it dimmed on gets its whole turn
        self.signals.dim(on)
        if dim is None:
            return
        try:
            dim(on)
        except Exception as err:  # like a failed frame: the game goes on
            log.error("display: %s", err)

    def _draw(self) -> None:
        v = ui.view(self.app)
        if v == self.last_view:
            return
        self.last_view = v
        self._show(self.pager.start(self.renderer(v, getattr(self.display, "size", (128, 64))), self.clock()))
        self.signals.frame(self.app, v)

    def _show(self, image) -> None:
        """Hand one page to the display; a failure is logged once and the view drawn again later."""
        try:
            self.display.show(image)
            self.frames += 1
            if self._display_failed:
                log.warning("display answers again")
                self._display_failed = False
        except Exception as err:  # an unplugged display must not stop the game
            if not self._display_failed:
                log.error("display: %s", err)
            self._display_failed = True
            self.last_view = None  # redraw once it answers again

    # -- stop -------------------------------------------------------------------

    def shutdown(self, reason: str = "Game saved") -> None:
        """Show that the box is off, release the store; the loop ends."""
        if not self.running:
            return
        if self.notifier is not None:
            self.notifier.stopping()
        with self._lock:
            self._update(ui.Shutdown(reason))
            self._draw()
            self.signals.off()
        self.running = False
        if self.store is not None:
            try:
                self.store.close()
            except Exception as err:
                log.error("closing the store: %s", err)


def _short(err: BaseException) -> str:
    text = str(err).splitlines()[0] if str(err) else type(err).__name__
    for prefix in ("cannot save: ",):
        if text.startswith(prefix):
            text = text[len(prefix):]
    return text[:40]
