"""What every response passes through, before and after the routes: an ASGI middleware.

- **Only the box's own names.** A request whose ``Host`` is not one of the
  box's names gets 421 in one line: a page on another site whose name was
  pointed at the box (DNS rebinding) cannot read it. The names: the box's
  host name and ``<hostname>.local``, ``localhost``, the name the config's
  ``[web] host`` gives (when it is a name), and any address written as one
  (``192.168.1.20``, ``127.0.0.1``, ``[::1]``: a rebinding needs a name).
- **Headers of 16 KiB at most**, however they arrive (h11 limits only a head
  still incomplete): more is 431.
- **The security headers on every response**, redirects, errors and the
  event stream included (a route's own value wins, as the assets' caching).
- **The language**: a page asked for with ``?lang=xx`` (one the box speaks)
  sets a ``lang`` cookie, so the next page (a tap on the history) keeps it;
  the routes read ``?lang=`` first, then the cookie, then the browser's.
  Only a page (an HTML answer) sets it: the live page's own stream and
  polls carry its language as ``?lang=`` too, and a cookie from them would
  pin the browser's language of the moment for a year, over the phone's
  own setting, as if someone had chosen it.
"""

from __future__ import annotations

import ipaddress
import socket

from firmware import i18n

from .pages import CSP

COOKIE = "lang"
COOKIE_AGE = 365 * 24 * 3600
MAX_HEAD = 16 * 1024  # bytes of request target and headers
HEADERS = {"content-security-policy": CSP, "x-content-type-options": "nosniff", "referrer-policy": "no-referrer",
           "x-frame-options": "DENY", "cache-control": "no-store"}
_RAW = [(k.encode(), v.encode()) for k, v in HEADERS.items()]
#: The security headers as raw pairs: what every refusal the server writes itself carries too (web.serve).
RAW_HEADERS = tuple(_RAW)


def raw_refusal(status: int, reason: str, body: bytes, extra=()) -> bytes:
    """A whole HTTP/1.1 refusal as bytes, with the security headers, for a connection closed after it: what the
    server writes itself, before any route (too many connections, a request it cannot read)."""
    head = [b"HTTP/1.1 %d %s" % (status, reason.encode()), b"content-type: text/plain; charset=utf-8",
            b"connection: close", b"content-length: %d" % len(body)]
    head += [k + b": " + v for k, v in (*extra, *_RAW)]
    return b"\r\n".join(head) + b"\r\n\r\n" + body


def own_names(extra=()) -> frozenset[str]:
    """The names a request may call the box by (lower case, no port)."""
    names = {"localhost", "localhost.localdomain"}
    try:
        host = socket.gethostname().lower().rstrip(".")
    except OSError:
        host = ""
    if host:
        short = host.split(".")[0]
        names |= {host, short, f"{short}.local"}
    for name in extra:
        if name:
            names.add(str(name).lower().strip().rstrip("."))
    return frozenset(names)


def host_name(header: str) -> str:
    """A Host header's name or address, without its port, lower case (``[::1]:8080`` -> ``::1``)."""
    text = header.strip().lower()
    if text.startswith("["):
        return text[1:].partition("]")[0]
    return text.rpartition(":")[0] if text.count(":") == 1 else text


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        return False


def cookie_lang(cookie_header: str | None) -> str | None:
    """The ``lang`` cookie's value when it is one the box speaks, else None."""
    for part in (cookie_header or "").split(";")[:50]:
        name, _, value = part.strip().partition("=")
        if name == COOKIE and value.strip() in i18n.LANGUAGES:
            return value.strip()
    return None


def _query_lang(query: bytes) -> str | None:
    for part in query.decode("latin-1").split("&")[:50]:
        name, _, value = part.partition("=")
        if name == "lang" and value in i18n.LANGUAGES:
            return value
    return None


class Guard:
    def __init__(self, app, names: frozenset[str] = frozenset()):
        self.app = app
        self.names = names or own_names()

    def allowed(self, host: str) -> bool:
        name = host_name(host).rstrip(".")
        return name in self.names or _is_address(name)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        size = len(scope.get("raw_path") or b"") + len(scope.get("query_string", b""))
        host = None
        for name, value in scope["headers"]:
            size += len(name) + len(value) + 4
            if name == b"host":
                host = value.decode("latin-1")
        if size > MAX_HEAD:
            await _refuse(send, 431, b"request headers over 16 KiB\n")
            return
        if host is not None and not self.allowed(host):
            await _refuse(send, 421, b"not a name of this box: open it by its own name or address\n")
            return
        extra: list[tuple[bytes, bytes]] = []
        lang = _query_lang(scope.get("query_string", b""))
        if lang is not None:
            extra.append((b"set-cookie", f"{COOKIE}={lang}; Path=/; Max-Age={COOKIE_AGE}; SameSite=Lax".encode()))

        async def sending(message):
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                have = {k.lower() for k, _ in headers}
                headers += [(k, v) for k, v in _RAW if k not in have]
                if any(k.lower() == b"content-type" and v.startswith(b"text/html") for k, v in headers):
                    headers += extra
                message = dict(message, headers=headers)
            await send(message)

        await self.app(scope, receive, sending)


async def _refuse(send, status: int, body: bytes) -> None:
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"text/plain; charset=utf-8"), (b"connection", b"close"), *_RAW]})
    await send({"type": "http.response.body", "body": body})
