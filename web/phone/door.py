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
- **Few wrong codes**: after :data:`WRONG_LIMIT` wrong pairing codes within a
  minute, from any address, every code is refused (429) for a minute.
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
WRONG_LIMIT = 5
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
    """Wrong pairing codes, counted for every address together: the limit stops a guess at the codes."""

    def __init__(self, clock=time.monotonic) -> None:
        self.clock = clock
        self.times: list[float] = []
        self.until = 0.0

    def blocked(self) -> bool:
        return self.clock() < self.until

    def wrong(self) -> None:
        now = self.clock()
        self.times = [t for t in self.times if now - t < WRONG_WINDOW] + [now]
        if len(self.times) >= WRONG_LIMIT:
            self.until = now + WRONG_WINDOW
            self.times = []
