"""The one watcher of the store: polls it cheaply and tells every open page when it changed.

One task glances at the store's file and WAL (:meth:`Reader.stamp`: two
stat calls) every :data:`GLANCE` seconds and asks :meth:`Reader.token`
(``PRAGMA data_version``) when they moved, and every :data:`POLL` seconds
whatever they do; whether the box runs every second; and the camera's two
pictures (two more stat calls) every :data:`CAMERA_EVERY` seconds: the camera
writes a new photo without the store changing when what it saw did not. On a
change it bumps :attr:`Hub.version` and wakes every event stream at once. The live
fragment is built once per change and language, however many pages are open
(in a worker thread: the event loop never waits on the store).

When the server begins to stop, :meth:`Hub.finish` tells every open stream to
end now (each sends the end of its response and returns): a stop with pages
open is over in a fraction of a second, and each page's EventSource
reconnects by itself once the service is back.
"""

from __future__ import annotations

from hw.errors import one_line as _one_line

import asyncio
import json
import logging
import threading
import time
from dataclasses import dataclass

from . import live as live_data, pictures
from .background import cancel
from .board import live_tree
from .patch import diff

log = logging.getLogger("cantstop.web")

POLL = 0.5  # seconds between two data_version queries (microseconds, but in a worker thread) when nothing moved
GLANCE = 0.01  # seconds between two stat calls of the file and its WAL (on the event loop: a few microseconds)
SETTLE = 2  # glances the files must stay still after moving before data_version is asked (one press, one update)
RECHECK = 2.0  # seconds after the files last moved in which data_version is asked again, less and less often: a
# commit's pages are in the WAL (its stat moved) before its fsync ends and it shows, and a slow card's fsync takes
# a few hundred ms; asked only a few glances on, such a commit was missed until the next poll
RECHECK_EVERY = 0.25  # seconds at most between two of those asks
BOX_EVERY = 1.0  # seconds between two looks at whether the box runs
CAMERA_EVERY = 0.5  # seconds between two looks at the camera's pictures (web.pictures.stamp)


