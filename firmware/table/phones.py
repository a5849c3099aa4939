"""The phones paired with the box: one-time pairing codes and the paired phones, kept in ``phones.json``.

The file sits in the state directory beside the game store (mode 0600, the
box's user) and is shared by three processes: the box (its menu's Phone
screen makes a code, "forget phones" empties the file), ``cantstop-box
pair`` (a code for an owner at a terminal) and the web view (a code typed
or scanned on a phone is redeemed for a paired phone). Every change is one
read-modify-write under an exclusive ``flock`` on ``phones.lock``, written
to a temporary file and renamed over the old one: a reader sees the old file
or the new one, never half of one.

Nothing secret is kept in the clear: a code and a phone's token are kept as
their SHA-256, so the file (or a backup of it) pairs nobody. A code is six
digits, valid :data:`CODE_SECONDS` and good once. A paired phone holds a
random token in its cookie; its form token (``csrf``) is derived from it, so
one phone's form token is worth nothing with another's cookie.

>>> import tempfile
>>> d = tempfile.mkdtemp()
>>> code = new_code(d, now=1000.0)
>>> len(code), code.isdigit()
(6, True)
>>> redeem(d, "000000" if code != "000000" else "111111", now=1001.0) is None
True
>>> token = redeem(d, code, now=1001.0)
>>> paired(d, token), redeem(d, code, now=1002.0) is None  # good once
(True, True)
>>> forget(d); paired(d, token)
False
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import hmac
import json
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

FILE = "phones.json"
LOCK = "phones.lock"
CODE_SECONDS = 600  # a pairing code is good for ten minutes
CODES_KEPT = 4  # codes alive at once (the box's screen, a `pair` at a terminal, ...): the oldest goes first
PHONES_KEPT = 16  # paired phones at once: the seventeenth pairing unpairs the one paired longest ago
MAX_FILE = 64 * 1024  # bytes: a bigger file is not one of ours and is read as empty
TOKEN_BYTES = 32
#: The QR code's key: 72 bits, 12 URL-safe characters. Nobody guesses it (at a thousand tries a second, half
#: of 2^72 takes 7 x 10^10 years), and the pairing page's address stays short enough, for a box named with up
#: to 14 letters, for a QR code of version 3, whose 29 modules are two pixels each on a 64-row screen
#: (version 4's would be one pixel: hard to scan).
KEY_BYTES = 9
#: Wrong typed codes the live codes take, from anyone, before their six digits stop working (their QR keys
#: still pair, and the next code made, on the box's screen or at a terminal, starts afresh). With at most
#: one code on the Phone screen every ten minutes, a guest guessing all night hits one with odds of at
#: most 6 per hour x 10 / 10^6 (docs/phone.md has the arithmetic).
CODE_GUESSES = 10


def _hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()


def csrf_of(token: str) -> str:
    """The form token of the phone holding ``token`` (derived: nothing more is kept)."""
    return hmac.new(token.encode("utf-8", "replace"), b"cantstop-box form", hashlib.sha256).hexdigest()[:32]


def _read(path: Path) -> dict:
    """The file's content, checked: what does not read as ours is an empty file (nobody paired)."""
    try:
        with open(path, "rb") as f:
            if os.fstat(f.fileno()).st_size > MAX_FILE:
                return {}
            raw = f.read(MAX_FILE + 1)
    except OSError:
        return {}
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):  # RecursionError: nested too deep
        return {}
    if not isinstance(data, dict):
        return {}
    codes = [{k: c[k] for k in ("h", "k", "until", "dead") if k in c} for c in data.get("codes", [])
             if isinstance(c, dict) and isinstance(c.get("h"), str) and isinstance(c.get("k", ""), str)
             and isinstance(c.get("until"), (int, float))] if isinstance(data.get("codes"), list) else []
    phones = [p for p in data.get("phones", []) if isinstance(p, dict) and isinstance(p.get("h"), str)
              and isinstance(p.get("since"), (int, float))] if isinstance(data.get("phones"), list) else []
    guesses = data.get("guesses", 0)
    return {"codes": codes[-CODES_KEPT:], "phones": phones[-PHONES_KEPT:],
            "guesses": guesses if isinstance(guesses, int) and 0 <= guesses < 1000 else CODE_GUESSES}


