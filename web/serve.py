"""Serving the web view: uvicorn with the limits a home network needs.

Pure-Python uvicorn (h11, no uvloop or httptools) and Starlette: nothing to
compile on a Pi, the same wheels on armv7 and aarch64, and server-sent
events without writing an HTTP server. The limits: idle keep-alive
connections close after :data:`KEEP_ALIVE` seconds, a request whose headers
do not arrive whole in :data:`HEADER_TIMEOUT` seconds is dropped (a slow
client cannot hold a place), headers over 16 KiB are refused, and at most
:data:`MAX_CONNECTIONS` connections are served at once (the next get 503).
"""

from __future__ import annotations

import asyncio
import logging

from .app import MAX_STREAMS, create_app

log = logging.getLogger("cantstop.web")

KEEP_ALIVE = 5  # seconds an idle keep-alive connection stays open
HEADER_TIMEOUT = 10.0  # seconds a client has to send a whole request head
MAX_CONNECTIONS = MAX_STREAMS + 50


def config(app, host: str, port: int):
    import uvicorn

    return uvicorn.Config(app, host=host, port=port, http=_slow_headers_protocol(), loop="asyncio", ws="none",
                          lifespan="on", access_log=False, log_level="warning", server_header=False,
                          date_header=False, proxy_headers=False, timeout_keep_alive=KEEP_ALIVE,
                          limit_concurrency=MAX_CONNECTIONS, backlog=128,
                          h11_max_incomplete_event_size=16 * 1024, timeout_graceful_shutdown=2)


def _slow_headers_protocol():
    """uvicorn's h11 protocol, closing a connection whose request head is not complete in time."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class Protocol(H11Protocol):
        def connection_made(self, transport):
            super().connection_made(transport)
            self._head_timer = self.loop.call_later(HEADER_TIMEOUT, self._head_late)

        def handle_events(self):
            super().handle_events()
            if self.cycle is not None and self._head_timer is not None:
                self._head_timer.cancel()  # a whole request head arrived
                self._head_timer = None

        def _head_late(self):
            self._head_timer = None
            if self.cycle is None and self.transport is not None and not self.transport.is_closing():
                self.transport.close()

        def connection_lost(self, exc):
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None
            super().connection_lost(exc)

    return Protocol


def serve(state_dir, settings, config_lang: str, sock) -> None:
    """Serve on the listening socket ``sock`` until SIGTERM or Ctrl-C."""
    import uvicorn

    app = create_app(state_dir, settings, config_lang)
    host, port = sock.getsockname()[:2]
    server = uvicorn.Server(config(app, host, port))
    asyncio.run(server.serve(sockets=[sock]))
