"""A real web view on 127.0.0.1 (a free port), in a thread: what a phone's browser would talk to."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time

from firmware.config import GameConfig
from web.app import create_app
from web.command import listen
from web.serve import server


class Server:
    def __init__(self, state_dir, *, settings=None, lang="en", poll=0.05, proc_locks="/proc/locks", port=0,
                 camera=False):
        self.app = create_app(state_dir, settings or GameConfig(), lang, poll=poll, proc_locks=proc_locks,
                              camera=camera)
        self.sock = listen("127.0.0.1", port)  # 0: a free port; another: the same one again (a restart)
        self.port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.server = server(self.app, "127.0.0.1", self.port)
        self.server.install_signal_handlers = lambda: None  # not the main thread
        self.thread = threading.Thread(target=lambda: asyncio.run(self.server.serve(sockets=[self.sock])),
                                       daemon=True)

    @property
    def hub(self):
        return self.app.state.hub

    def __enter__(self) -> "Server":
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("the web view did not start")
            time.sleep(0.01)
        self.settled()
        return self

    def settled(self, timeout: float = 30.0) -> None:
        """Wait until the background work (the statistics' sums, the history's checks) has caught up with the store."""
        deadline = time.monotonic() + timeout
        time.sleep(0.02)
        while not self.app.state.background.idle:
            if time.monotonic() > deadline:
                raise RuntimeError("the web view's background work did not settle")
            time.sleep(0.01)

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        with contextlib.suppress(OSError):
            self.sock.close()
