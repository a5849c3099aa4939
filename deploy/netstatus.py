#!/usr/bin/env python3
"""The box's network, written down for its own screen (cantstop-box-network.service).

The box's daemon keeps no network (PrivateNetwork=yes), so it cannot see its own name or
addresses, nor whether the Wi-Fi worked. This small program, with the network and nothing
else, looks every few seconds and writes what it sees to one small file the daemon reads:

    /run/cantstop-box-network/network.json
    {"host": "cantstop", "local": "cantstop.local", "addresses": ["192.168.1.23"],
     "wifi": {"state": "failed", "network": "Home", "reason": "WRONG_KEY"}, "card": "..."}

- ``addresses``: the IPv4 addresses of the home network (``ip -j addr``: interfaces that are up,
  not the loopback, global scope);
- ``local``: the ``.local`` name (mDNS), when an mDNS responder answers for it (Avahi, as on Raspberry
  Pi OS, or systemd-resolved with MulticastDNS=yes, as on the card), else null;
- ``wifi.state``: ``joined``, ``joining`` or ``failed`` (``reason`` WRONG_KEY when the password was
  refused, NOT_FOUND when no scan found it), from wpa_supplicant's control interface
  (/run/wpa_supplicant); ``none`` (the card had
  no wifi.txt) or ``unusable`` (it had one it could not use) from the card's first-boot note
  (deploy/image/cardsetup.py leaves it beside the status file); ``unknown`` otherwise (a box whose
  Wi-Fi something else manages, or a cable);
- ``card``: the card's own line about its Wi-Fi, for the journal (null on a hand-made box).

The file is replaced in one step (written beside, then renamed) and only when it changed.
Standard library only; run by the system's python3. Each problem is one line in the journal
(journalctl -u cantstop-box-network). Tested in tests/systemd/test_network_status.py.
"""

from __future__ import annotations

import json
import os
import re
import select
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

STATUS_DIR = Path("/run/cantstop-box-network")
STATUS_FILE = "network.json"
CARD_FILE = "card-wifi.json"  # cardsetup.py's first-boot note
WPA_DIR = Path("/run/wpa_supplicant")
AVAHI_PID = Path("/run/avahi-daemon/pid")
RESOLVED_RUN = Path("/run/systemd/resolve")  # systemd-resolved runs (the card's mDNS responder)
RESOLVED_CONFS = (Path("/etc/systemd/resolved.conf"), Path("/etc/systemd/resolved.conf.d"),
                  Path("/run/systemd/resolved.conf.d"), Path("/usr/lib/systemd/resolved.conf.d"))
CHECK_SECONDS = 3.0
MAX_CARD_BYTES = 4096
MAX_IP_BYTES = 256 * 1024
WPA_TIMEOUT = 2.0
CARD_STATES = ("none", "unusable", "taken", "kept")  # what cardsetup.py found on the boot partition
#: Scans in a row that found none of the networks set up before the box says it could not join (a router
#: still starting answers after a scan or two; a name spelt wrong never does).
NOT_FOUND_SCANS = 3

#: wpa_supplicant's states while it is still on its way to a network.
_JOINING = {"SCANNING", "AUTHENTICATING", "ASSOCIATING", "ASSOCIATED", "4WAY_HANDSHAKE", "GROUP_HANDSHAKE"}
_TEMP_DISABLED = re.compile(r'CTRL-EVENT-SSID-TEMP-DISABLED id=(\d+) ssid="(.*)" auth_failures=\d+ '
                            r'duration=\d+ reason=(\S+)')


def log(text: str) -> None:
    print(f"cantstop-box-network: {text}", flush=True)


# -- what the tools say -----------------------------------------------------------------

