"""The phone's routes: ``/pair``, ``/players``, ``/setup``, ``/settings`` and ``/camera`` (GET shows, POST changes).

A page that only shows stays open to every guest. A POST passes
:func:`.door.write` first (same site, 16 KB, a paired phone and its form
token), then becomes one request to the box on its own socket
(:mod:`firmware.table.phone_link`), which checks it as the command line
does and says the change on its screen. The web view never writes the game
store: with the box off, a name change is made as ``cantstop-box players``
makes it (one short transaction on the roster alone), and nothing else is.
No code, token or form is ever logged.
"""

from __future__ import annotations

import logging
import time

from starlette.concurrency import run_in_threadpool
from starlette.responses import HTMLResponse, RedirectResponse
from starlette.routing import Route

from firmware.store import Store, StoreError, StoreMissingError
from firmware.store.shared import update_fact
from firmware.table import names as N, phone_link as link, phones, roster as R
from firmware import words

from .. import pictures
from ..numbers import ascii_int
from . import camera as eye, door, pages, tableform
from .text import in_language

log = logging.getLogger("cantstop.web")

#: A form page's policy (its forms post to this box only), and a referrer policy under which the browser sends the
#: page's real Origin with them (under the site's no-referrer Chromium sends "Origin: null", which is refused).
HEADERS = {"Content-Security-Policy": pages.CSP, "Cache-Control": "no-store", "Referrer-Policy": "same-origin"}


def _html(text: str, status: int = 200, headers: dict | None = None) -> HTMLResponse:
    return HTMLResponse(text, status_code=status, headers=HEADERS | (headers or {}))


def read_roster(state_dir, config_names) -> tuple[str, ...]:
    """The names a seat can take now, read as the command line reads them (the store opened read-only)."""
    try:
        store = Store.open(state_dir, readonly=True)
    except StoreMissingError:
        return R.from_fact(None, config_names).names
    except StoreError:
        return R.from_fact(None, config_names).names
    try:
        return R.load(store, config_names).names
    finally:
        store.close()


def roster_request(fields: dict) -> dict:
    """The posted /players form as a request to the box (``add`` unless told)."""
    action = fields.get("action", "add")
    if action == "rename":
        return {"do": "rename", "old": fields.get("old", ""), "new": fields.get("new", "")}
    if action in ("add", "remove"):
        return {"do": action, "name": fields.get("name", "")}
    raise link.LinkError("not a change of the names")


def setup_request(fields: dict) -> dict:
    """The posted /setup form as a request to the box: the seats someone plays, in seat order."""
    seats, where = [], {}
    for i in range(pages.SEATS):
        plays = fields.get(f"plays{i}", "")
        if plays not in ("", "person", "box"):
            raise link.LinkError("a seat is played by nobody, a person or the box")
        if plays:
            where[i] = len(seats)
            seats.append({"colour": fields.get(f"colour{i}", ""), "name": fields.get(f"name{i}") or None,
                          "box": plays == "box"})
    first = ascii_int(fields.get("first", "0"), 2)
    if first not in where:
        raise link.LinkError("the seat that starts must be one somebody plays")
    win = fields.get("win", "3")
    return {"do": "setup", "seats": seats, "first": where[first],
            "win": ascii_int(win, 2) or 0,
            "speedy": fields.get("speedy") == "on", "risky": fields.get("risky") == "on",
            "language": fields.get("language", "")}


def settings_request(fields: dict) -> dict:
    """The posted /settings form as a request to the box: only what was chosen ("as it is" sends nothing)."""
    out: dict = {"do": "settings"}
    if fields.get("language"):
        out["language"] = fields["language"]
    dim = fields.get("dim", "")
    if dim:
        minutes = ascii_int(dim, 3)
        if minutes is None:
            raise link.LinkError("dimming is a number of minutes")
        out["dim_after_min"] = minutes
    for key in ("sound", "lamps"):
        value = fields.get(key, "")
        if value not in ("", "on", "off"):
            raise link.LinkError(f"{key} is on or off")
        if value:
            out[key] = value == "on"
    return out


def kept_settings(state_dir) -> dict:
    """The language and dimming the box keeps now, as the settings form shows them (read-only). Sound and
    lamps stay "as it is": a box without a buzzer or lamps refuses a change of them, not a form left alone."""
    from firmware.table import restart

    table, phone = tableform.kept_facts(state_dir, restart.MEMORY_KEY, link.SETTINGS_FACT)
    out = {}
    if isinstance(table, dict) and isinstance(table.get("language"), str):
        out["language"] = table["language"]
    if isinstance(phone, dict) and type(phone.get("dim_after_min")) is int:
        out["dim"] = str(phone["dim_after_min"])
    return out