class Hub:
    def __init__(self, reader, settings, config_lang: str, *, poll: float = POLL, camera: bool = False):
        self.reader = reader
        self.settings = settings
        self.config_lang = config_lang
        self.poll = poll
        self.camera = camera  # the config names a camera: the live page has its part from the start
        self.version = first_version()
        self._token = None
        self._box = None
        self._pictures: tuple = ()
        self._changed: asyncio.Event | None = None
        self._cache: dict[str, tuple[int, str]] = {}  # page lang -> (version, fragment)
        self._built: dict[str, Built] = {}  # page lang -> the fragment's tree and what changed from the one before
        self._events: dict[tuple, bytes] = {}  # (page lang, version, whole or patch) -> its server-sent event
        self._wanted: dict[str, float] = {}  # page lang -> when a page last asked for it (time.monotonic())
        self._lang: tuple[int, str] | None = None  # (version, the box's language)
        self._build = threading.Lock()
        self._task: asyncio.Task | None = None
        self.changed_at = 0.0  # time.monotonic() of the last change
        self.listeners: list = []  # called (on the event loop) at each change: the background work's kick
        self.streams = 0  # event streams open now
        self.closing = False  # the server is stopping: every stream ends, none waits

    # -- the watcher -----------------------------------------------------------

    async def start(self) -> None:
        self._changed = asyncio.Event()
        self._token = await _in_thread(self.reader.token)
        self._box = await _in_thread(self.reader.box_running)
        self._pictures = pictures.stamp(self.reader.state_dir)
        self._task = asyncio.create_task(self._watch())

    async def stop(self) -> None:
        await cancel(self._task)
        self._task = None
        await _in_thread(self.reader.close)

    async def _watch(self) -> None:
        """Glance at the files every :data:`GLANCE` s; ask data_version once they moved and settled (and again,
        less and less often, for :data:`RECHECK` s after), and every :attr:`poll` s whatever they do; whether the
        box runs every :data:`BOX_EVERY` s; the camera's pictures every :data:`CAMERA_EVERY` s."""
        box_due = time.monotonic() + BOX_EVERY
        camera_due = time.monotonic() + CAMERA_EVERY
        token_due = time.monotonic() + self.poll
        stamp = self.reader.stamp()
        still, moved_at, ask_at, gap = SETTLE, 0.0, None, GLANCE
        while True:
            await asyncio.sleep(min(GLANCE, self.poll))
            try:
                now_stamp = self.reader.stamp()
                now = time.monotonic()
                if now_stamp != stamp:  # moving: one press may be a few commits; ask once they have settled
                    stamp, still, moved_at = now_stamp, 0, now
                elif still < SETTLE:
                    still += 1
                    if still == SETTLE:
                        ask_at, gap = now, GLANCE
                token, box, seen = self._token, self._box, self._pictures
                rechecking = ask_at is not None and still >= SETTLE and now >= ask_at
                if rechecking or now >= token_due:
                    token = await _in_thread(self.reader.token)
                    token_due = time.monotonic() + self.poll
                    if rechecking:
                        gap = min(gap * 2, RECHECK_EVERY)
                        ask_at = now + gap if now + gap <= moved_at + RECHECK else None
                if now >= box_due:
                    box = await _in_thread(self.reader.box_running)
                    box_due = time.monotonic() + BOX_EVERY
                if now >= camera_due:
                    seen = pictures.stamp(self.reader.state_dir)
                    camera_due = now + CAMERA_EVERY
            except Exception as err:  # never let the watcher die: log and look again
                log.error("watching the store: %s", err)
                await asyncio.sleep(self.poll)
                continue
            if token != self._token or box != self._box or seen != self._pictures:
                self._token, self._box, self._pictures = token, box, seen
                self.version += 1  # the pages' fragments built first, in one thread, then every stream woken
                self.changed_at = time.monotonic()
                try:
                    await _in_thread(self.prebuild)
                except Exception as err:
                    log.error("building the live game: %s", err)
                self._woken()

    def changed(self) -> None:
        """The store changed: a new version, every stream woken."""
        self.version += 1
        self.changed_at = time.monotonic()
        self._woken()

    def _woken(self) -> None:
        self._wake()
        for listener in self.listeners:
            listener()

    def finish(self) -> None:
        """The server is stopping: every open stream is woken to end, and a stream begun from now on ends at once."""
        if not self.closing:
            self.closing = True
            if self.streams:
                log.info("stopping: %d open page(s) will reconnect when the web view is back", self.streams)
            else:
                log.info("stopping")
        self._wake()

    def _wake(self) -> None:
        if self._changed is not None:
            old, self._changed = self._changed, asyncio.Event()
            old.set()

    async def wait(self, version: int, timeout: float) -> int:
        """Wait until the version is past ``version`` (or ``timeout`` seconds, or the server stops); the version now."""
        if self.version == version and self._changed is not None and not self.closing:
            try:
                await asyncio.wait_for(self._changed.wait(), timeout)
            except asyncio.TimeoutError:
                pass
        return self.version

    # -- what the pages show -----------------------------------------------------

    def box_language(self) -> str:
        """The language the box speaks now (the table's choice, else the config's), read once per change."""
        hit = self._lang
        if hit is not None and hit[0] == self.version:
            return hit[1]
        version = self.version
        try:
            lang = live_data.box_language(self.reader, self.config_lang)
        except Exception as err:
            log.error("cannot read the box's language: %s", err)
            lang = self.config_lang
        self._lang = (version, lang)
        return lang

    def cached(self, lang: str) -> tuple[int, str] | None:
        """The live fragment in ``lang`` if it is built for the current version (no store read), else None."""
        hit = self._cache.get(lang)
        return hit if hit is not None and hit[0] == self.version else None

    def event(self, lang: str, seen: int) -> tuple[int, bytes]:
        """(version, the server-sent event) that brings a page in ``lang`` at version ``seen`` to the fragment built
        now: only what changed (a patch, :mod:`web.patch`) when the page is at the version it starts from, else the
        whole fragment. Encoded once per change and language, so every open page is sent the same bytes (50 pages
        cost one copy, not 50). On the event loop only, once :meth:`fragment` has built ``lang``."""
        built = self._built[lang]
        patch = built.patch if built.base == seen else None
        key = (lang, built.version, patch is not None)
        chunk = self._events.get(key)
        if chunk is None:
            if patch is not None:
                data = json.dumps({"v": built.version, "base": built.base, "patch": patch}, ensure_ascii=False)
            else:
                data = json.dumps({"v": built.version, "html": built.html}, ensure_ascii=False)
            chunk = f"id: {built.version}\nevent: live\ndata: {data}\n\n".encode()
            for old in [k for k in self._events if k[0] == lang and k[1] != built.version]:
                del self._events[old]
            self._events[key] = chunk
        return built.version, chunk

    def fragment(self, lang: str) -> tuple[int, str]:
        """(version, the live fragment in ``lang``), built at most once per change and language (thread-safe)."""
        version = self.version
        self._wanted[lang] = time.monotonic()
        hit = self._cache.get(lang)
        if hit is not None and hit[0] == version:
            return hit
        with self._build:
            version = self.version  # read again under the lock: a version is built once, and never an older one
            hit = self._cache.get(lang)
            if hit is not None and hit[0] == version:
                return hit
            try:
                tree = live_tree(live_data.snapshot(self.reader, self.settings, self.config_lang, lang,
                                                     camera=self.camera))
            except Exception as err:  # a store that cannot be shown: say so, and keep serving
                log.error("cannot show the live game: %s", err)
                from .board import e
                from .patch import El

                tree = El("div", (("id", "game"), ("data-status", "error")),
                          (f'<p class="problem">{e(one_line(err))}</p>',))
            html = tree.html()
            before = self._built.get(lang)
            patch = diff(before.tree, tree) if before is not None else None
            if patch is not None and len(json.dumps(patch, ensure_ascii=False)) >= len(html):
                patch = None  # the whole part is no bigger
            self._built[lang] = Built(version, html, tree, before.version if patch is not None else None, patch)
            entry = (version, html)
            self._cache[lang] = entry
            return entry

    def prebuild(self) -> None:
        """Build the fragment for every language a page asked for lately (in a worker thread): the open streams
        then take it without a thread of their own."""
        now = time.monotonic()
        for lang, at in list(self._wanted.items()):
            if now - at < WANTED_FOR:
                self.fragment(lang)
            else:
                self._wanted.pop(lang, None)


#: A language no page asked for in this long is no longer built ahead at each change.
WANTED_FOR = 120.0


@dataclass(frozen=True)
class Built:
    """One language's fragment at ``version``: its HTML, its tree, and the patch from version ``base`` (None: no
    patch, the page is sent the whole)."""

    version: int
    html: str
    tree: object
    base: int | None
    patch: list | None


async def _in_thread(fn, *args):
    """``fn(*args)`` in one of the worker threads the pages use (anyio's): not a pool of its own beside them
    (each thread costs the web process memory)."""
    import anyio.to_thread

    return await anyio.to_thread.run_sync(fn, *args)


def first_version(clock=time.time) -> int:
    """A version no earlier run of the web view used: the start time in milliseconds, times 1000.

    A page keeps the version it was built at, and a stream sends a page the game only when its version is not the
    current one: versions restarting at 1 made a page built before a restart look current after it. Each change
    adds 1 and comes at most once per poll (20 ms or more), so a run's versions stay below the next run's first;
    a JavaScript number holds it exactly (under 2**53 until the year 2255).
    """
    return int(clock() * 1000) * 1000


def one_line(err: BaseException) -> str:
    """An error as the web view logs and shows it: one line of at most 200 characters."""
    return _one_line(err, 200)
