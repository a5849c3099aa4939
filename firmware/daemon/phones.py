"""A paired phone's changes reach the box: its own unix socket, and the loop taking them like a press.

:class:`PhoneDoor` listens on ``box.sock`` in the state directory
(:mod:`firmware.table.phone_link`) in a thread of its own: it reads one
request line (16 KB at most, two seconds at most), checks its shape, and puts
it on the loop's queue; the loop answers between two presses
(:func:`take`), and the door writes the answer back. The loop never waits on
a phone: a slow or silent client holds only the door's thread, one
connection at a time. A request the loop has queued is carried out even if
the phone stopped waiting (never lost); a name change is written as the
command line writes it, kept pending by the store if the card refuses it.

:func:`take` checks what a request asks as the command line and the config
do: the roster's own rules for a name (:mod:`firmware.table.roster`), the
config's colours, the engine's rules, the languages the box speaks.
"""

from __future__ import annotations

import logging
import os
import queue
import socket
import threading
import time
from dataclasses import replace

from engine import RulesError

from firmware import i18n, ui, words
from firmware.table import names as N, roster as R
from firmware.table import phone_link as link, phones
from firmware.ui.model import BOX_PLAYER, Seat, Setup

from .opening import roster_input

log = logging.getLogger("cantstop.daemon")

READ_SECONDS = 2.0  # a client has this long to send its request line
ANSWER_SECONDS = link.WAIT - 1.0  # how long the door waits for the loop's answer


class Asked:
    """One request on its way through the loop, and the answer the door waits for."""

    def __init__(self, request: dict) -> None:
        self.request = request
        self.answer: dict | None = None
        self.done = threading.Event()

    def reply(self, answer: dict) -> None:
        self.answer = answer
        self.done.set()


