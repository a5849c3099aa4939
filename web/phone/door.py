"""What a write from a phone must pass before anything is asked of the box.

- **A paired phone**: its ``phone`` cookie (``HttpOnly``, ``SameSite=Strict``)
  is a token :mod:`firmware.table.phones` knows; "forget phones" on the box
  makes every cookie worthless at once.
- **Its form token**: the hidden field ``csrf`` must be the one derived from
  that phone's own token (another phone's, or one from before a new pairing,
  is refused).
- **The same site**: the ``Origin`` header must name the host the request
  came to (the guard has already checked it is one of the box's names). A
  browser sends it with every form it posts; a request without it is refused.
- **A small body**: 16 KB at most, counted as it arrives, whatever
  ``Content-Length`` says; only ``application/x-www-form-urlencoded`` text.
- **Few wrong codes**: a typed code is counted before it is tried (so codes sent
  at once cannot all slip past the count) and forgiven when it pairs. After
  :data:`PER_CLIENT` wrong ones within a minute from one address, that address's
  typed codes are refused (429) for a minute, and after :data:`WRONG_LIMIT` from
  all addresses, everyone's are. A QR code's key is never refused by these
  counts: nobody guesses it, so a guest can never keep the owner from pairing
  by scanning the box's screen. (:mod:`firmware.table.phones` also retires the
  live codes' digits after :data:`~firmware.table.phones.CODE_GUESSES` wrong ones.)
"""

from __future__ import annotations

import hmac
import time
from urllib.parse import parse_qsl, urlsplit

from firmware.table import phones

from ..guard import host_name
from ..numbers import ascii_int

COOKIE = "phone"
COOKIE_AGE = 400 * 24 * 3600  # the longest a browser keeps a cookie: the phone stays paired until "forget phones"
MAX_BODY = 16 * 1024
MAX_FIELDS = 40
WRONG_LIMIT = 5  # typed codes a minute, from every address together
PER_CLIENT = 3  # ... and from one address
WRONG_WINDOW = 60.0  # seconds the wrong codes are counted over, and the wait after the limit


class Refused(Exception):
    """A write that does not pass: its status and the key of the phone pages' words that say why."""

    def __init__(self, status: int, key: str) -> None:
        super().__init__(key)
        self.status = status
        self.key = key


def cookie_token(cookie_header: str | None) -> str | None:
    for part in (cookie_header or "").split(";")[:50]:
        name, _, value = part.strip().partition("=")
        if name == COOKIE and 0 < len(value.strip()) <= 100:
            return value.strip()
    return None


def set_cookie(token: str) -> str:
    return f"{COOKIE}={token}; Path=/; Max-Age={COOKIE_AGE}; HttpOnly; SameSite=Strict"


def phone_of(request, state_dir) -> str | None:
    """The token of the paired phone that sent ``request``, or None (not paired, or forgotten)."""
    token = cookie_token(request.headers.get("cookie"))
    return token if token is not None and phones.paired(state_dir, token) else None


def same_site(request) -> bool:
    """Whether the request's ``Origin`` is the very host it was sent to (http, same name and port)."""
    origin = request.headers.get("origin")
    host = request.headers.get("host")
    if not origin or not host:
        return False
    parts = urlsplit(origin.strip())
    return parts.scheme in ("http", "https") and host_name(parts.netloc) == host_name(host) and \
        (parts.port or 80) == (urlsplit("//" + host.strip()).port or 80)


async def form(request) -> dict[str, str]:
    """The posted form's fields (the first value of each), read 16 KB at most."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/x-www-form-urlencoded":
        raise Refused(415, "other_site")
    declared = request.headers.get("content-length", "")
    if (ascii_int(declared, 19) or 0) > MAX_BODY:
        raise Refused(413, "too_big")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise Refused(413, "too_big")
    try:
        pairs = parse_qsl(body.decode("ascii"), keep_blank_values=True, strict_parsing=False, encoding="utf-8",
                          errors="strict", max_num_fields=MAX_FIELDS)
    except (UnicodeError, ValueError):
        raise Refused(400, "too_big") from None
    out: dict[str, str] = {}
    for key, value in pairs:
        out.setdefault(key, value)
    return out


async def write(request, state_dir) -> tuple[str, dict[str, str]]:
    """The checks every write from a phone passes: same site, a small form, a paired phone, its token.
    Returns the phone's token and the form's fields; raises :class:`Refused`."""
    if not same_site(request):
        raise Refused(403, "other_site")
    fields = await form(request)
    token = phone_of(request, state_dir)
    if token is None:
        raise Refused(403, "not_paired")
    if not hmac.compare_digest(fields.get("csrf", "").encode("utf-8", "replace"),
                               phones.csrf_of(token).encode()):
        raise Refused(403, "form_old")
    return token, fields


class WrongCodes:
    """Typed pairing codes, counted per address and for all together: the limit stops a guess at the codes.

    :meth:`attempt` counts a code before it is tried, in the same step as the check (the web view runs one
    event loop, and nothing awaits between the two), and :meth:`forgive` takes it back when it paired."""

    def __init__(self, clock=time.monotonic) -> None:
        self.clock = clock
        self.times: list[tuple[float, str]] = []
        self.until: dict[str, float] = {}  # an address refused until then ("" : every address)

    def _prune(self, now: float) -> None:
        self.times = [(t, c) for t, c in self.times if now - t < WRONG_WINDOW]
        self.until = {c: u for c, u in self.until.items() if u > now}

    def blocked(self, client: str = "") -> bool:
        now = self.clock()
        self._prune(now)
        return "" in self.until or client in self.until

    def attempt(self, client: str) -> bool:
        """Count a typed code from ``client`` before it is tried; False (and not counted) when refused now."""
        if self.blocked(client):
            return False
        now = self.clock()
        self.times.append((now, client))
        if sum(1 for _, c in self.times if c == client) >= PER_CLIENT:
            self.until[client] = now + WRONG_WINDOW
        if len(self.times) >= WRONG_LIMIT:
            self.until[""] = now + WRONG_WINDOW
        return True

    def forgive(self, client: str) -> None:
        """The code ``client`` just tried was right: it does not count."""
        for i in range(len(self.times) - 1, -1, -1):
            if self.times[i][1] == client:
                del self.times[i]
                break
        if sum(1 for _, c in self.times if c == client) < PER_CLIENT:
            self.until.pop(client, None)
        if len(self.times) < WRONG_LIMIT:
            self.until.pop("", None)