"""Tell systemd how the daemon is doing: a tiny sd_notify client, stdlib only.

Under a ``Type=notify`` unit systemd sets ``$NOTIFY_SOCKET`` (a path, or
``@name`` for the abstract namespace) and, with ``WatchdogSec=``,
``$WATCHDOG_USEC``. The daemon sends ``ready()`` once the first screen is
up and ``watchdog()`` from its main loop at least every
``watchdog_interval()`` seconds (it wakes at half that when idle). Outside
systemd ``Notifier.from_env()`` gives a notifier that does nothing, so the
same code runs on a laptop.

A failed send never raises: the box keeps refereeing; the failure is logged
once (systemd will notice the missing pings by itself).
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Mapping

log = logging.getLogger(__name__)


class Notifier:
    """Sends sd_notify messages to one socket address, or nowhere (``address=None``)."""

    def __init__(self, address: str | None = None, *, watchdog_usec: int | None = None,
                 watchdog_pid: int | None = None) -> None:
        self.address = address
        self._watchdog_usec = watchdog_usec
        self._watchdog_pid = watchdog_pid
        self._socket: socket.socket | None = None
        self._warned = False

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Notifier:
        """A notifier for ``$NOTIFY_SOCKET`` and ``$WATCHDOG_USEC``/``$WATCHDOG_PID``; a no-op if unset.

        >>> Notifier.from_env({}).enabled
        False
        >>> Notifier.from_env({"NOTIFY_SOCKET": "@box", "WATCHDOG_USEC": "10000000"}).watchdog_interval()
        10.0
        """
        env = os.environ if environ is None else environ
        address = env.get("NOTIFY_SOCKET") or None
        if address is not None and not address.startswith(("/", "@")):
            log.warning("ignoring NOTIFY_SOCKET=%r: only path and abstract (@) sockets are supported", address)
            address = None
        return cls(address, watchdog_usec=_positive_int(env.get("WATCHDOG_USEC")),
                   watchdog_pid=_positive_int(env.get("WATCHDOG_PID")))

    @property
    def enabled(self) -> bool:
        """Whether messages go anywhere (we run under systemd)."""
        return self.address is not None

    def ready(self, status: str | None = None) -> bool:
        """Startup is finished (the first screen is up); optionally with a status line."""
        return self.send("READY=1", *(() if status is None else (_status(status),)))

    def status(self, text: str) -> bool:
        """A one-line status for ``systemctl status cantstop-box``."""
        return self.send(_status(text))

    def watchdog(self) -> bool:
        """Still alive: call at least every ``watchdog_interval()`` seconds."""
        return self.send("WATCHDOG=1")

    def stopping(self) -> bool:
        """Shutdown has begun."""
        return self.send("STOPPING=1")

    def extend_timeout(self, seconds: float) -> bool:
        """Ask for ``seconds`` more before systemd gives up on a slow start or stop."""
        return self.send(f"EXTEND_TIMEOUT_USEC={max(0, round(seconds * 1_000_000))}")

    def watchdog_interval(self) -> float | None:
        """Seconds within which systemd wants ``watchdog()``, or None when there is no watchdog (for us)."""
        if self._watchdog_usec is None:
            return None
        if self._watchdog_pid is not None and self._watchdog_pid != os.getpid():
            return None  # the watchdog is meant for another process
        return self._watchdog_usec / 1_000_000

    def send(self, *fields: str) -> bool:
        """Send ``KEY=value`` fields as one datagram; True if it went out. Never raises."""
        if self.address is None:
            return False
        message = "\n".join(fields).encode("utf-8")
        target = "\0" + self.address[1:] if self.address.startswith("@") else self.address
        try:
            if self._socket is None:
                self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
            self._socket.sendto(message, target)
        except OSError as exc:
            if not self._warned:
                self._warned = True
                log.warning("cannot notify systemd at %s: %s (further failures are not logged)",
                            self.address, exc.strerror or exc)
            return False
        return True

    def close(self) -> None:
        """Release the socket; safe to call twice."""
        sock, self._socket = self._socket, None
        if sock is not None:
            sock.close()

    def __enter__(self) -> Notifier:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()


def _status(text: str) -> str:
    return "STATUS=" + " ".join(str(text).split())


def _positive_int(text: str | None) -> int | None:
    try:
        value = int(text) if text else None
    except ValueError:
        return None
    return value if value and value > 0 else None