def addresses(ip_json: str) -> list[str]:
    """The IPv4 addresses of the home network in ``ip -j addr``'s output: interfaces up, no loopback,
    global scope (not 127.0.0.1, not a 169.254 address made up for want of a DHCP server)."""
    found = []
    try:
        links = json.loads(ip_json or "[]")
    except (ValueError, RecursionError):  # RecursionError: nested too deep, which is no ValueError
        return found
    for link in links if isinstance(links, list) else []:
        if not isinstance(link, dict):
            continue
        flags = link.get("flags", [])
        if "UP" not in flags or "LOOPBACK" in flags:
            continue
        for info in link.get("addr_info", []):
            if isinstance(info, dict) and info.get("family") == "inet" and info.get("scope") == "global" and info.get("local"):
                found.append(str(info["local"]))
    return found


def key_values(reply: str) -> dict[str, str]:
    """A ``key=value`` reply of wpa_supplicant (STATUS), as a dict."""
    pairs = (line.partition("=") for line in reply.splitlines())
    return {key: value for key, sep, value in pairs if sep}


_ESCAPES = {"\\": b"\\", '"': b'"', "n": b"\n", "r": b"\r", "t": b"\t", "e": b"\x1b"}


def unescaped(name: str) -> str:
    r"""A network name as wpa_supplicant reports it (its printf_encode: each byte outside printable ASCII as
    \xNN, and \\, \", \n, \r, \t, \e) as the text it is: Caf\xc3\xa9 is Café. Bytes that are not
    UTF-8 show as U+FFFD (tests/systemd/test_network_status.py)."""
    out, i = bytearray(), 0
    while i < len(name):
        ch = name[i]
        if ch == "\\" and i + 1 < len(name):
            nxt = name[i + 1]
            if nxt == "x" and re.fullmatch(r"[0-9a-fA-F]{2}", name[i + 2:i + 4]):
                out.append(int(name[i + 2:i + 4], 16))
                i += 4
                continue
            if nxt in _ESCAPES:
                out += _ESCAPES[nxt]
                i += 2
                continue
        out += ch.encode("utf-8")
        i += 1
    return out.decode("utf-8", "replace")


def networks(reply: str) -> list[tuple[str, str]]:
    """LIST_NETWORKS: each configured network's (name, flags) ("[CURRENT]", "[TEMP-DISABLED]")."""
    rows = []
    for line in reply.splitlines()[1:]:
        cells = line.split("\t")
        if len(cells) >= 4:
            rows.append((unescaped(cells[1]), cells[3]))
    return rows


def failure(event: str) -> tuple[str, str] | None:
    """(network, reason) of a CTRL-EVENT-SSID-TEMP-DISABLED event (reason WRONG_KEY: the password), else None."""
    match = _TEMP_DISABLED.search(event)
    return (unescaped(match.group(2)), match.group(3)) if match else None


def wifi_state(status: str | None, listed: str | None, failed: tuple[str, str] | None,
               card: dict | None) -> dict:
    """The Wi-Fi as the screen says it, from wpa_supplicant's STATUS and LIST_NETWORKS replies (None: no
    wpa_supplicant to ask), the last refusal it announced, and the card's first-boot note."""
    card_state = (card or {}).get("state")
    if status is None:
        if card_state in ("none", "unusable"):
            return {"state": card_state, "network": (card or {}).get("network", "")}
        return {"state": "unknown", "network": ""}
    values = key_values(status)
    rows = networks(listed or "")
    name = unescaped(values.get("ssid", "")) or (rows[0][0] if rows else "")
    state = values.get("wpa_state", "")
    if state == "COMPLETED":
        return {"state": "joined", "network": name}
    if card_state == "unusable":
        return {"state": "unusable", "network": (card or {}).get("network", "")}
    if not rows:
        return {"state": "none" if card_state == "none" else "unknown", "network": ""}
    disabled = [n for n, flags in rows if "TEMP-DISABLED" in flags]
    if failed is not None and (not disabled or failed[0] in disabled):
        return {"state": "failed", "network": failed[0] or name, "reason": failed[1]}
    if disabled:
        return {"state": "failed", "network": disabled[0], "reason": ""}
    return {"state": "joining", "network": name}


