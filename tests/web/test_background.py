"""The background work holds off while the store changes, so a press's update goes first."""

from __future__ import annotations

import asyncio
import time

from web.background import Background
from web.history import Lane


class _Job:
    def __init__(self):
        self.at: list[float] = []

    def step(self) -> bool:
        self.at.append(time.monotonic())
        return False


def test_no_step_while_the_store_keeps_changing():
    job = _Job()
    changed = [0.0]

    async def main():
        work = Background(Lane(), [job], changed_at=lambda: changed[0], hold_off=0.1)
        work.start()
        await asyncio.sleep(0.05)
        assert len(job.at) == 1  # nothing changed lately: a step at once
        began = time.monotonic()
        for _ in range(6):  # a change every 50 ms for 0.3 s, each one kicking the work
            changed[0] = time.monotonic()
            work.kick()
            await asyncio.sleep(0.05)
        last = changed[0]
        while len(job.at) < 2:
            await asyncio.sleep(0.01)
        await work.stop()
        assert job.at[1] >= last + 0.1 and job.at[1] > began + 0.3  # only once the changes had stopped

    asyncio.run(main())


def test_no_step_once_the_server_begins_to_stop():
    job = _Job()
    closing = [False]

    async def main():
        work = Background(Lane(), [job], closing=lambda: closing[0], hold_off=0.0)
        work.start()
        await asyncio.sleep(0.05)
        closing[0] = True  # the server stops: its threads would only slow the streams' ending
        work.kick()
        await asyncio.sleep(0.05)
        await work.stop()

    asyncio.run(main())
    assert len(job.at) == 1
