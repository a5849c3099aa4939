"""Work that grows with the store, done beside the loop: the statistics (and the tallies they keep).

Opening Statistics over a store whose games were finished before tallies
existed replays each of them once (:func:`firmware.table.person_stats.tallies_by_id`):
over 10,000 games that is many seconds, far past systemd's watchdog. So the
:class:`StatsWorker` does it in a thread of its own, with its own read-only
connection to the game file, and hands everything back through the loop's
queue (``post``):

- :class:`KeepTallies`, a batch of tallies, which the loop writes (the loop's
  store is the one writer: a kill loses no batch already written, and the
  next opening goes on from there);
- :class:`~firmware.ui.StatsProgress` once the count has taken longer than a
  moment (the screen says "Counting games... 1,200 of 10,000");
- :class:`~firmware.ui.StatsLoaded` at the end.

The worker reads what is on disk: writes still pending in the loop's store
(a full card) count once they are saved.
"""

from __future__ import annotations

import logging
import pathlib
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass

from firmware import ui
from firmware.daemon.loaders import load_stats, stats_of

log = logging.getLogger("cantstop.daemon")

#: Progress shows only once counting has taken this long (seconds): a quick count just shows its result.
MOMENT = 0.5


@dataclass(frozen=True)
class KeepTallies:
    """A batch of tallies (store facts) for the loop to write."""

    facts: dict


class StatsWorker:
    """One daemon thread that loads the statistics; ``post`` (the loop's queue) gets what it finds."""

    def __init__(self, *, moment: float = MOMENT) -> None:
        self.moment = moment
        self._post: Callable[[object], None] | None = None
        self._jobs: queue.Queue = queue.Queue()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._reader = None  # the worker's own read-only Store, opened at the first job
        self._reader_dir: pathlib.Path | None = None

    def attach(self, post: Callable[[object], None]) -> None:
        """Where results go (the loop calls this with its queue's put)."""
        self._post = post

    def load(self, state_dir: pathlib.Path, roster) -> None:
        """Count the statistics of the store in ``state_dir``; the results come back through ``post``."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="stats", daemon=True)
            self._thread.start()
        self._jobs.put((pathlib.Path(state_dir), roster))

    def close(self, timeout: float = 2.0) -> None:
        """Stop counting (what was kept stays kept) and close the worker's connection."""
        self._stop.set()
        self._jobs.put(None)
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)
        if self._thread is None or not self._thread.is_alive():
            self._close_reader()

    # -- the thread ---------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            job = self._jobs.get()
            if job is None:
                break
            self._load(*job)
        self._close_reader()

    def _load(self, state_dir: pathlib.Path, roster) -> None:
        def progress(done: int, total: int, seconds: float) -> None:
            if seconds >= self.moment:
                self._send(ui.StatsProgress(done, total))

        try:
            reader = self._open(state_dir)
            loaded = load_stats(reader, roster, keep=lambda facts: self._send(KeepTallies(dict(facts))),
                                progress=progress, stopped=self._stop.is_set)
        except Exception as err:
            log.error("cannot read the games for the statistics: %s", err)
            self._close_reader()
            loaded = stats_of(None, roster)
        if loaded is not None:
            self._send(loaded)

    def _open(self, state_dir: pathlib.Path):
        from firmware.store import Store, StoreMissingError

        if self._reader is None or self._reader_dir != state_dir:
            self._close_reader()
            try:
                self._reader = Store.open(state_dir, readonly=True)
            except StoreMissingError:
                return None  # nothing saved yet: no statistics
            self._reader_dir = state_dir
        return self._reader

    def _close_reader(self) -> None:
        reader, self._reader = self._reader, None
        if reader is not None:
            try:
                reader.close()
            except Exception:  # pragma: no cover - closing a read-only connection
                pass

    def _send(self, item) -> None:
        if self._post is not None and not self._stop.is_set():
            self._post(item)