def snapshot(host: str, mdns: bool, ip_json: str, status: str | None, listed: str | None,
             failed: tuple[str, str] | None, card: dict | None) -> dict:
    """The status file's content (pure: every input already read)."""
    name = host.split(".")[0]
    return {"host": name, "local": f"{name}.local" if mdns and name else None, "addresses": addresses(ip_json),
            "wifi": wifi_state(status, listed, failed, card), "card": (card or {}).get("line")}


# -- reading them -----------------------------------------------------------------------

def read_card(folder: Path = STATUS_DIR) -> dict | None:
    """cardsetup.py's note (its size checked before it is read whole), or None."""
    path = folder / CARD_FILE
    try:
        if path.stat().st_size > MAX_CARD_BYTES:
            return None
        note = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):  # RecursionError: nested too deep, which is no ValueError
        return None
    if not isinstance(note, dict) or note.get("state") not in CARD_STATES:
        return None
    return {k: str(note.get(k) or "") for k in ("state", "network", "line")}


def mdns_answers(avahi_pid: Path = AVAHI_PID, resolved_run: Path = RESOLVED_RUN,
                 confs: tuple[Path, ...] = RESOLVED_CONFS) -> bool:
    """Does an mDNS responder answer for the box's name: Avahi running, or systemd-resolved running with
    ``MulticastDNS=yes`` in its settings?"""
    if avahi_pid.exists():
        return True
    if not resolved_run.is_dir():
        return False
    files = [f for c in confs for f in ((sorted(c.glob("*.conf")) if c.is_dir() else [c]))]
    setting = ""
    for f in files:  # the later file wins, as systemd reads them
        try:
            if f.stat().st_size > MAX_CARD_BYTES * 4:
                continue
            lines = f.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            continue
        for line in lines:
            key, sep, value = line.strip().partition("=")
            if sep and key.strip() == "MulticastDNS":
                setting = value.strip().lower()
    return setting in ("yes", "true", "1", "on")


_said: set[str] = set()


def log_once(text: str) -> None:
    """A problem that would come back every few seconds, in the journal once."""
    if text not in _said:
        _said.add(text)
        log(text)


def ip_addr(run=subprocess.run) -> str:
    """``ip -j addr`` (iproute2), "[]" when it cannot say."""
    try:
        done = run(["ip", "-j", "addr"], capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.SubprocessError) as err:
        log_once(f"ip -j addr: {err}")
        return "[]"
    if done.returncode != 0 or len(done.stdout) > MAX_IP_BYTES:
        log_once(f"ip -j addr: exit status {done.returncode}, {len(done.stdout)} characters: no address read")
        return "[]"
    return done.stdout


