"""A paired phone's request, answered by the UI like a press: ``update(app, PhoneAsked(...)) -> (app, effects)``.

The daemon's socket (:mod:`firmware.daemon.phones`) only carries the request to the loop; everything a
request means is decided here, purely, and said as effects the daemon carries out in order:

- a name added, renamed or removed: :class:`~.messages.KeepRoster` (the store's roster as the command line
  writes it), the new-game screen offering it at once, and a line over the screen saying what changed;
- the next game's set-up: shown on the new-game screen (ROLL on the box starts it);
- the settings: the language and the sound as the table's own choices, the dimming and the lamps as
  :class:`~.messages.Dimming` and :class:`~.messages.Lamps`, kept with :class:`~.messages.KeepFacts`;
- setting the camera up (:class:`~.messages.SetUpCamera`), shown on the box's screen as its menu does it;
- and always one :class:`~.messages.PhoneReply`, the answer the phone waits for.

A request is checked as the command line and the config check the same things: the roster's own rules for a
name (:mod:`firmware.table.roster`), the config's colours, the engine's rules, the languages the box speaks,
the parts the box has (a buzzer, lamps). A refusal changes nothing and is one line.
"""

from __future__ import annotations

from dataclasses import replace

from engine import RulesError

from .. import i18n, words
from ..table import names as N, roster as R
from ..table import phone_link as link
from .messages import (CodeLasts, Dimming, KeepFacts, KeepRoster, Lamps, PairPhone, PhoneAsked, PhoneReply,
                       PhoneSettingsKept, RosterChanged, SetUpCamera)
from .model import App, BOX_PLAYER, KeptSettings, LookScreen, MenuScreen, Screen, Seat, Setup
from .navigate import Result
from . import setup as setup_screen

SETTINGS_KEY = link.SETTINGS_FACT
#: A code on the Phone screen is replaced this long before it runs out: the one shown is always good.
RENEW_BEFORE = 30.0


def on_asked(app: App, asked: PhoneAsked) -> Result:
    """The app after a phone's request, the effects it needs and the reply (one :class:`PhoneReply`, last)."""
    if app.screen.kind is Screen.OFF:
        return app, (_refused(asked, "the box is stopping"),)
    kind = asked.request["do"]
    try:
        if kind in link.ROSTER:
            return _roster(app, asked)
        if kind == "setup":
            return _setup(app, asked)
        if kind == "camera":
            return _camera(app, asked)
        return _settings(app, asked)
    except (R.RosterError, link.LinkError) as err:
        return app, (_refused(asked, str(err)),)


def _refused(asked: PhoneAsked, why: str) -> PhoneReply:
    return PhoneReply(asked.ticket, {"ok": False, "error": why}, f"refused: {why}")


def roster_changed(people) -> RosterChanged:
    """A roster (:class:`firmware.table.roster.Roster`) as the UI takes it: the names to offer and their ids, who
    was removed, what old names stand for."""
    legacy = tuple(sorted(people.legacy.items())) if people.stored else ()
    return RosterChanged(people.names, people.ids, people.removed, legacy)


def _roster(app: App, asked: PhoneAsked) -> Result:
    if asked.roster is None:
        return app, (_refused(asked, "the box plays without saving now: names cannot be kept"),)
    request, fresh, kind = asked.request, asked.roster, asked.request["do"]
    if kind == "add":
        changed, name, new = R.add(fresh, request["name"]), N.normalise(request["name"]), ""
    elif kind == "remove":
        changed, new = R.remove(fresh, request["name"]), ""
        name = next(n for n in fresh.names if N.fold(n) == N.fold(request["name"]))
    else:
        changed = R.rename(fresh, request["old"], request["new"])
        name = next((n for n in fresh.names if N.fold(n) == N.fold(request["old"])), request["old"])
        new = N.normalise(request["new"])
    seen = roster_changed(changed)
    app = setup_screen.roster_changed(app, seen.names, seen.ids, seen.removed, seen.legacy)
    said = app.words.from_phone(kind, N.escaped(name), N.escaped(new))
    answer = {"ok": True, "said": said, "kind": kind, "name": name, "new": new}
    return replace(app, flash=said), (KeepRoster(changed), PhoneReply(
        asked.ticket, answer, words.from_phone(kind, N.escaped(name), N.escaped(new))))