@contextlib.contextmanager
def _changing(state_dir):
    """The file's content to change in place, written back (atomically) when the block ends without raising."""
    folder = Path(state_dir)
    folder.mkdir(parents=True, exist_ok=True)
    fd = os.open(folder / LOCK, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        data = _read(folder / FILE) or {"codes": [], "phones": [], "guesses": 0}
        yield data
        temp = folder / f".{FILE}.{os.getpid()}"
        with open(os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w", encoding="utf-8") as f:
            json.dump(data, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temp, folder / FILE)
    finally:
        os.close(fd)


@dataclass(frozen=True)
class Pairing:
    """One pairing, two ways to redeem it: ``code``, six digits to type, and ``key``, the long one the
    QR code carries (a scan pairs without typing, and no count of wrong codes ever stops it)."""

    code: str
    key: str


def new_pairing(state_dir, *, now: float) -> Pairing:
    """A fresh pairing, good for :data:`CODE_SECONDS` from ``now`` (wall clock) and once."""
    made = Pairing(f"{secrets.randbelow(10 ** 6):06d}", secrets.token_urlsafe(KEY_BYTES))
    with _changing(state_dir) as data:
        live = [c for c in data["codes"] if c["until"] > now]
        data["codes"] = (live + [{"h": _hash(made.code), "k": _hash(made.key), "until": now + CODE_SECONDS}])[-CODES_KEPT:]
        data["guesses"] = 0
    return made


def new_code(state_dir, *, now: float) -> str:
    """:func:`new_pairing`'s six digits (a terminal's ``cantstop-box pair``)."""
    return new_pairing(state_dir, now=now).code


def is_key(text: str) -> bool:
    return isinstance(text, str) and len(text) == 12 and all(ch.isascii() and (ch.isalnum() or ch in "-_") for ch in text)


def is_code(text: str) -> bool:
    return isinstance(text, str) and len(text) == 6 and text.isascii() and text.isdigit()


def redeem(state_dir, code: str, *, now: float) -> str | None:
    """A paired phone's new token for a live pairing's ``code`` or QR key (then used up), else None. Each
    wrong six-digit code counts against the live codes' digits, from anyone (:data:`CODE_GUESSES`)."""
    by_key = is_key(code)
    if not by_key and not is_code(code):
        return None
    token = secrets.token_urlsafe(TOKEN_BYTES)
    wanted, field = _hash(code), "k" if by_key else "h"
    with _changing(state_dir) as data:
        live = [c for c in data["codes"] if c["until"] > now]
        usable = live if by_key else [c for c in live if not c.get("dead")]
        hit = next((c for c in usable if isinstance(c.get(field), str) and hmac.compare_digest(c[field], wanted)), None)
        data["codes"] = [c for c in live if c is not hit]
        if hit is None:
            if not by_key:
                data["guesses"] = data.get("guesses", 0) + 1
                if data["guesses"] >= CODE_GUESSES:
                    for c in data["codes"]:
                        c["dead"] = True  # typed, they are worth nothing now; scanned, they still pair
            return None
        data["phones"] = (data["phones"] + [{"h": _hash(token), "since": now}])[-PHONES_KEPT:]
    return token


def lasts(state_dir, code: str, *, now: float) -> float:
    """How many seconds ``code`` is still good from ``now`` (wall clock): 0 once a phone used it, or it ran out."""
    wanted = _hash(code)
    for kept in _read(Path(state_dir) / FILE).get("codes", []):
        if hmac.compare_digest(kept["h"], wanted):
            return max(0.0, kept["until"] - now)
    return 0.0


def paired(state_dir, token: str | None) -> bool:
    """Whether ``token`` (a cookie's value) is a phone paired now."""
    if not token or len(token) > 100:
        return False
    wanted = _hash(token)
    return any(hmac.compare_digest(p["h"], wanted) for p in _read(Path(state_dir) / FILE).get("phones", []))


def count(state_dir) -> int:
    """How many phones are paired now."""
    return len(_read(Path(state_dir) / FILE).get("phones", []))


def forget(state_dir) -> None:
    """Unpair every phone and drop every code (the menu's "forget phones")."""
    with _changing(state_dir) as data:
        data["codes"], data["phones"] = [], []


#: The port the web view serves on now, written by it as it starts (``cantstop-box web --port``, ``make run
#: WEB=1 PORT=``) and removed as it stops: the pairing page's address (the QR code, ``pair``) names the port a
#: phone can reach, not only the config's.
WEB_FILE = "web-port"


def serving(state_dir, port: int) -> None:
    """The web view serves on ``port`` from now on (written whole, then renamed)."""
    path = Path(state_dir) / WEB_FILE
    tmp = path.with_name(f".{WEB_FILE}.{os.getpid()}")
    tmp.write_text(f"{int(port)}\n")
    os.replace(tmp, path)


def stopped_serving(state_dir, port: int) -> None:
    """The web view on ``port`` stopped: its record goes (unless another one has written its own since)."""
    path = Path(state_dir) / WEB_FILE
    if served_port(state_dir, None) == port:
        with contextlib.suppress(OSError):
            path.unlink()


def served_port(state_dir, default: int | None) -> int | None:
    """The port the web view serves on (its record), else ``default`` (the config's)."""
    try:
        with open(Path(state_dir) / WEB_FILE, "rb") as f:
            text = f.read(16).decode("ascii").strip()
    except (OSError, UnicodeDecodeError):
        return default
    return int(text) if text.isdigit() and text.isascii() and 0 < int(text) < 65536 else default


def page_address(port: int, key: str | None = None, host: str | None = None) -> str:
    """The pairing page as a phone on the box's network opens it: the box's ``.local`` name (mDNS), its port,
    and a pairing's QR key (the QR code's address: scanning it pairs with one tap, no code typed)."""
    import socket

    name = (host or socket.gethostname() or "cantstop-box").split(".")[0].lower()
    address = f"http://{name}.local" + ("" if port == 80 else f":{port}") + "/pair"
    return address + (f"?k={key}" if key else "")
