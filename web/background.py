"""The web view's background work: jobs that keep its sums and checks up to date, one bounded step at a time.

A job (:class:`web.counting.Counter`, :class:`web.sweep.Sweep`) has a
``step()`` that does a few milliseconds of work in a worker thread and says
whether more is left. :class:`Background` runs the jobs' steps in the
history's lane (never the live page's threads), one at a time, with a pause
between two, and holds off while the store has just changed (a press: the
live page's update goes first). It wakes on :meth:`kick` (each change of the
store, a page that found the work behind) and otherwise sleeps.
"""

from __future__ import annotations

import asyncio
import logging
import time

log = logging.getLogger("cantstop.web")

PAUSE = 0.01  # seconds between two steps (the event loop and the pages get their turn)
HOLD_OFF = 0.3  # seconds after a change of the store before a step (the live update first)


async def cancel(task: asyncio.Task | None) -> None:
    """Cancel a task of the web view's own and wait for it to end, whatever it ended with."""
    if task is None:
        return
    task.cancel()
    try:
        await task
    except (asyncio.CancelledError, Exception):
        pass


class Background:
    def __init__(self, lane, jobs, *, changed_at=lambda: 0.0, closing=lambda: False, pause: float = PAUSE,
                 hold_off: float = HOLD_OFF):
        self.lane = lane
        self.closing = closing  # true once the server begins to stop: no step more (its threads compete with it)
        self.jobs = list(jobs)
        self.changed_at = changed_at  # time.monotonic() of the store's last change
        self.pause = pause
        self.hold_off = hold_off
        self._kicked: asyncio.Event | None = None
        self._task: asyncio.Task | None = None
        self.idle = True  # no step under way, none due (tests wait for it)

    def kick(self) -> None:
        """Work may be due (on the event loop)."""
        if self._kicked is not None:
            self.idle = False
            self._kicked.set()

    def start(self) -> None:
        self._kicked = asyncio.Event()
        self._task = asyncio.create_task(self._run())
        self.kick()

    async def stop(self) -> None:
        await cancel(self._task)
        self._task = None

    async def _run(self) -> None:
        while True:
            await self._kicked.wait()
            self._kicked.clear()
            more = True
            while more:
                more = False
                for job in self.jobs:
                    if self.closing():
                        return
                    wait = self.changed_at() + self.hold_off - time.monotonic()
                    while wait > 0:  # presses coming one after another: after the last of them
                        await asyncio.sleep(wait)
                        wait = self.changed_at() + self.hold_off - time.monotonic()
                    if self.closing():
                        return
                    try:
                        more = await self.lane.run(job.step) or more
                    except Exception as err:  # a step that fails is tried again at the next change, never fatal
                        log.error("background %s: %s", type(job).__name__, " ".join(str(err).split())[:200])
                    await asyncio.sleep(self.pause)
            if not self._kicked.is_set():
                self.idle = True