def _without_box(state_dir, config_names, request: dict) -> dict:
    """A name change with the box off, as ``cantstop-box players`` makes it."""
    change = {"add": lambda r: R.add(r, request["name"]), "remove": lambda r: R.remove(r, request["name"]),
              "rename": lambda r: R.rename(r, request["old"], request["new"])}[request["do"]]
    update_fact(state_dir, R.ROSTER_KEY, lambda raw: change(R.from_fact(raw, config_names)).to_json())
    return {"ok": True}


def routes(state_dir, settings, lang_of, *, clock=time.monotonic, camera: bool = False) -> list[Route]:
    """The phone's routes for the web view of ``state_dir``; ``lang_of(request)`` is the page's language; ``camera``:
    the config names a camera (else the camera's page is linked once the camera has left its pictures)."""
    wrong = door.WrongCodes(clock)
    config_names = settings.roster

    def cam() -> bool:
        return camera or pictures.folder(state_dir).is_dir()

    async def lang(request) -> str:
        return await run_in_threadpool(lang_of, request)

    async def refused(request, err: door.Refused, render) -> HTMLResponse:
        language = await lang(request)
        return _html(render(language, in_language(language)[err.key]), err.status)

    async def pair(request):
        language = await lang(request)
        if request.method != "POST":
            token = await run_in_threadpool(door.phone_of, request, state_dir)
            code, key = request.query_params.get("code", ""), request.query_params.get("k", "")
            return _html(pages.pair_page(language, code, paired=token is not None, key=key, camera=cam()))
        try:
            if not door.same_site(request):
                raise door.Refused(403, "other_site")
            fields = await door.form(request)
        except door.Refused as err:
            return await refused(request, err, lambda lg, text: pages.pair_page(lg, note=text, ok=False, camera=cam()))
        t = in_language(language)
        key = fields.get("key", "").strip()
        typed = "" if phones.is_key(key) else fields.get("code", "").strip()
        client = request.client.host if request.client else ""
        # A typed code is counted before it is tried (no await between the check and the count); a QR key is
        # never refused by the count: nobody can guess one, so nobody can keep the owner from scanning.
        if typed and not wrong.attempt(client):
            return _html(pages.pair_page(language, note=t["too_many"], ok=False, camera=cam()), 429,
                         {"Retry-After": "60"})
        token = await run_in_threadpool(phones.redeem, state_dir, key if not typed else typed, now=time.time())
        if token is None:
            log.info("a wrong pairing %s", "code" if typed or not key else "key")  # never the code itself
            return _html(pages.pair_page(language, note=t["wrong_code"], ok=False, camera=cam()), 403)
        if typed:
            wrong.forgive(client)
        log.info("a phone was paired")
        response = RedirectResponse("/players", status_code=303, headers=HEADERS)
        response.headers.append("set-cookie", door.set_cookie(token))
        return response

    async def players(request):
        language = await lang(request)
        if request.method != "POST":
            token = await run_in_threadpool(door.phone_of, request, state_dir)
            names = await run_in_threadpool(read_roster, state_dir, config_names)
            return _html(pages.players_page(language, names, None if token is None else phones.csrf_of(token),
                                            camera=cam()))
        try:
            token, fields = await door.write(request, state_dir)
        except door.Refused as err:
            names = await run_in_threadpool(read_roster, state_dir, config_names)
            return await refused(request, err, lambda lg, text: pages.players_page(lg, names, None, text, ok=False,
                                                                                   camera=cam()))
        note, ok, status = await run_in_threadpool(_change_names, fields, language)
        names = await run_in_threadpool(read_roster, state_dir, config_names)
        return _html(pages.players_page(language, names, phones.csrf_of(token), note, ok, camera=cam()), status)

    def _change_names(fields: dict, language: str) -> tuple[str, bool, int]:
        w = words.language(language)
        try:
            request = link.check(roster_request(fields))
            try:
                answer = link.ask(state_dir, request)
            except link.BoxOff:
                _without_box(state_dir, config_names, request)
                return in_language(language)["box_off_names"], True, 200
        except (link.LinkError, R.RosterError) as err:
            return str(err), False, 400
        except (link.BoxSilent, StoreError) as err:
            return str(err), False, 503
        if not answer["ok"]:
            return str(answer.get("error", "")), False, 400
        return w.from_phone(answer.get("kind", ""), N.escaped(answer.get("name", "")),
                            N.escaped(answer.get("new", ""))), True, 200

    async def setup(request):
        language = await lang(request)
        names = await run_in_threadpool(read_roster, state_dir, config_names)
        defaults = _defaults(settings, language, names)
        if request.method != "POST":
            token = await run_in_threadpool(door.phone_of, request, state_dir)
            now, _ = await run_in_threadpool(tableform.current, state_dir, defaults)
            return _html(pages.setup_page(language, names, settings.colours, now,
                                          None if token is None else phones.csrf_of(token), camera=cam()))
        try:
            token, fields = await door.write(request, state_dir)
        except door.Refused as err:
            return await refused(request, err, lambda lg, text: pages.setup_page(
                lg, names, settings.colours, {}, None, text, ok=False, camera=cam()))
        now, mark = await run_in_threadpool(tableform.current, state_dir, defaults)
        if fields.get("from") != mark:  # another phone (or the box) changed the set-up since this form was made
            return _html(pages.setup_page(language, names, settings.colours, now, phones.csrf_of(token),
                                          in_language(language)["stale"], ok=False, camera=cam()), 409)
        note, ok, status = await run_in_threadpool(_send, setup_request, fields, language)
        if ok:
            t = in_language(language)
            note = t["sent"].format(said=note, hint=t["send_hint"])
            fields, _ = await run_in_threadpool(tableform.current, state_dir, defaults)
        return _html(pages.setup_page(language, names, settings.colours, fields, phones.csrf_of(token), note, ok,
                                      camera=cam()), status)

    async def settings_route(request):
        language = await lang(request)
        if request.method != "POST":
            token = await run_in_threadpool(door.phone_of, request, state_dir)
            kept = await run_in_threadpool(kept_settings, state_dir)
            return _html(pages.settings_page(language, kept, None if token is None else phones.csrf_of(token),
                                             camera=cam()))
        try:
            token, fields = await door.write(request, state_dir)
        except door.Refused as err:
            return await refused(request, err, lambda lg, text: pages.settings_page(lg, {}, None, text, ok=False,
                                                                                    camera=cam()))
        note, ok, status = await run_in_threadpool(_send, settings_request, fields, language)
        kept = await run_in_threadpool(kept_settings, state_dir)
        return _html(pages.settings_page(language, kept, phones.csrf_of(token), note, ok, camera=cam()), status)

    async def camera_route(request):
        """Setting the camera up (web/phone/camera.py): a photo of the empty board, or the columns' ends tapped."""
        language = await lang(request)
        if request.method != "POST":
            token = await run_in_threadpool(door.phone_of, request, state_dir)
            fit = None if token is None else await run_in_threadpool(eye.fit_of, state_dir)
            looks = request.query_params.get("looks") == "right" and fit is not None and fit.found
            return _html(pages.camera_page(language, None if token is None else phones.csrf_of(token), fit,
                                           in_language(language)["camera_kept"] if looks else None))
        try:
            token, fields = await door.write(request, state_dir)
        except door.Refused as err:
            return await refused(request, err, lambda lg, text: pages.camera_page(lg, None, note=text, ok=False))
        before = await run_in_threadpool(eye.grid_tag, state_dir)  # the page waits for the spaces to change
        note, ok, status = await run_in_threadpool(_send, eye.request_of, fields, language)
        fit = None if ok else await run_in_threadpool(eye.fit_of, state_dir)
        return _html(pages.camera_page(language, phones.csrf_of(token), fit, note, ok, wait=before if ok else None),
                     status)

    def _send(make, fields: dict, language: str) -> tuple[str, bool, int]:
        """One request to the box (the next game, the settings, the camera): with the box off, nothing but names
        changes."""
        try:
            answer = link.ask(state_dir, link.check(make(fields)))
        except link.LinkError as err:
            return str(err), False, 400
        except link.BoxOff:
            return in_language(language)["box_off"], False, 503
        except link.BoxSilent as err:
            return str(err), False, 503
        if not answer["ok"]:
            return str(answer.get("error", "")), False, 400
        w = words.language(language)
        if answer.get("kind") == "camera":  # the box took it; the set-up itself takes some seconds
            return w.camera_lines("setting")[0], True, 200
        return w.from_phone(answer.get("kind", "")), True, 200

    both = ["GET", "HEAD", "POST"]
    return [Route("/pair", pair, methods=both), Route("/players", players, methods=both),
            Route("/setup", setup, methods=both), Route("/settings", settings_route, methods=both),
            Route("/camera", camera_route, methods=both)]


def _defaults(settings, language: str, names: tuple[str, ...] = ()) -> dict:
    """The form as the box would set up a game: the config's number of players and colours, each seat the
    next name of the list (as a seat added on the box takes it), people only."""
    n = max(1, min(settings.players, pages.SEATS, len(settings.colours)))
    chosen = {f"plays{i}": "person" for i in range(n)}
    chosen |= {f"name{i}": name for i, name in enumerate(names[:n])}
    chosen |= {f"colour{i}": settings.colours[i % len(settings.colours)] for i in range(pages.SEATS)}
    chosen |= {"win": str(settings.rules.columns_to_win), "language": language, "first": "0"}
    return chosen