class PhoneDoor:
    """The box's socket for the web view, served by one thread; ``put`` queues an :class:`Asked` for the loop."""

    def __init__(self, state_dir, put) -> None:
        self.path = link.path_of(state_dir)
        self.put = put
        self.sock: socket.socket | None = None
        self.thread: threading.Thread | None = None
        self.closing = False

    def open(self) -> None:
        """Listen (a stale socket of a box that died is replaced; the store's lock says no other box runs)."""
        try:
            self.path.unlink()
        except FileNotFoundError:
            pass
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        old = os.umask(0o177)
        try:
            sock.bind(str(self.path))
        finally:
            os.umask(old)
        sock.listen(8)
        self.sock = sock
        self.thread = threading.Thread(target=self._serve, name="phone-door", daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.closing = True
        if self.sock is not None:
            try:
                self.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            self.sock.close()
        try:
            self.path.unlink()
        except OSError:
            pass
        if self.thread is not None:
            self.thread.join(timeout=2)

    def _serve(self) -> None:
        while not self.closing:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with conn:
                try:
                    self._one(conn)
                except OSError as err:
                    log.debug("phone door: %s", err)

    def _one(self, conn: socket.socket) -> None:
        conn.settimeout(READ_SECONDS)
        try:
            request = link.parse(link.read_line(conn))
        except link.LinkError as err:
            conn.sendall(link.encode({"ok": False, "error": str(err)}))
            return
        asked = Asked(request)
        self.put(asked)
        if not asked.done.wait(ANSWER_SECONDS):
            conn.sendall(link.encode({"ok": False, "error": "the box is busy; it will take the change"}))
            return
        conn.sendall(link.encode(asked.answer))


# -- the loop's side ------------------------------------------------------------------


def open_door(state_dir, put) -> PhoneDoor | None:
    """The box's socket in ``state_dir``, open; None when it cannot be made (the game goes on without phones)."""
    door = PhoneDoor(state_dir, put)
    try:
        door.open()
    except OSError as err:
        log.error("no phone socket in %s: %s", state_dir, err)
        return None
    return door


def serve(box, asked: Asked) -> None:
    """A paired phone's request, taken between two presses; a screen that is off takes none."""
    if box.app.screen.kind is ui.Screen.OFF:
        asked.reply({"ok": False, "error": "the box is stopping"})
        return
    try:
        answer = take(box, asked.request)
    except Exception as err:  # a request must never stop the box
        log.error("a phone's request: %s", err)
        answer = {"ok": False, "error": "the box could not take it"}
    asked.reply(answer)


def serve_left(box, waiting, tag: str) -> None:
    """Stopping: the phones' requests still on the loop's queue (items ``(tag, Asked)``) are taken first, never
    lost; whatever else is left there (presses) is not."""
    while True:
        try:
            item = waiting.get_nowait()
        except queue.Empty:
            return
        if item[0] == tag:
            serve(box, item[1])


def take(box, request: dict) -> dict:
    """Carry out one phone's request on the loop; the answer for the phone."""
    kind = request["do"]
    try:
        if kind in link.ROSTER:
            return _roster(box, request)
        if kind == "setup":
            return _setup(box, request)
        return _settings(box, request)
    except (R.RosterError, link.LinkError) as err:
        return {"ok": False, "error": str(err)}


def _roster(box, request: dict) -> dict:
    if box.store is None:
        return {"ok": False, "error": "the box plays without saving now: names cannot be kept"}
    fresh = R.load(box.store, box.settings.roster)  # as the command line: what the store holds now
    kind = request["do"]
    if kind == "add":
        changed, name, new = R.add(fresh, request["name"]), N.normalise(request["name"]), ""
    elif kind == "remove":
        changed, new = R.remove(fresh, request["name"]), ""
        name = next(n for n in fresh.names if N.fold(n) == N.fold(request["name"]))
    else:
        changed = R.rename(fresh, request["old"], request["new"])
        name = next((n for n in fresh.names if N.fold(n) == N.fold(request["old"])), request["old"])
        new = N.normalise(request["new"])
    box.keep_facts({R.ROSTER_KEY: changed.to_json()})
    box.roster = changed
    box.feed(roster_input(changed))
    said = box.app.words.from_phone(kind, N.escaped(name), N.escaped(new))
    box.feed(ui.PhoneSaid(said))
    log.info("from a phone: %s", words.from_phone(kind, N.escaped(name), N.escaped(new)))
    return {"ok": True, "said": said, "kind": kind, "name": name, "new": new}


def _setup(box, request: dict) -> dict:
    settings = box.settings
    roster = box.roster
    seats: list[Seat] = []
    if len(request["seats"]) > min(4, len(settings.colours)):
        raise link.LinkError(f"a game has 1 to {min(4, len(settings.colours))} seats")
    taken: set[str] = set()
    for seat in request["seats"]:
        colour = next((c for c in settings.colours if c.casefold() == seat["colour"].casefold()), None)
        if colour is None:
            raise link.LinkError(f"{N.quoted(seat['colour'])} is not one of the colours: {', '.join(settings.colours)}")
        if any(s.colour == colour for s in seats):
            raise link.LinkError(f"two seats have the same colour, {colour}")
        name = seat["name"]
        person = None
        if name is not None and not seat["box"]:
            k = next((k for k, n in enumerate(roster.names) if N.fold(n) == N.fold(name)), None)
            if k is None:
                raise link.LinkError(f"no player called {N.quoted(name)}: add the name first")
            name = roster.names[k]
            if name in taken:
                raise link.LinkError(f"{N.quoted(name)} has two seats")
            taken.add(name)
            person = roster.ids[k] if k < len(roster.ids) else None
        else:
            name = None
        seats.append(Seat(colour, BOX_PLAYER if seat["box"] else None, name, person))
    try:
        rules = replace(settings.rules, columns_to_win=request["win"], speedy=request["speedy"], risky=request["risky"])
    except RulesError as err:
        raise link.LinkError(str(err)) from None
    language = request["language"] or None
    if language is not None and language not in i18n.LANGUAGES:
        raise link.LinkError(f"the box speaks {', '.join(i18n.LANGUAGES)}, not {N.quoted(language)}")
    said = words.language(language or box.app.language).from_phone("setup")
    box.feed(ui.PhoneSetup(Setup(tuple(seats), rules, 0, request["first"]), language, said))
    log.info("from a phone: the next game, %d seats", len(seats))
    return {"ok": True, "said": said, "kind": "setup"}



def pairing(box, effect) -> ui.PhoneCode:
    """The Phone screen's effects: a fresh code (and the page's address with it), or every phone forgotten."""
    if box.store is None:
        return ui.PhoneCode("", "", 0)
    state_dir = box.store.path.parent
    try:
        if isinstance(effect, ui.ForgetPhones):
            phones.forget(state_dir)
            log.info("every paired phone forgotten")
            return ui.PhoneCode("", "", 0, forgot=True)
        made = phones.new_pairing(state_dir, now=time.time())  # never logged
        port = phones.served_port(state_dir, box.web_port)
        return ui.PhoneCode(made.code, phones.page_address(port, made.key), phones.count(state_dir))
    except OSError as err:
        log.error("the phones' file: %s", err)
        return ui.PhoneCode("", "", 0)


#: A code on the Phone screen is replaced this long before it runs out: the one shown is always good.
RENEW_BEFORE = 30.0


def renew(box, now: float | None = None) -> None:
    """While the Phone screen is up, a fresh code once a phone used the one shown (it is good once) or when
    it is about to run out (ten minutes), so the next guest can always scan it; ``now`` is the wall clock."""
    screen = box.app.screen
    if screen.kind is not ui.Screen.PHONE or not screen.code or box.store is None:
        return
    now = time.time() if now is None else now
    try:
        left = phones.lasts(box.store.path.parent, screen.code, now=now)
    except OSError:
        return
    if left <= RENEW_BEFORE:
        box.feed(pairing(box, ui.PairPhone()))


#: The store fact holding the settings a phone changed that the table's memory does not keep (dimming, lamps).
SETTINGS_KEY = "phone_settings"


def _settings(box, request: dict) -> dict:
    """Language, dimming, sound and lamps: checked as the config checks them, kept across a restart."""
    language = request.get("language") or None
    if language is not None and language not in i18n.LANGUAGES:
        raise link.LinkError(f"the box speaks {', '.join(i18n.LANGUAGES)}, not {N.quoted(language)}")
    if "sound" in request and box.settings.sound is None:
        raise link.LinkError("this box has no buzzer: there is no sound to turn on or off")
    if "lamps" in request and box.signals.lamps is None:
        raise link.LinkError("this box has no lamps wired: there are none to turn on or off")
    kept = dict(_kept_settings(box))
    if "dim_after_min" in request:
        kept["dim_after_min"] = request["dim_after_min"]
    if "lamps" in request:
        kept["lamps"] = request["lamps"]
    if box.store is not None:
        box.keep_facts({SETTINGS_KEY: kept})
    _apply(box, kept)
    muted = None if "sound" not in request else not request["sound"]
    said = words.language(language or box.app.language).from_phone("settings")
    box.feed(ui.PhoneSettings(language, muted, said))
    log.info("from a phone: the settings (%s)", ", ".join(sorted(k for k in request if k != "do")) or "none")
    return {"ok": True, "said": said, "kind": "settings"}


def _kept_settings(box) -> dict:
    if box.store is None:
        return {}
    try:
        raw = box.store.fact(SETTINGS_KEY)
    except Exception:
        return {}
    if not isinstance(raw, dict):
        return {}
    out = {}
    dim = raw.get("dim_after_min")
    if type(dim) is int and 0 <= dim <= link.MAX_DIM_MINUTES:
        out["dim_after_min"] = dim
    if type(raw.get("lamps")) is bool:
        out["lamps"] = raw["lamps"]
    return out


def _apply(box, kept: dict) -> None:
    if "dim_after_min" in kept:
        box.dim_after = kept["dim_after_min"] * 60 or None
        if box.dim_after is None and box.dimmed:
            box._dim(False)
    if "lamps" in kept:
        box.signals.switch_lamps(kept["lamps"])


def recall_settings(box) -> None:
    """At start: the dimming and lamps a phone set, over the config's (the language and sound are the app's)."""
    _apply(box, _kept_settings(box))
