"""Serving the web view: uvicorn with the limits a home network needs.

Pure-Python uvicorn (h11, no uvloop or httptools) and Starlette: nothing to
compile on a Pi, the same wheels on armv7 and aarch64, and server-sent
events without writing an HTTP server. The limits: idle keep-alive
connections close after :data:`KEEP_ALIVE` seconds, a request whose headers
do not arrive whole in :data:`HEADER_TIMEOUT` seconds is dropped (a slow
client cannot hold a place), headers over 16 KiB are refused, at most
:data:`MAX_CONNECTIONS` connections are served at once (the next get 503),
and at most :data:`PER_CLIENT` from one client address.

Stopping (SIGTERM from ``systemctl stop``, or Ctrl-C): :func:`server` tells
the hub the moment uvicorn begins to shut down, before it waits for the open
connections, so every event stream ends its response at once instead of
being cancelled (with a traceback each) after the grace period; a SIGTERM
then ends the process with status 0.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
import threading

from .app import MAX_STREAMS, create_app
from .guard import RAW_HEADERS, raw_refusal

log = logging.getLogger("cantstop.web")

KEEP_ALIVE = 5  # seconds an idle keep-alive connection stays open
HEADER_TIMEOUT = 10.0  # seconds a client has to send a whole request head
MAX_CONNECTIONS = MAX_STREAMS + 50
#: Connections one client address may hold at once (a browser opens at most 6 to one site): one client holding
#: hundreds of streams or slow requests cannot use up the places everyone else's pages need. The next is
#: answered 503 and closed.
PER_CLIENT = 32
#: The refusals the server writes itself, before any route, carry the security headers as every response does.
_BUSY = raw_refusal(503, "Service Unavailable", b"too many connections from this address\n",
                    [(b"retry-after", b"5")])
_FULL_TEXT = b"too many connections: try again in a moment\n"


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

    held: dict[str, int] = {}  # client address -> its connections open now (on the event loop only)

    class Protocol(H11Protocol):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            # uvicorn's own 503 past limit_concurrency carries none of the security headers: the same limit,
            # checked here at the same moment (the request's task is counted already, hence ">"), answered with them
            self._limit, self.limit_concurrency = self.limit_concurrency, None
            self._app, self.app = self.app, self._app_unless_full

        async def _app_unless_full(self, scope, receive, send):
            limit = self._limit
            if limit is not None and (len(self.connections) >= limit or len(self.tasks) > limit):
                log.warning("too many connections: a request answered 503")
                await send({"type": "http.response.start", "status": 503, "headers": [
                    (b"content-type", b"text/plain; charset=utf-8"), (b"content-length", b"%d" % len(_FULL_TEXT)),
                    (b"connection", b"close"), (b"retry-after", b"5"), *RAW_HEADERS]})
                await send({"type": "http.response.body", "body": _FULL_TEXT})
                return
            await self._app(scope, receive, send)

        def send_400_response(self, msg: str) -> None:
            # uvicorn's own 400 (a request h11 cannot read) without the security headers: this one with them
            self.transport.write(raw_refusal(400, "Bad Request", msg.encode("ascii", "replace")))
            self.transport.close()

        def connection_made(self, transport):
            super().connection_made(transport)
            self._head_timer = None
            peer = transport.get_extra_info("peername")
            self._peer = peer[0] if isinstance(peer, tuple) and peer else "?"
            if held.get(self._peer, 0) >= PER_CLIENT:
                self._peer = None  # not counted: refused
                transport.write(_BUSY)
                transport.close()
                return
            held[self._peer] = held.get(self._peer, 0) + 1
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
            if self._peer is not None:
                left = held.get(self._peer, 1) - 1
                if left > 0:
                    held[self._peer] = left
                else:
                    held.pop(self._peer, None)
                self._peer = None
            super().connection_lost(exc)

    return Protocol


def server(app, host: str, port: int):
    """A uvicorn server for the web ``app`` whose shutdown begins by ending every open event stream."""
    import uvicorn

    class Server(uvicorn.Server):
        async def shutdown(self, sockets=None) -> None:
            # uvicorn sends the lifespan's shutdown only after every connection is done: too late for the
            # streams, which would hold their connections until the grace period is out and then be cancelled.
            app.state.hub.finish()
            await super().shutdown(sockets=sockets)

    return Server(config(app, host, port))


def serve(state_dir, settings, config_lang: str, sock, names=(), camera: bool = False) -> None:
    """Serve on the listening socket ``sock`` until SIGTERM or Ctrl-C; ``names``: host names it answers to
    besides the box's own; ``camera``: the config names a camera over the board."""
    from firmware.table import phones

    host, port = sock.getsockname()[:2]
    app = create_app(state_dir, settings, config_lang, names=names, camera=camera)
    web_server = server(app, host, port)
    settled()
    _say_port(phones.serving, state_dir, port)  # for the pairing page's address on the box and from `pair`
    try:
        with _sigterm_is_a_clean_stop():
            asyncio.run(web_server.serve(sockets=[sock]))
    finally:
        _say_port(phones.stopped_serving, state_dir, port)


def _say_port(step, state_dir, port: int) -> None:
    try:
        step(state_dir, port)
    except OSError as err:  # no state directory yet, or a read-only one: the config's port is said instead
        logging.getLogger("cantstop.web").warning("cannot note the port in %s: %s", state_dir, err.strerror or err)


def settled() -> None:
    """What the start made (every module, class and function: most of the process's objects) is kept out of the
    garbage collector's full passes (:func:`gc.freeze`).

    A full pass walks every object that is not frozen; with the start's objects among them one took 25-34 ms
    here (benchmarks/web.py at 10,000 games), and a page whose request met one took that much longer.
    """
    gc.collect()
    gc.freeze()


@contextlib.contextmanager
def _sigterm_is_a_clean_stop():
    """SIGTERM asks for a stop that ends with status 0.

    uvicorn catches SIGTERM while it serves, shuts down gracefully, then raises the signal again for the handler
    it found: with the default one the process would die by it (status -15) after a clean stop. The handler
    found is this one, which has nothing left to do.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _stopped)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _stopped(signum, frame) -> None:
    """SIGTERM after uvicorn's graceful stop: it has stopped; returning ends the command with 0."""
