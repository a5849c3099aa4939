"""A box with its phone door open and a real web view beside it, and a phone's HTTP client for them."""

from __future__ import annotations

import contextlib
import io
import os
import re
import socket
import threading

import httpx

from boxcli import cli
from firmware.config import GameConfig
from firmware.table import phone_link
from tests.kit.rig import Rig
from tests.web import fetch
from tests.web.server import Server


def pair_code(state_dir) -> str:
    """A fresh code, as an owner gets one at a terminal: ``cantstop-box pair``."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert cli.main(["pair", "--state-dir", str(state_dir)]) == 0
    return out.getvalue().strip()


@contextlib.contextmanager
def table(state_dir, *, roster=("Bob",), box=True):
    """(rig or None, server): a live box on ``state_dir`` taking phones' changes, and the web view of it."""
    settings = GameConfig(roster=roster)
    rig = Rig(state_dir, settings=settings, live=True) if box else None
    try:
        if rig is not None:
            rig.box.open_door(state_dir)
        with Server(state_dir, settings=settings) as server:
            yield rig, server
    finally:
        if rig is not None:
            rig.shutdown()


class Phone:
    """A browser on the box's network: its own cookies, the Origin a browser sends with a form."""

    def __init__(self, server, origin: str | None = None):
        self.url = server.url
        self.origin = server.url if origin is None else origin
        self.client = fetch.client(base_url=server.url, timeout=15, follow_redirects=False)

    def get(self, path: str, **kw) -> httpx.Response:
        return self.client.get(path, **kw)

    def post(self, path: str, data: dict | None = None, *, headers: dict | None = None, **kw) -> httpx.Response:
        sent = {"Origin": self.origin} if self.origin else {}
        return self.client.post(path, data=data, headers=sent | (headers or {}), **kw)

    def pair(self, code: str) -> httpx.Response:
        return self.post("/pair", {"code": code})

    def mark(self) -> str:
        """The /setup form's ``from``: the mark of the table's set-up it was made from."""
        found = re.search(r'name="from" value="([^"]*)"', self.get("/setup").text)
        assert found, "no set-up form: not paired"
        return found.group(1)

    def csrf(self, path: str = "/players") -> str:
        found = re.search(r'name="csrf" value="([^"]+)"', self.get(path).text)
        assert found, "no form token: not paired"
        return found.group(1)

    def close(self) -> None:
        self.client.close()


class FakeBox:
    """A box's socket that only listens (``box.sock`` in ``state_dir``): it keeps every request a phone's change
    became, answers each as the box takes a camera's set-up, and calls ``then(request)`` after answering (a test's
    camera writing its new pictures). For the web's side of a request, without a box on mock pins."""

    def __init__(self, state_dir, then=None) -> None:
        self.asked: list[dict] = []
        self.then = then
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.bind(str(phone_link.path_of(state_dir)))
        self.sock.listen(4)
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with conn:
                request = phone_link.parse(phone_link.read_line(conn))
                self.asked.append(request)
                conn.sendall(phone_link.encode({"ok": True, "said": "Setting the camera up", "kind": "camera"}))
            if self.then is not None:
                self.then(request)

    def close(self) -> None:
        path = self.sock.getsockname()
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)  # wakes the accept waiting in its thread
        self.sock.close()
        self.thread.join(5)
        with contextlib.suppress(OSError):
            os.unlink(path)
