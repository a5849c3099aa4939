"""What every response passes through, before and after the routes: an ASGI middleware.

- The language: a page asked for with ``?lang=xx`` (one the box speaks) sets a
  ``lang`` cookie, so the next page (a tap on the history) keeps it; the
  routes read ``?lang=`` first, then the cookie, then the browser's.
"""

from __future__ import annotations

from firmware import i18n

COOKIE = "lang"
COOKIE_AGE = 365 * 24 * 3600


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
    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra: list[tuple[bytes, bytes]] = []
        lang = _query_lang(scope.get("query_string", b""))
        if lang is not None:
            extra.append((b"set-cookie", f"{COOKIE}={lang}; Path=/; Max-Age={COOKIE_AGE}; SameSite=Lax".encode()))

        async def sending(message):
            if message["type"] == "http.response.start" and extra:
                message = dict(message, headers=[*message.get("headers", ()), *extra])
            await send(message)

        await self.app(scope, receive, sending)
