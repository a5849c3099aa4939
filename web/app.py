"""The routes: the live game, its event stream, the history, one game, its record, the statistics.

Read-only by construction: every route answers GET (and HEAD) only (but a
paired phone's forms, :mod:`web.phone`, which never write the game), other
methods get 405 and unknown paths 404 (a page, never a traceback). Store
reads run in worker threads; the event stream is a small ASGI app of its own
that also listens for the client leaving, so a closed tab frees its place at
once, and at most :data:`MAX_STREAMS` are open (the next gets 503 and the
page falls back to polling). When the server stops, every stream ends its
response at once (:meth:`Hub.finish`) and the page reconnects by itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from firmware.table.seat import seats_from_meta
from firmware.table import person_stats as people, roster
from firmware.table.records import MAX_GAME_NUMBER, format_record, record_json
from firmware.store import StoreError

from . import history as deep, pages, pictures
from .numbers import ascii_int
from .squares import seats_css
from .background import Background
from .compress import Compressed
from .counting import Counter, page_sums
from .phone import door, routes as phone
from .sweep import Sweep
from .guard import Guard, cookie_lang, own_names
from .hub import Hub, one_line
from .reader import Reader
from .text import choose

log = logging.getLogger("cantstop.web")

MAX_STREAMS = 250  # event streams open at once (each costs a few kilobytes)
STREAMS_PER_CLIENT = 16  # of them from one client address (a browser opens at most 6 connections to one site)
WORKERS = 4  # threads reading the store for the pages
HEARTBEAT = 15.0  # seconds between two comments on an idle stream (finds dead clients)
STATIC = Path(__file__).resolve().parent / "static"
TYPES = {".css": "text/css; charset=utf-8", ".js": "text/javascript; charset=utf-8", ".svg": "image/svg+xml"}
HEADERS = {"Content-Security-Policy": pages.CSP, "X-Content-Type-Options": "nosniff",
           "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY", "Cache-Control": "no-store"}
_ID = re.compile(r"[1-9][0-9]{0,18}")
GET = ["GET", "HEAD"]


def _html(text: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(text, status_code=status, headers=HEADERS)


def create_app(state_dir, settings, config_lang: str = "en", *, poll: float | None = None,
               proc_locks: str = "/proc/locks", names=(), camera: bool = False) -> Starlette:
    """The web view of the store in ``state_dir``; ``settings`` is the config's [game] (for the box's view);
    ``names``: host names it answers to besides its own (see :mod:`web.guard`); ``camera``: the config names a
    camera over the board (the live page and the phone's pages show it before it has seen anything)."""
    reader = Reader(state_dir, proc_locks=proc_locks)  # the live page's
    slow_reader = Reader(state_dir, proc_locks=proc_locks)  # the history's, a game's, the statistics'
    lane = deep.Lane()  # their worker threads: / and /now.json never wait behind them
    checked: dict = {}  # closed games' damage checks, remembered (web.history)
    hub = Hub(reader, settings, config_lang, camera=camera, **({} if poll is None else {"poll": poll}))
    behind = Reader(state_dir, proc_locks=proc_locks)  # the background's (one step at a time)
    counter = Counter(behind, seats_from_meta)  # the statistics' sums, kept
    sweep = Sweep(behind)  # the history's damage checks, done beside the pages
    background = Background(lane, [counter, sweep], changed_at=lambda: hub.changed_at, closing=lambda: hub.closing)
    hub.listeners.append(background.kick)
    files = {p.name: (p.read_bytes(), TYPES[p.suffix]) for p in STATIC.iterdir() if p.suffix in TYPES}
    files["seats.css"] = (seats_css().encode(), TYPES[".css"])  # each seat's colour, as classes (web/squares.py)

    def lang_of(request: Request) -> str:
        return choose(request.query_params.get("lang") or cookie_lang(request.headers.get("cookie")),
                      request.headers.get("accept-language"), hub.box_language())

    async def page_lang(request: Request) -> str:
        return await run_in_threadpool(lang_of, request)

    async def home(request: Request):
        lang = await page_lang(request)
        version, fragment = await run_in_threadpool(hub.fragment, lang)
        return _html(pages.live_page(lang, fragment, version))

    async def now(request: Request):
        """The live fragment as JSON: what a page without event streams polls."""
        lang = await page_lang(request)
        version, fragment = await run_in_threadpool(hub.fragment, lang)
        return JSONResponse({"v": version, "html": fragment}, headers=HEADERS)

    async def history(request: Request):
        lang = await page_lang(request)
        raw, below = request.query_params.get("page", "1"), request.query_params.get("before")
        above = request.query_params.get("after")  # the pager's links are by key (web.history)
        if not _ID.fullmatch(raw) or any(k is not None and not _ID.fullmatch(k) for k in (below, above)):
            raise HTTPException(404)
        number = int(raw)
        if number > deep.MAX_PAGE:
            raise HTTPException(400, f"a page number is {deep.MAX_PAGE} at most\n")
        before = int(below) if below is not None else None

        def read():
            with slow_reader.read() as store:
                if store is None:
                    return ([], False, False, 0), None
                return deep.page(store, number, before, checked, slow_reader.key(), sweep,
                                 after=int(above) if above is not None else None), roster.load(store, settings.roster)

        (games, more, newer, late), members = await lane.run(read)
        if number > 1 and not games:
            raise HTTPException(404)
        return _html(pages.history_page(lang, games, more, newer, late, name_of=members and members.name_of))

    async def game(request: Request):
        ident = request.path_params["ident"]
        as_json = ident.endswith(".json")
        ident = ident.removesuffix(".json")
        if not _ID.fullmatch(ident) or int(ident) > MAX_GAME_NUMBER:
            raise HTTPException(404)
        step = request.query_params.get("step")
        if step is not None and not re.fullmatch(r"[0-9]{1,7}", step):
            raise HTTPException(404)

        def read():
            with slow_reader.read() as store:
                if store is None:
                    return None
                try:
                    return store.game(int(ident)), roster.load(store, settings.roster)
                except StoreError:
                    return None

        found = await lane.run(read)
        if found is None:
            raise HTTPException(404)
        stored, members = found
        if as_json:
            return Response(format_record(record_json(stored)), media_type="application/json",
                            headers=HEADERS | {"Content-Disposition": f'inline; filename="game-{stored.id}.json"'})
        lang = await page_lang(request)
        return _html(await lane.run(pages.game_page, lang, stored, None if step is None else int(step),
                                    settings.colours, members.name_of))

    async def person_stats(request: Request):
        lang = await page_lang(request)

        def read():  # the box's sums or this process's, never a game added up here (web.counting)
            with slow_reader.read() as store:
                if store is None:
                    return (), 0, None
                names = roster.load(store, settings.roster)
                sums = page_sums(store, counter)
            if sums is None:
                return (), 0, None
            return (*people.people_of(sums.sums, names.who), None if sums.complete else (sums.counted, sums.total))

        found, contests, counting = await lane.run(read)
        if counting is not None:
            background.kick()
        return _html(pages.people_page(lang, found, contests, counting))

    async def static(request: Request):
        hit = files.get(request.path_params["name"])
        if hit is None:
            raise HTTPException(404)
        body, kind = hit
        return Response(body, media_type=kind, headers=HEADERS | {"Cache-Control": "public, max-age=3600"})

    async def not_found(request: Request, exc: HTTPException):
        try:
            lang = await page_lang(request)
        except Exception:
            lang = config_lang
        if exc.status_code == 404:
            return _html(pages.not_found(lang), 404)
        headers = dict(HEADERS) | (exc.headers or {})
        return Response(str(exc.detail), status_code=exc.status_code, headers=headers)

    async def failed(request: Request, exc: Exception):
        log.error("%s %s: %s", request.method, request.url.path, one_line(exc))
        return _html(pages.problem_page(config_lang, one_line(exc)), 500)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        import anyio.to_thread

        # A few worker threads are plenty (reads take milliseconds, and one reader serves them in turn);
        # anyio's default of 40 would cost memory a Pi Zero does not have.
        anyio.to_thread.current_default_thread_limiter().total_tokens = WORKERS
        await hub.start()
        background.start()
        try:
            yield
        finally:
            await background.stop()
            await hub.stop()
            await asyncio.to_thread(slow_reader.close)
            await asyncio.to_thread(behind.close)

    app = Starlette(
        routes=[
            Route("/", home, methods=GET),
            Route("/now.json", now, methods=GET),
            Route("/events", EventStream(hub, lang_of), methods=["GET"]),
            Route("/games", history, methods=GET),
            Route("/games/{ident}", game, methods=GET),
            Route("/people", person_stats, methods=GET),
            Route("/static/{name}", static, methods=GET),
            *pictures.routes(state_dir, HEADERS, lambda request: door.phone_of(request, state_dir) is not None),
            *phone.routes(state_dir, settings, lang_of, camera=camera),  # the only writes: a paired phone's
        ],
        exception_handlers={HTTPException: not_found, Exception: failed},
        lifespan=lifespan,
    )
    app.state.hub = hub
    app.state.background = background
    app.add_middleware(Compressed)  # inside the guard: a refused request is refused before any work
    app.add_middleware(Guard, names=own_names(names))
    return app


class EventStream:
    """``/events``: server-sent events, one ``live`` event with the fragment per change of the store."""

    def __init__(self, hub: Hub, lang_of):
        self.hub = hub
        self.lang_of = lang_of
        self.held: dict[str, int] = {}  # client address -> its streams open now

    async def __call__(self, scope, receive, send) -> None:
        hub = self.hub
        client = (scope.get("client") or ("?",))[0]
        if hub.streams >= MAX_STREAMS or self.held.get(client, 0) >= STREAMS_PER_CLIENT:
            await _plain(send, 503, b"too many open pages: this one polls instead\n", [(b"retry-after", b"5")])
            return
        request = Request(scope, receive)
        hub.streams += 1
        self.held[client] = self.held.get(client, 0) + 1
        try:
            lang = await run_in_threadpool(self.lang_of, request)
            # what the page shows: the last event it had (its EventSource says so when it reconnects), else the
            # version it was built at; any other version than the current one is sent the game at once
            raw = request.headers.get("last-event-id") or request.query_params.get("v", "")
            seen = ascii_int(raw, 18) or 0
            await send({"type": "http.response.start", "status": 200, "headers": [
                (b"content-type", b"text/event-stream; charset=utf-8"), (b"cache-control", b"no-store"),
                (b"x-accel-buffering", b"no"), (b"x-content-type-options", b"nosniff")]})
            await send({"type": "http.response.body", "body": b"retry: 2000\n\n", "more_body": True})
            gone = asyncio.ensure_future(_disconnected(receive))
            try:
                while not gone.done() and not hub.closing:  # the client stays, and the server does not stop
                    if hub.version != seen:
                        # built once per change: every stream but the first takes it without a thread
                        if hub.cached(lang) is None:  # built ahead for every language a page asked for lately
                            await run_in_threadpool(hub.fragment, lang)
                        seen, chunk = hub.event(lang, seen)  # what changed since the page's version, else the whole
                    else:
                        chunk = b": ping\n\n"
                    await send({"type": "http.response.body", "body": chunk, "more_body": True})
                    if hub.version == seen:
                        waiter = asyncio.ensure_future(hub.wait(seen, HEARTBEAT))
                        await asyncio.wait({gone, waiter}, return_when=asyncio.FIRST_COMPLETED)
                        waiter.cancel()
            finally:
                gone.cancel()
            with contextlib.suppress(Exception):
                await send({"type": "http.response.body", "body": b"", "more_body": False})
        except OSError:
            pass  # the client left while we wrote
        finally:
            hub.streams -= 1
            left = self.held.pop(client, 1) - 1
            if left > 0:
                self.held[client] = left


async def _disconnected(receive) -> None:
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return


async def _plain(send, status: int, body: bytes, extra=()) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"), *extra]})
    await send({"type": "http.response.body", "body": body})
