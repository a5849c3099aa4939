"""The box's network, as the status writer (deploy/netstatus.py, its own service) last saw it.

The daemon keeps no network of its own (its unit has PrivateNetwork=yes): every :data:`CHECK`
seconds the loop reads the one small file that service writes, its size checked before it is read
whole, and feeds what it says to the UI (:class:`firmware.ui.NetworkSeen`) when it changed, or while
a Wi-Fi problem waits to be said. The file is in RAM (/run) and a few hundred bytes: a read never
keeps the loop from systemd's watchdog. A missing, partial, huge or corrupt file means "not known"
(no address in the menu), said once in the journal, never a traceback.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

from firmware import ui

log = logging.getLogger("cantstop.daemon")

#: Where cantstop-box-network.service writes the status (deploy/netstatus.py).
STATUS = Path("/run/cantstop-box-network/network.json")
#: Seconds between two reads of it.
CHECK = 5.0
#: A status is a few hundred bytes; a bigger file is not one.
MAX_BYTES = 4096
WIFI_STATES = ("joined", "joining", "failed", "none", "unusable", "unknown")
_UNKNOWN = ui.NetworkSeen(known=False)


class Unreadable(ValueError):
    """The status file is not one the box can use (one line)."""


def _text(value, limit: int, what: str) -> str:
    if value is None:
        return ""
    if not isinstance(value, str) or len(value) > limit or not value.isprintable():
        raise Unreadable(f"{what} is not a short line of text")
    return value


def parse(text: str) -> ui.NetworkSeen:
    """The status file's JSON as the UI takes it; :class:`Unreadable` for anything else."""
    try:
        status = json.loads(text)
    except ValueError as err:
        raise Unreadable(f"not JSON ({err.msg})") from None
    except RecursionError:  # a few KB of nested [ ]: not a ValueError, and it must not end the loop
        raise Unreadable("not JSON (nested too deep)") from None
    if not isinstance(status, dict):
        raise Unreadable("not a JSON object")
    addresses = status.get("addresses", [])
    if not isinstance(addresses, list) or len(addresses) > 16:
        raise Unreadable("addresses is not a short list")
    wifi = status.get("wifi") or {}
    if not isinstance(wifi, dict) or wifi.get("state", "unknown") not in WIFI_STATES:
        raise Unreadable("wifi is not a known state")
    return ui.NetworkSeen(local=_text(status.get("local"), 80, "local"),
                          addresses=tuple(_text(a, 45, "an address") for a in addresses),
                          wifi=wifi.get("state", "unknown"), network=_text(wifi.get("network"), 128, "network"),
                          reason=_text(wifi.get("reason"), 40, "reason"))


def read(path: Path) -> ui.NetworkSeen:
    """The status in ``path``; :class:`Unreadable` (or OSError) when there is none the box can use."""
    with path.open("rb") as f:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise Unreadable(f"{size} bytes: more than {MAX_BYTES} is not a network status")
        data = f.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise Unreadable(f"more than {MAX_BYTES} bytes: not a network status")
    try:
        return parse(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise Unreadable("not UTF-8 text") from None


class NetworkWatch:
    """The loop's look at the status file: due every :data:`CHECK` seconds, by the loop's clock."""

    def __init__(self, path: Path = STATUS, due: float | None = 0.0, every: float = CHECK) -> None:
        self.path, self.due, self.every = path, due, every
        self.seen = _UNKNOWN  # what the UI was last told (at boot it knows nothing)
        self._said: str | None = None  # the last problem written to the journal

    def _read(self) -> ui.NetworkSeen:
        try:
            seen = read(self.path)
        except FileNotFoundError:
            return self._note(_UNKNOWN, f"no network status yet ({self.path}): the menu shows no address")
        except (OSError, Unreadable) as err:
            return self._note(_UNKNOWN, f"network status {self.path} unreadable: {err}")
        return self._note(seen, None)

    def _note(self, seen: ui.NetworkSeen, problem: str | None) -> ui.NetworkSeen:
        """One journal line when the file goes wrong (or right again after being unreadable), not one a look;
        at boot the file may come a moment after the box: its arrival is no news."""
        if problem is not None and problem != self._said:
            log.info("%s", problem)
        elif problem is None and self._said is not None and not self._said.startswith("no network status yet"):
            log.info("network status readable again (%s)", self.path)
        self._said = problem
        return seen

    def poll(self, now: float, unsaid: bool = False) -> ui.NetworkSeen | None:
        """Once due by ``now`` (the loop's clock): the status read, when it changed or a problem waits to be
        said (``unsaid``, the UI's :func:`ui.network_unsaid`), for the loop to feed like any input; else None.
        It takes nothing of the box: what it saw is its answer (issue 48, item 3)."""
        if self.due is None or now < self.due:
            return None
        self.due = now + self.every
        seen = self._read()
        if seen != self.seen or unsaid:
            self.seen = seen
            return seen
        return None
