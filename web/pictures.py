"""The camera's pictures as the web view serves them: fixed names only, each file's size checked before it is read.

The camera's process keeps its pictures beside the store (``camera/`` in the
state directory, :mod:`firmware.camera.link`): the last photo it read, the
board as it read it, and the empty board of the last set-up with where its
spaces lie. A request never names a path: it names one of :data:`FILES`,
and only that fixed file is opened, without following a link (a link, a
folder or a pipe in its place is not there), and its size is read from the
open file before a byte of it is: one over its limit is refused in one line
and never read. ``setup.jpg`` and ``grid.json`` are the set-up's, for a
paired phone only (:mod:`web.phone.camera`); the live page's two are every
guest's.

A page names a picture with its time, ``/camera/view.jpg?v=<mtime in ns>``:
that address is kept by the browser (it never changes), any other is asked
again each time (``no-cache``, with its ETag: an unchanged file is 304).
"""

from __future__ import annotations

import logging
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from starlette.concurrency import run_in_threadpool
from starlette.responses import Response
from starlette.routing import Route

from firmware.camera.link import GRID, PICTURES, READ, SETUP, VIEW

from .numbers import ascii_int

log = logging.getLogger("cantstop.web")

MB = 1024 * 1024
#: Each file the web view serves: its content type and the most it reads of it (the camera writes far less:
#: view.jpg is 960 px wide, read.png a board, setup.jpg a camera's full frame, grid.json 83 points).
FILES = {VIEW: ("image/jpeg", 4 * MB), READ: ("image/png", 4 * MB), SETUP: ("image/jpeg", 8 * MB),
         GRID: ("application/json", 64 * 1024)}
#: The set-up's files: a paired phone's only.
PAIRED = frozenset({SETUP, GRID})
#: A picture asked for by its time: kept (its address names that one version).
KEPT = "private, max-age=31536000, immutable"


class TooBig(OSError):
    """A picture over its limit (one line): refused, never read."""


@dataclass(frozen=True)
class Found:
    """A picture as it is now: its bytes (None when only its head was asked), type, time (ns) and size."""

    body: bytes | None
    kind: str
    mtime: int
    size: int

    @property
    def etag(self) -> str:
        return f'"{self.mtime:x}-{self.size:x}"'


def folder(state_dir) -> Path:
    return Path(state_dir) / PICTURES


def mtime(state_dir, name: str) -> int | None:
    """The picture's time in nanoseconds (its version in a page's address), None when there is none."""
    try:
        st = os.lstat(folder(state_dir) / name)
    except OSError:
        return None
    return st.st_mtime_ns if stat.S_ISREG(st.st_mode) else None


def stamp(state_dir, names=(VIEW, READ)) -> tuple:
    """Changes whenever one of the pictures is written anew (the camera replaces each whole): a few stat calls."""
    out = []
    for name in names:
        try:
            st = os.lstat(folder(state_dir) / name)
            out.append((st.st_ino, st.st_size, st.st_mtime_ns))
        except OSError:
            out.append(None)
    return tuple(out)


def read(state_dir, name: str, *, body: bool = True) -> Found | None:
    """Picture ``name`` (one of :data:`FILES`), None when there is none; :class:`TooBig` over its limit, checked on
    the open file before it is read. ``body=False``: its head only (nothing read)."""
    kind, limit = FILES[name]
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(folder(state_dir) / name, flags)
    except OSError:  # not there, or a link in its place
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):  # a folder or a pipe: not a picture
            return None
        if st.st_size > limit:
            raise TooBig(f"the camera's {name} is {st.st_size} bytes, over the {limit // 1024} KiB the web view reads")
        if not body:
            return Found(None, kind, st.st_mtime_ns, st.st_size)
        chunks, left = [], limit + 1
        while left > 0:  # never more than the limit, even if the file grew since
            chunk = os.read(fd, min(left, MB))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
        if len(data) > limit:
            raise TooBig(f"the camera's {name} grew over the {limit // 1024} KiB the web view reads")
        return Found(data, kind, st.st_mtime_ns, len(data))
    finally:
        os.close(fd)


def routes(state_dir, headers: dict, paired) -> list[Route]:
    """``/camera/<name>`` for each of :data:`FILES`; ``headers``: the site's; ``paired(request)``: whether a paired
    phone asks (the set-up's files are its only: :func:`web.phone.door.phone_of`)."""
    said: set[str] = set()  # each refusal logged once (a page asks again at each new version)

    async def picture(request):
        name = request.path_params["name"]
        if name not in FILES:
            return _line(404, "no such picture", headers)
        if name in PAIRED and not await run_in_threadpool(paired, request):
            return _line(403, "only a paired phone sees the camera's set-up", headers)
        seen = request.headers.get("if-none-match")
        try:
            found = await run_in_threadpool(_current, state_dir, name, request.method != "HEAD", seen)
        except TooBig as err:
            if str(err) not in said and len(said) < 100:
                said.add(str(err))
                log.warning("%s", err)
            return _line(500, str(err), headers)
        if found is None:
            return _line(404, "the camera has not made this picture", headers)
        asked = ascii_int(request.query_params.get("v", ""), 19)
        extra = {"ETag": found.etag, "Cache-Control": KEPT if asked == found.mtime else "no-cache"}
        if seen == found.etag:
            return Response(status_code=304, headers=headers | extra)
        response = Response(found.body or b"", media_type=found.kind, headers=headers | extra)
        if found.body is None:  # HEAD: the size it would send
            response.headers["content-length"] = str(found.size)
        return response

    return [Route("/camera/{name}", picture, methods=["GET", "HEAD"])]


def _current(state_dir, name: str, body: bool, seen: str | None) -> Found | None:
    """The picture's head, and its bytes when ``body`` is wanted and the browser's copy (ETag ``seen``) is not it."""
    head = read(state_dir, name, body=False)
    if head is None or not body or head.etag == seen:
        return head
    return read(state_dir, name)


def _line(status: int, text: str, headers: dict) -> Response:
    return Response(text + "\n", status_code=status, media_type="text/plain", headers=headers)
