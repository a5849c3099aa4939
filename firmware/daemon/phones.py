"""A paired phone's changes reach the box: its own unix socket, and nothing more.

:class:`PhoneDoor` listens on ``box.sock`` in the state directory
(:mod:`firmware.table.phone_link`) in a thread of its own: it reads one
request line (16 KB at most, two seconds at most), checks its shape, and puts
it on the loop's queue as an :class:`Asked`; the loop feeds it to the UI
between two presses (:class:`firmware.ui.PhoneAsked`, answered in
:mod:`firmware.ui.phone`) and carries out the reply the UI gives, and the door
writes that answer back. The loop never waits on a phone: a slow or silent
client holds only the door's thread, one connection at a time. A request the
loop has queued is carried out even if the phone stopped waiting (never
lost); a name change is written as the command line writes it, kept pending
by the store if the card refuses it.
"""

from __future__ import annotations

import itertools
import logging
import os
import socket
import threading

from firmware.table import phone_link as link

log = logging.getLogger("cantstop.daemon")

READ_SECONDS = 2.0  # a client has this long to send its request line
ANSWER_SECONDS = link.WAIT - 1.0  # how long the door waits for the loop's answer


_TICKETS = itertools.count(1)


class Asked:
    """One request on its way through the loop, and the answer the door waits for; ``ticket`` names it."""

    def __init__(self, request: dict) -> None:
        self.request = request
        self.ticket = next(_TICKETS)
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
