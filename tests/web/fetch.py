"""HTTP to the tests' web views, with one TLS context for all of them.

``httpx.get`` makes a new client for each call, and each new client reads the system's CA bundle
into a TLS context of its own (75 ms of CPU), though every URL here is plain http://127.0.0.1: a
page-by-page test paid seconds for it. The same calls, each still a client and a connection of its
own, with the one context made here.
"""

from __future__ import annotations

import ssl

import httpx

#: Never used for a handshake (the web views speak plain HTTP); made once so no call makes its own.
PLAIN = ssl.create_default_context()


def get(url: str, **kw) -> httpx.Response:
    return httpx.get(url, verify=PLAIN, **kw)


def stream(method: str, url: str, **kw):
    return httpx.stream(method, url, verify=PLAIN, **kw)


def client(**kw) -> httpx.Client:
    return httpx.Client(verify=PLAIN, **kw)
