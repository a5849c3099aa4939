"""The imperative shell: one loop that owns the game, the store and the screen.

Button callbacks (gpiozero's threads) only put raw edges on one queue. The
loop takes them off, turns them into presses (:mod:`firmware.daemon.debounce`), runs the
pure :func:`firmware.ui.update`, and carries out its effects in order: an event
is committed to the store *before* the frame that shows its result is drawn.
A frame is rendered and sent only when the view changed; a frame of several
pages (a small screen) shows them in turns (:mod:`firmware.daemon.pager`).

The loop sleeps on the queue. It wakes early only when the debouncer or a long press needs it, when the
UI's one timer is due (:class:`ui.After`: a box seat's pace, the guard after a handover), for the next page
of a frame, to feed systemd's watchdog, every :data:`ROSTER_CHECK` s to see whether ``cantstop-box players``
changed the roster (one ``PRAGMA data_version``: no table read, no lock waited on), and every few seconds to
read the network status another service writes (:mod:`firmware.daemon.network`). A paired phone's request
comes on the same queue from the box's socket (:mod:`firmware.daemon.phones`) and is fed to the UI like a press
(:class:`ui.PhoneAsked`); the UI's reply is an effect the loop carries out, as it carries out a press's.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable

from firmware import ui, words
from firmware.config import GameConfig
from firmware.screens import layout_for, render_pages
from firmware.table import names, roster

from .debounce import Debouncer
from .dice import os_dice
from .effects import _PHONE, RETRY_MAX, RETRY_SECONDS, Effects
from .keeper import Keeper
from . import network, phones
from .opening import Opening
from .pairing import Pairing
from .pager import Pager
from .signals import Signals

log = logging.getLogger("cantstop.daemon")

_SHUTDOWN = "shutdown"
#: Seconds between two looks at whether another process changed the roster.
ROSTER_CHECK = 1.0
_WORKER = "worker"  # a queue item from the statistics worker: (_WORKER, a UI input or a KeepTallies)
_CAMERA = "camera"  # a queue item from the camera's process: (_CAMERA, a UI input)

#: How long one of the loop's statements waits for another process's lock on the game file (ms).
LOOP_BUSY_MS = 50
#: The loop pings systemd's watchdog this many times per interval (systemd asks for at least two).
PINGS_PER_INTERVAL = 3
#: ... and before the work of a wake-up (a press: its writes), once this long (s) has passed since the last ping.
PING_BEFORE_WORK = 0.1

class Box(Effects):
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
        worker=None,
        web_port: int = 8080,
        store_error: str | None = None,
        camera=None,
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
        # the screen's own pages of instructions: the UI is handed its layout's pure paginator
        self.paginate = layout_for(display.size).paginate
        self.app: ui.App = ui.boot(settings, language=language, paginate=self.paginate)
        self.keeper = Keeper(store)  # the store's side of the effects: the game's writes, the facts kept
        self.last_view = None
        self.frames = 0  # frames handed to the display
        self.running = False
        self.store_error = store_error  # why the store could not be opened (None: it was, or none was asked for)
        self._display_failed = False
        self._lock = threading.Lock()
        self.dim_after = dim_after or None  # seconds without a press before the screen dims
        self.dimmed = False
        self._last_press = clock()
        self._waking = False  # the press that woke a dim screen is swallowed
        self.roster = roster.from_fact(None, settings.roster)  # the names a seat can take (read from the store at start)
        self.due: float | None = None  # when the UI's timer (ui.After) is due, by self.clock
        self.roster_due: float | None = None  # when to look whether another process changed the roster
        self._data_version: int | None = None  # the store's data_version when the roster was last read
        self.retry_at: float | None = None  # when writes kept pending are tried again, by self.clock
        self._retry_after = RETRY_SECONDS
        self._ping_period: float | None = None  # seconds between watchdog pings (None: no watchdog, or not running)
        self._pinged = 0.0  # when the watchdog was last pinged, by self.clock
        self.door = None  # the socket a paired phone's changes come through (phones.PhoneDoor; None: none)
        self._asked: dict[int, phones.Asked] = {}  # the phones' requests being answered, by ticket
        self._answers: list[tuple[phones.Asked, dict]] = []  # answered this step, sent once its writes are kept
        self.pairing = Pairing(store.path.parent if store is not None else None, web_port)  # the Phone screen's codes
        self.worker = worker  # a StatsWorker counts the statistics beside the loop (None: on the loop)
        self.network = network.NetworkWatch(due=clock())  # the network status file, read every few seconds
        self.camera = camera  # the camera's process (firmware.daemon.camera.CameraLink; None: no camera)
        if worker is not None:
            worker.attach(lambda item: self.queue.put((_WORKER, item)))
        if camera is not None:
            camera.attach(lambda item: self.queue.put((_CAMERA, item)))

    @property
    def game_id(self) -> int | None:
        """The stored game being played (None before the first, or without a store)."""
        return self.keeper.game_id

    # -- thread-safe entry points ---------------------------------------------

    def sink(self, name: str, pressed: bool) -> None:
        """Button callback target (any thread): queue the raw edge with its time."""
        self.queue.put((name, pressed, self.clock()))

    def open_door(self, state_dir) -> None:
        """Take a paired phone's changes from the web view, through the box's own socket in ``state_dir``."""
        self.door = phones.open_door(state_dir, lambda asked: self.queue.put((_PHONE, asked)))

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
        self._start_camera()
        self.roster_due = self.clock() + ROSTER_CHECK if self.store is not None else None
        wait = ui.timer_for(app)  # a box seat was playing when the power went: it goes on
        if wait is not None:
            self.due = self.clock() + wait
        self._draw()
        if self.notifier is not None:
            self.notifier.ready("showing the first screen")

    def _load(self) -> tuple[ui.App, list[tuple[str, str]]]:
        """The app the table left and the notices to show first (:mod:`firmware.daemon.opening`)."""
        self.roster = roster.load(self.store, self.settings.roster)
        self._data_version = self._store_version()
        app, notices = Opening(self.settings, self.store, self.keeper, self.roster, self.language, self.paginate,
                               self.store_error).read()
        self.app = app
        self._update(ui.PhoneSettingsKept(self._fact(ui.phone.SETTINGS_KEY)))  # the dimming and lamps a phone set
        return self.app, notices

    # -- the loop ---------------------------------------------------------------

    def run(self) -> None:
        """Serve button presses until shutdown; wakes only when there is work (:meth:`_next_deadline`)."""
        if not self.running:
            self.start()
        interval = self.notifier.watchdog_interval() if self.notifier is not None else None
        self._ping_period = interval / PINGS_PER_INTERVAL if interval else None
        self._pinged = self.clock()
        while self.running:
            item = self._wait()
            self._ping(PING_BEFORE_WORK)  # a press may mean writes (a slow card's fsync): they get the whole interval
            self._handle(item)
            self._ping()

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
        """One wake-up: the loop's jobs in turn, each doing nothing until it is due."""
        if item is not None and item[0] == _SHUTDOWN:
            self.shutdown(item[1])
            return
        if item is not None and item[0] == _WORKER:
            self._from_worker(item[1])
            item = None
        if item is not None and item[0] == _CAMERA:
            self.feed(item[1])
            item = None
        if item is not None and item[0] == _PHONE:
            self._serve_phone(item[1])
            item = None
        self._fire_timer()
        self._retry_writes()
        self._watch_roster()
        if (seen := self.network.poll(self.clock(), ui.network_unsaid(self.app))) is not None:
            self.feed(seen)
        self._flip_page()
        presses = self._debounce(item)
        if self._still_waking():
            return  # a press on a dim screen only wakes it: the players could not see what it would do
        self._dim_when_idle()
        for press in presses:
            log.debug("press %s%s", press.button, " (long)" if press.long else "")
            self.feed(press)

    # -- when the loop wakes ----------------------------------------------------

    def _deadlines(self):
        """When each job next needs the loop, by self.clock (None: not waiting on time)."""
        yield self.debouncer.deadline()  # a bounce window ends, a long press fires
        yield self.due  # the UI's one timer (ui.After)
        yield self._pinged + self._ping_period if self._ping_period else None  # systemd's watchdog
        yield self._last_press + self.dim_after if self.dim_after is not None and not self.dimmed else None
        yield None if self.dimmed else self.pager.due  # the next page (a dim screen waits on its page)
        yield self.retry_at  # writes kept pending
        yield self.roster_due  # a look at whether another process changed the roster
        yield self.network.due  # a look at the network status (firmware.daemon.network)

    def _next_deadline(self) -> float | None:
        """The one place that knows when the loop must wake next: the earliest of :meth:`_deadlines`."""
        times = [t for t in self._deadlines() if t is not None]
        return min(times) if times else None

    def _wait(self):
        """The next item on the queue, or None when the next deadline comes first."""
        due = self._next_deadline()
        try:
            return self.queue.get(timeout=None if due is None else max(0.0, due - self.clock()))
        except queue.Empty:
            return None

    # -- the loop's jobs ----------------------------------------------------------

    def _ping(self, after: float | None = None) -> None:
        """Feed systemd's watchdog once ``after`` seconds (unsaid: a whole period) have passed since the last ping."""
        if self._ping_period is None:
            return
        if self.clock() >= self._pinged + (self._ping_period if after is None else after):
            self.notifier.watchdog()
            self._pinged = self.clock()

    def _fire_timer(self) -> None:
        """The UI's timer, once due: a box seat's next step, the end of the guard after a handover."""
        if self.due is not None and self.clock() >= self.due:
            self.due = None
            self.feed(ui.Timer())

    def _retry_writes(self) -> None:
        """Writes kept pending after a failed one, tried again once due (each failure waits twice as long)."""
        if self.retry_at is not None and self.clock() >= self.retry_at:
            self.retry_at = None
            self._retry_after = min(self._retry_after * 2, RETRY_MAX)  # reset once everything is saved
            with self._lock:
                self._take(self.keeper.retry())
                self._draw()

    def _flip_page(self) -> None:
        """The next page of a frame of several, once its turn is over (a dim screen stays on its page)."""
        page = None if self.dimmed else self.pager.flip(self.clock())
        if page is not None:
            self._show(page)

    def _debounce(self, item) -> list:
        """The presses an edge (or the time passing, for None) completes; an edge on a dim screen wakes it."""
        if item is None:
            return self.debouncer.tick(self.clock())
        name, pressed, at = item
        self._last_press = at
        if self.dimmed:
            self._dim(False)
            self._waking = True
        return self.debouncer.edge(name, pressed, at)

    def _still_waking(self) -> bool:
        """Whether the press that woke the screen is still going on (held, or its bounce not yet over)."""
        if not self._waking:
            return False
        if not self.debouncer.held() and self.debouncer.deadline() is None:
            self._waking = False  # it is over (this wake-up still does nothing): the next press counts
        return True

    def _dim_when_idle(self) -> None:
        """Dim the screen once nobody has pressed for ``dim_after`` seconds (an OLED left bright wears out)."""
        if self.dim_after is not None and not self.dimmed and self.clock() - self._last_press >= self.dim_after:
            self._dim(True)

    def _store_version(self) -> int | None:
        return self.store.data_version() if self.store is not None else None

    def _watch_roster(self) -> None:
        """Every ROSTER_CHECK seconds: did another process (``cantstop-box players``) commit? Then read the roster
        (one ``PRAGMA data_version``, never waiting on a lock; the new-game screen shows a new roster at once).
        The Phone screen's code is looked at as often (a phone may have used it)."""
        if self.store is None:
            return
        now = self.clock()
        if self.roster_due is not None and now < self.roster_due:
            return
        self.roster_due = now + ROSTER_CHECK
        if (lasts := self.pairing.poll(self.app)) is not None:
            self.feed(lasts)
        version = self._store_version()
        if version is None or version == self._data_version:
            return
        self._data_version = version
        fresh = roster.load(self.store, self.settings.roster)
        if fresh == self.roster:
            return
        self.roster = fresh
        log.info("the players changed: %s", ", ".join(names.escaped(n) for n in fresh.names) or "none")
        self.feed(ui.roster_changed(fresh))

    def feed(self, inp) -> None:
        """Update the UI with one input, carry out its effects, keep what a restart needs, then draw."""
        with self._lock:
            self._update(inp)
            self._take(self.keeper.remember(self.app))
            self._answer_phones()
            self._draw()

    def _update(self, inp) -> None:
        app, effects = ui.update(self.app, inp)
        self.app = app
        for effect in effects:
            self._effect(effect)

    def _dim(self, on: bool) -> None:
        self.dimmed = on
        self.pager.stay(self.clock())  # waking: the page it dimmed on gets its whole turn
        self.signals.dim(on)
        try:
            self.display.dim(on)
        except Exception as err:  # like a failed frame: the game goes on
            log.error("display: %s", err)

    def _draw(self) -> None:
        v = ui.view(self.app)
        if v == self.last_view:
            return
        self.last_view = v
        self._show(self.pager.start(self.renderer(v, self.display.size), self.clock()))
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
        self._serve_left()
        with self._lock:
            self._update(ui.Shutdown(reason))
            self._draw()
            self.signals.off()
        self.running = False
        if self.door is not None:
            self.door.close()
        if self.worker is not None:
            self.worker.close()
        if self.camera is not None:
            self.camera.close()
        if self.store is not None:
            try:
                self.store.close()
            except Exception as err:
                log.error("closing the store: %s", err)