def _setup(app: App, asked: PhoneAsked) -> Result:
    request, settings = asked.request, app.settings
    roster = (asked.roster.names, asked.roster.ids) if asked.roster is not None else (app.roster, app.roster_ids)
    limit = min(4, len(settings.colours))
    if len(request["seats"]) > limit:
        raise link.LinkError(f"a game has 1 to {limit} seats")
    seats: list[Seat] = []
    taken: set[str] = set()
    for seat in request["seats"]:
        colour = next((c for c in settings.colours if c.casefold() == seat["colour"].casefold()), None)
        if colour is None:
            raise link.LinkError(f"{N.quoted(seat['colour'])} is not one of the colours: {', '.join(settings.colours)}")
        if any(s.colour == colour for s in seats):
            raise link.LinkError(f"two seats have the same colour, {colour}")
        name, person = seat["name"], None
        if name is not None and not seat["box"]:
            k = next((k for k, n in enumerate(roster[0]) if N.fold(n) == N.fold(name)), None)
            if k is None:
                raise link.LinkError(f"no player called {N.quoted(name)}: add the name first")
            name = roster[0][k]
            if name in taken:
                raise link.LinkError(f"{N.quoted(name)} has two seats")
            taken.add(name)
            person = roster[1][k] if k < len(roster[1]) else None
        else:
            name = None
        seats.append(Seat(colour, BOX_PLAYER if seat["box"] else None, name, person))
    try:
        rules = replace(settings.rules, columns_to_win=request["win"], speedy=request["speedy"], risky=request["risky"])
    except RulesError as err:
        raise link.LinkError(str(err)) from None
    language = _language(request)
    said = words.language(language or app.language).from_phone("setup")
    app = setup_screen.from_phone(app, Setup(tuple(seats), rules, 0, request["first"]), language, said)
    reply = PhoneReply(asked.ticket, {"ok": True, "said": said, "kind": "setup"}, f"the next game, {len(seats)} seats")
    return app, (reply,)


def _camera(app: App, asked: PhoneAsked) -> Result:
    """Setting the camera up from a phone: a photo of the empty board (the spaces fitted), or the spaces placed
    by the columns' ends tapped on it. The box's screen shows it as the menu's set-up does."""
    if not app.camera:
        raise link.LinkError("this box has no camera: [camera] source is off")
    if app.camera == "absent":
        raise link.LinkError(f"the camera does not answer: {app.camera_why}")
    ticket = app.tickets + 1
    ends = asked.request.get("ends")
    screen = LookScreen(ticket, setup="setting", back=app.screen.back if app.screen.kind is Screen.LOOK else
                        app.screen if app.screen.kind is not Screen.OFF else MenuScreen())
    said = app.words.camera_lines("setting")[0]
    app = replace(app, screen=screen, tickets=ticket, look=None, flash=None)
    reply = PhoneReply(asked.ticket, {"ok": True, "said": said, "kind": "camera"}, f"the camera set up ({asked.request['step']})")
    return app, (SetUpCamera(ticket, ends), reply)


def _language(request: dict) -> str | None:
    language = request.get("language") or None
    if language is not None and language not in i18n.LANGUAGES:
        raise link.LinkError(f"the box speaks {', '.join(i18n.LANGUAGES)}, not {N.quoted(language)}")
    return language


def _settings(app: App, asked: PhoneAsked) -> Result:
    """Language, dimming, sound and lamps: checked as the config checks them, kept across a restart."""
    request = asked.request
    language = _language(request)
    if "sound" in request and app.settings.sound is None:
        raise link.LinkError("this box has no buzzer: there is no sound to turn on or off")
    if "lamps" in request and not asked.lamps:
        raise link.LinkError("this box has no lamps wired: there are none to turn on or off")
    kept = app.kept
    if "dim_after_min" in request:
        kept = replace(kept, dim_after_min=request["dim_after_min"])
    if "lamps" in request:
        kept = replace(kept, lamps=request["lamps"])
    said = words.language(language or app.language).from_phone("settings")
    muted = app.muted if "sound" not in request else not request["sound"]
    app = replace(app, language=language or app.language, muted=muted, flash=said or None, kept=kept)
    changed = ", ".join(sorted(k for k in request if k != "do")) or "none"
    return app, (KeepFacts({SETTINGS_KEY: kept.to_json()}), *_carried_out(kept),
                 PhoneReply(asked.ticket, {"ok": True, "said": said, "kind": "settings"}, f"the settings ({changed})"))


def _carried_out(kept: KeptSettings) -> tuple:
    """The dimming and the lamps a phone set, as effects (nothing for what it never set: the config's stand)."""
    out: tuple = ()
    if kept.dim_after_min is not None:
        out += (Dimming(kept.dim_after_min * 60 or None),)
    if kept.lamps is not None:
        out += (Lamps(kept.lamps),)
    return out


def recalled(raw) -> KeptSettings:
    """The settings a phone set, as the store kept them (anything that does not fit is left out)."""
    if not isinstance(raw, dict):
        return KeptSettings()
    dim = raw.get("dim_after_min")
    lamps = raw.get("lamps")
    return KeptSettings(dim if type(dim) is int and 0 <= dim <= link.MAX_DIM_MINUTES else None,
                        lamps if type(lamps) is bool else None)


def on_kept(app: App, inp: PhoneSettingsKept) -> Result:
    """At start: the dimming and lamps a phone set, over the config's (the language and sound are the app's)."""
    kept = recalled(inp.raw)
    return replace(app, kept=kept), _carried_out(kept)


def on_code_lasts(app: App, inp: CodeLasts) -> Result:
    """While the Phone screen shows ``inp.code``: a fresh code once a phone used it (it is good once) or when it is
    about to run out (ten minutes), so the next guest can always scan the one shown."""
    screen = app.screen
    if screen.kind is not Screen.PHONE or not screen.code or screen.code != inp.code:
        return app, ()
    return app, ((PairPhone(),) if inp.left <= RENEW_BEFORE else ())