class Supplicant:
    """wpa_supplicant's control interface: one datagram socket, attached for its events (as wpa_cli does)."""

    def __init__(self, ctrl_dir: Path = WPA_DIR, local_dir: Path = STATUS_DIR) -> None:
        self.ctrl_dir, self.local_dir = ctrl_dir, local_dir
        self.sock: socket.socket | None = None
        self.local: Path | None = None
        self.failed: tuple[str, str] | None = None  # the last refusal announced, until a network is joined
        self.not_found = 0  # scans in a row that found no network set up

    def _interface(self) -> Path | None:
        try:
            found = sorted(p for p in self.ctrl_dir.iterdir() if p.is_socket())
        except OSError:
            return None
        wlan = [p for p in found if p.name.startswith("wlan")]
        return (wlan or found or [None])[0]

    def open(self) -> bool:
        """Connected and attached (True), or there is no wpa_supplicant to ask now."""
        if self.sock is not None:
            return True
        path = self._interface()
        if path is None:
            return False
        self.local = self.local_dir / f"wpa-ctrl-{os.getpid()}"
        self.local.unlink(missing_ok=True)
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        try:
            sock.bind(str(self.local))
            sock.settimeout(WPA_TIMEOUT)
            sock.connect(str(path))
            self.sock = sock
            if self.request("ATTACH") != "OK\n":
                raise OSError("ATTACH refused")
        except OSError as err:
            log_once(f"wpa_supplicant at {path}: {err}")
            self.close(sock)
            return False
        return True

    def close(self, sock: socket.socket | None = None) -> None:
        for open_one in {sock, self.sock} - {None}:
            open_one.close()
        self.sock = None
        if self.local is not None:
            self.local.unlink(missing_ok=True)

    def _event(self, text: str) -> None:
        if "CTRL-EVENT-CONNECTED" in text:
            self.failed, self.not_found = None, 0
        elif "CTRL-EVENT-NETWORK-NOT-FOUND" in text:
            self.not_found += 1
            if self.not_found >= NOT_FOUND_SCANS and self.failed is None:
                self.failed = ("", "NOT_FOUND")  # its name from LIST_NETWORKS
        elif "Trying to associate" in text:
            self.not_found = 0
        refused = failure(text)
        if refused is not None:
            self.failed = refused

    def request(self, command: str) -> str:
        """One command's reply; the events that come first are taken as they come."""
        assert self.sock is not None
        self.sock.send(command.encode())
        while True:
            reply = self.sock.recv(8192).decode("utf-8", "replace")
            if not re.match(r"<\d>", reply):
                return reply
            self._event(reply)

    def wait(self, seconds: float) -> None:
        """Take its events for up to ``seconds`` (just sleep when there is none to ask)."""
        if self.sock is None:
            time.sleep(seconds)
            return
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            ready, _, _ = select.select([self.sock], [], [], left)
            if not ready:
                return
            try:
                self._event(self.sock.recv(8192).decode("utf-8", "replace"))
            except OSError:
                self.close()
                return

    def ask(self) -> tuple[str | None, str | None]:
        """(STATUS, LIST_NETWORKS) replies, or (None, None) with no wpa_supplicant to ask."""
        if not self.open():
            return None, None
        try:
            return self.request("STATUS"), self.request("LIST_NETWORKS")
        except OSError as err:  # it went away (restarted): asked again next time
            log(f"wpa_supplicant: {err}")
            self.close()
            return None, None


# -- writing it -------------------------------------------------------------------------

def write_status(status: dict, folder: Path = STATUS_DIR) -> None:
    """The status file replaced in one step: a reader sees the old file or the new one, whole."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / STATUS_FILE
    part = folder / (STATUS_FILE + ".new")
    fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump(status, out, ensure_ascii=False, sort_keys=True)
        out.write("\n")
    os.replace(part, path)


def watch(folder: Path = STATUS_DIR, ctrl_dir: Path = WPA_DIR, rounds: int | None = None,
          every: float = CHECK_SECONDS) -> None:
    """Look every ``every`` seconds and write the status file whenever it changed (``rounds``: tests)."""
    wpa = Supplicant(ctrl_dir, folder)
    last = None
    try:
        while rounds is None or rounds > 0:
            status, listed = wpa.ask()
            now = snapshot(socket.gethostname(), mdns_answers(), ip_addr(), status, listed, wpa.failed,
                           read_card(folder))
            if now != last:
                write_status(now, folder)
                if last is None or now["wifi"] != last["wifi"] or now["addresses"] != last["addresses"]:
                    log(f"{', '.join(now['addresses']) or 'no address'}; Wi-Fi {now['wifi']['state']}")
                last = now
            if rounds is not None:
                rounds -= 1
                if not rounds:
                    break
            wpa.wait(every)
    finally:
        wpa.close()


def main(argv: list[str]) -> int:
    if len(argv) > 1:
        print("usage: netstatus.py (no arguments: run by cantstop-box-network.service)", file=sys.stderr)
        return 2
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # systemctl stop: its socket file goes too
    try:
        watch()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
